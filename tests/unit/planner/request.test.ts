import { describe, expect, test } from 'vitest';
import { formatPrice, parsePrice } from '../../../src/planner/index.ts';

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
