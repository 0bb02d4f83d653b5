import { describe, expect, test } from 'vitest';
import { formatBytes, formatCount, formatSeconds } from '../../../src/memory/index.ts';

describe('formatBytes(bytes, unit)', () => {
  test.each<[number, 'GiB' | 'GB', string]>([
    [85_899_345_920, 'GiB', '80.00 GiB'],
    [85_899_345_920, 'GB', '85.90 GB'],
    [0, 'GB', '0.00 GB'],
    [-1, 'GB', 'invalid'],
    [Number.NaN, 'GiB', 'invalid'],
    [1.5, 'GB', 'invalid'],
  ])('formatBytes(%d, %s) = %j', (bytes, unit, text) => {
    expect(formatBytes(bytes, unit)).toBe(text);
  });

  test('formatCount and formatSeconds', () => {
    expect(formatCount(6_738_415_616)).toBe('6,738,415,616');
    expect(formatSeconds(0)).toBe('0 s');
    expect(formatSeconds(0.25)).toBe('250 ms');
    expect(formatSeconds(2.5)).toBe('2.50 s');
    expect(formatSeconds(Number.POSITIVE_INFINITY)).toBe('invalid');
  });
});
