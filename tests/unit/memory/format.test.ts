import { describe, expect, test } from 'vitest';
import { formatCount, formatSeconds, formatStepShare } from '../../../src/memory/index.ts';

describe('formatCount, formatSeconds', () => {
  test('formatCount and formatSeconds', () => {
    expect(formatCount(6_738_415_616)).toBe('6,738,415,616');
    expect(formatSeconds(0)).toBe('0 s');
    expect(formatSeconds(0.25)).toBe('250 ms');
    expect(formatSeconds(2.5)).toBe('2.50 s');
    expect(formatSeconds(Number.POSITIVE_INFINITY)).toBe('invalid');
  });
});

describe('formatStepShare: a part of a step as its share of the step', () => {
  test('whole percents from 1 %, one decimal under it, "<0.1 %" for a trace, "0 %" for nothing', () => {
    expect(formatStepShare(0.5, 2)).toBe('25 %');
    expect(formatStepShare(2, 2)).toBe('100 %');
    expect(formatStepShare(0.006, 2)).toBe('0.3 %');
    expect(formatStepShare(0.0199, 2)).toBe('1 %');
    expect(formatStepShare(0.0001, 2)).toBe('<0.1 %');
    expect(formatStepShare(0, 2)).toBe('0 %');
  });

  test('a step of no time, or a negative part, is refused rather than divided', () => {
    expect(formatStepShare(1, 0)).toBe('invalid');
    expect(formatStepShare(-1, 2)).toBe('invalid');
  });
});
