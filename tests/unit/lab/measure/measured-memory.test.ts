import { describe, expect, test } from 'vitest';
import { bytesAbove, peakAbove } from '../../../../src/lab/measure/measured-memory';

describe('bytes above the baseline', () => {
  test('clamp at 0 when the count fell below where the run started', () => {
    expect(bytesAbove(1000, 1500)).toBe(500);
    expect(bytesAbove(1000, 800)).toBe(0);
    expect(peakAbove({ baselineBytes: 4096, peakBytes: 10_240 })).toBe(6144);
  });
});
