import { describe, expect, test } from 'vitest';
import { fromHalfBits, toHalfBits } from '../../../src/graphs/dtype.ts';

describe('toHalfBits / fromHalfBits', () => {
  test.each([
    [0, 0x0000],
    [1, 0x3c00],
    [-2, 0xc000],
    [65504, 0x7bff],
    [1e6, 0x7c00],
    [2 ** -24, 0x0001],
    [1 / 3, 0x3555],
  ])('toHalfBits(%d) = %i', (value, bits) => {
    expect(toHalfBits(value)).toBe(bits);
    if (bits !== 0x7c00) expect(fromHalfBits(bits)).toBeCloseTo(value, 3);
  });
});
