import { describe, expect, test } from 'vitest';
import {
  idealBubbleFraction,
  measuredBubbleFraction,
  oneForwardOneBackward,
  peakInFlight,
} from '../../../../src/lab/measure/schedule';

describe('oneForwardOneBackward(stage, stages, microBatches)', () => {
  const show = (stage: number, stages: number, m: number) =>
    oneForwardOneBackward(stage, stages, m)
      .map((op) => `${op.kind[0]?.toUpperCase()}${op.micro}`)
      .join(' ');

  test('Narayanan et al. 2021 §2.2.1, 4 stages: stage 0 warms up with 3 forwards, the last stage alternates from the start', () => {
    expect(show(0, 4, 4)).toBe('F0 F1 F2 F3 B0 B1 B2 B3');
    expect(show(0, 4, 8)).toBe('F0 F1 F2 F3 B0 F4 B1 F5 B2 F6 B3 F7 B4 B5 B6 B7');
    expect(show(3, 4, 8)).toBe('F0 B0 F1 B1 F2 B2 F3 B3 F4 B4 F5 B5 F6 B6 F7 B7');
  });

  test.each([
    [0, 4, 8, 4],
    [1, 4, 8, 3],
    [3, 4, 8, 1],
    [0, 2, 4, 2],
    [0, 4, 2, 2],
    [0, 1, 4, 1],
  ])('stage %i of %i with %i micro-batches holds min(p − s, m) = %i in flight', (stage, stages, m, inFlight) => {
    const ops = oneForwardOneBackward(stage, stages, m);
    expect(peakInFlight(ops)).toBe(inFlight);
    expect(ops.filter((op) => op.kind === 'forward')).toHaveLength(m);
    expect(ops.filter((op) => op.kind === 'backward')).toHaveLength(m);
  });

  test('bad stages are rejected', () => {
    expect(() => oneForwardOneBackward(2, 2, 4)).toThrowError(/no stage 2 of 2/);
    expect(() => oneForwardOneBackward(0, 2, 0)).toThrowError(/0 micro-batches/);
  });
});

describe('idealBubbleFraction(stages, microBatches)', () => {
  test('GPipe §2.2: (p − 1)/(m + p − 1); negligible once m ≥ 4p', () => {
    expect(idealBubbleFraction(4, 4)).toBeCloseTo(3 / 7);
    expect(idealBubbleFraction(2, 8)).toBeCloseTo(1 / 9);
    expect(idealBubbleFraction(1, 8)).toBe(0);
  });
});

describe('measuredBubbleFraction(spans, devices)', () => {
  test('two devices, each busy half of the elapsed time, idle half of it', () => {
    expect(
      measuredBubbleFraction(
        [
          { start: 0, end: 1 },
          { start: 1, end: 2 },
        ],
        2,
      ),
    ).toBeCloseTo(0.5);
  });
  test('a device busy throughout has no bubble; no spans means none measured', () => {
    expect(
      measuredBubbleFraction(
        [
          { start: 5, end: 7 },
          { start: 7, end: 9 },
        ],
        1,
      ),
    ).toBe(0);
    expect(measuredBubbleFraction([], 2)).toBe(0);
  });
});
