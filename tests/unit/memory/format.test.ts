import { describe, expect, test } from 'vitest';
import { formatCount, formatSeconds } from '../../../src/memory/index.ts';

describe('formatCount, formatSeconds', () => {
  test('formatCount and formatSeconds', () => {
    expect(formatCount(6_738_415_616)).toBe('6,738,415,616');
    expect(formatSeconds(0)).toBe('0 s');
    expect(formatSeconds(0.25)).toBe('250 ms');
    expect(formatSeconds(2.5)).toBe('2.50 s');
    expect(formatSeconds(Number.POSITIVE_INFINITY)).toBe('invalid');
  });
});
