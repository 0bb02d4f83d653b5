import { describe, expect, test } from 'vitest';
import { maxRelativeDifference } from '../../../../src/lab/results/compare';

const f = (...values: number[]) => Float32Array.from(values);

describe('maxRelativeDifference(result, reference)', () => {
  test('is 0 for identical gradients', () => {
    expect(maxRelativeDifference({ w: f(1, -2, 3) }, { w: f(1, -2, 3) })).toBe(0);
  });

  test('scales the largest difference by the reference tensor’s largest magnitude', () => {
    expect(maxRelativeDifference({ w: f(1, -2, 3.3) }, { w: f(1, -2, 3) })).toBeCloseTo(0.1, 6);
  });

  test('takes the worst parameter', () => {
    expect(maxRelativeDifference({ a: f(1), b: f(2) }, { a: f(1), b: f(1) })).toBeCloseTo(1, 6);
  });

  test('a missing parameter, a shape mismatch or a NaN counts as entirely different', () => {
    expect(maxRelativeDifference({ a: f(1) }, { a: f(1), b: f(1) })).toBe(1);
    expect(maxRelativeDifference({ a: f(1, 2) }, { a: f(1) })).toBe(1);
    expect(maxRelativeDifference({ a: f(Number.NaN) }, { a: f(1) })).toBe(1);
  });
});
