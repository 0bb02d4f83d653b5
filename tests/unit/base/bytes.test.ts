import { describe, expect, test } from 'vitest';
import { formatBinarySize, formatBytes, formatGiB, formatMiB, GB, GIB, KIB, MIB } from '../../../src/base/bytes.ts';

describe('byte units', () => {
  test('binary units are powers of two, GB a power of ten', () => {
    expect([KIB, MIB, GIB]).toEqual([1024, 1024 * 1024, 1024 * 1024 * 1024]);
    expect(GB).toBe(1000 ** 3);
  });
});

describe('formatBytes(bytes, unit)', () => {
  test.each<[number, 'KiB' | 'MiB' | 'GiB' | 'GB', string]>([
    [85_899_345_920, 'GiB', '80.00 GiB'],
    [85_899_345_920, 'GB', '85.90 GB'],
    [3_407_872, 'MiB', '3.25 MiB'],
    [1536, 'KiB', '1.50 KiB'],
    [0, 'GB', '0.00 GB'],
    [-1, 'GB', 'invalid'],
    [Number.NaN, 'GiB', 'invalid'],
    [1.5, 'GB', 'invalid'],
  ])('formatBytes(%d, %s) = %j', (bytes, unit, text) => {
    expect(formatBytes(bytes, unit)).toBe(text);
  });

  test('formatGiB and formatMiB are formatBytes in their unit, digits included', () => {
    for (const bytes of [0, 1, 123_456_789, 85_899_345_920, -1, 0.5]) {
      expect(formatGiB(bytes)).toBe(formatBytes(bytes, 'GiB'));
      expect(formatGiB(bytes, 1)).toBe(formatBytes(bytes, 'GiB', 1));
      expect(formatMiB(bytes)).toBe(formatBytes(bytes, 'MiB'));
    }
  });
});

describe('formatBinarySize(bytes): the unit that reads best, as PyTorch prints it', () => {
  test.each<[number, string]>([
    [512, '0.5 KiB'],
    [1023 * 1024, '1023.0 KiB'],
    [20 * 1024 * 1024, '20.0 MiB'],
    [Math.round(3.91 * 1024 ** 3), '3.91 GiB'],
    [-5 * 1024 * 1024, '-5.0 MiB'],
  ])('formatBinarySize(%d) = %j', (bytes, text) => {
    expect(formatBinarySize(bytes)).toBe(text);
  });
});
