import { describe, expect, test } from 'vitest';
import { EXAMPLE_PRICES, formatPrice, parsePlanFlags, parsePrice } from '../../../src/planner/index.ts';

describe('--price GPU=ON-DEMAND/RESERVED/SPOT', () => {
  test('parsePrice and formatPrice round-trip', () => {
    const parsed = parsePrice('h100-80gb=3/2.1/1.5');
    expect(parsed).toEqual({ gpu: 'h100-80gb', prices: { 'on-demand': 3, reserved: 2.1, spot: 1.5 } });
    if (typeof parsed === 'string') throw new Error(parsed);
    expect(formatPrice(parsed.gpu, parsed.prices)).toBe('h100-80gb=3/2.1/1.5');
    expect(parsePrice('h100-80gb=3/2.1')).toMatch(/expected GPU=ON-DEMAND\/RESERVED\/SPOT/);
    expect(parsePrice('h100-80gb=none')).toEqual({ gpu: 'h100-80gb', prices: null });
    expect(formatPrice('h100-80gb', null)).toBe('h100-80gb=none');
  });
});

describe('a refused request', () => {
  test('names its errors in the order the flags are read, the planner’s own among the reader’s', () => {
    const parsed = parsePlanFlags(
      { model: 'gpt2-xl', gpu: 'rtx-4090', gpus: '0', 'max-host-gb': '-1', 'rank-by': 'epoch-cost', price: 'junk' },
      EXAMPLE_PRICES,
    );
    const errors = parsed.ok ? [] : parsed.errors;
    expect(errors.map((e) => e.field)).toEqual(['gpus', 'global-batch', 'max-host-gb', 'epoch-tokens', 'price']);
    // The planner's own words carry no problem; the reader's checks do.
    expect(errors.map((e) => e.problem?.code)).toEqual(['belowMinimum', undefined, 'notPositive', undefined, undefined]);
  });
});
