import { describe, expect, test } from 'vitest';
import { getGpuPreset } from '../../../src/memory/index.ts';
import { costOf, EXAMPLE_PRICES, formatCost } from '../../../src/planner/index.ts';

describe('prices', () => {
  test('costOf is hours × GPUs × price', () => {
    expect(costOf(1800, 8, 2)).toBe(8);
  });

  test('formatCost keeps three significant digits below 1, so that small costs per step stay apart', () => {
    expect(formatCost(0.0000424)).toBe('0.0000424');
    expect(formatCost(0.0000481)).not.toBe(formatCost(0.0000424));
    expect(formatCost(0.5)).toBe('0.500');
    expect(formatCost(12.345)).toBe('12.35');
    expect(formatCost(0)).toBe('0');
    expect(formatCost(Number.NaN)).toBe('invalid');
    expect(formatCost(-1)).toBe('invalid');
  });

  test('every example price belongs to a GPU preset, and reserved and spot are below on-demand', () => {
    for (const [gpu, prices] of Object.entries(EXAMPLE_PRICES)) {
      expect(getGpuPreset(gpu), gpu).toBeDefined();
      expect(prices.reserved).toBeLessThan(prices['on-demand']);
      expect(prices.spot).toBeLessThan(prices.reserved);
    }
  });
});
