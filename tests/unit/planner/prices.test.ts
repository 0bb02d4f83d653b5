import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { getGpuPreset, getModelPreset } from '../../../src/memory/index.ts';
import {
  costOf,
  DIMENSIONS,
  divisors,
  EXAMPLE_PRICES,
  formatCost,
  formatPrice,
  parsePrice,
  type PlanRequest,
  type SearchContext,
} from '../../../src/planner/index.ts';
import { flagsFromQuery, queryFromFlags } from '../../../src/components/planner/query.ts';

describe('the planner’s small parts', () => {
  test.each<[number, number[]]>([
    [1, [1]],
    [12, [1, 2, 3, 4, 6, 12]],
    [16, [1, 2, 4, 8, 16]],
    [7, [1, 7]],
  ])('divisors(%i) is %j', (n, expected) => {
    expect(divisors(n)).toEqual(expected);
  });

  test('parsePrice and formatPrice round-trip; costOf is hours × GPUs × price', () => {
    const parsed = parsePrice('h100-80gb=3/2.1/1.5');
    expect(parsed).toEqual({ gpu: 'h100-80gb', prices: { 'on-demand': 3, reserved: 2.1, spot: 1.5 } });
    if (typeof parsed !== 'string') expect(formatPrice(parsed.gpu, parsed.prices)).toBe('h100-80gb=3/2.1/1.5');
    expect(parsePrice('h100-80gb=3/2.1')).toMatch(/expected GPU=ON-DEMAND\/RESERVED\/SPOT/);
    expect(parsePrice('h100-80gb=none')).toEqual({ gpu: 'h100-80gb', prices: null });
    expect(formatPrice('h100-80gb', null)).toBe('h100-80gb=none');
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

  test('every lesson a choice names is a page of the site', () => {
    const model = getModelPreset('llama-2-7b')?.config;
    const gpu = getGpuPreset('a100-80gb');
    if (model === undefined || gpu === undefined) throw new Error('presets');
    const request = { globalBatch: 16 } as PlanRequest;
    const ctx: SearchContext = { request, gpu, gpus: 8, model };
    const lessons = new Set(DIMENSIONS.flatMap((d) => d.choices(ctx, { dp: 2 }).flatMap((c) => c.lessons)));
    expect(lessons.size).toBeGreaterThan(4);
    for (const id of lessons)
      expect(existsSync(join(import.meta.dirname, '../../../content/docs/lessons', `${id}.mdx`)), id).toBe(true);
  });

  test('the page’s query keeps only planner flags and round-trips repeated prices', () => {
    const flags = flagsFromQuery('model=gpt2-xl&gpu=rtx-4090&global-batch=4&price=h100-80gb=3/2/1&price=h200=4/3/2&zero=3&utm=x');
    expect(flags).toEqual({ model: 'gpt2-xl', gpu: 'rtx-4090', 'global-batch': '4', price: ['h100-80gb=3/2/1', 'h200=4/3/2'] });
    expect(flagsFromQuery(queryFromFlags(flags))).toEqual(flags);
  });
});
