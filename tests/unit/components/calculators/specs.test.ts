import { describe, expect, test } from 'vitest';
import { CALCULATORS } from '../../../../src/components/calculators/specs';
import type { EstimateOptions } from '../../../../src/memory/index';

/** The stack calculator's bars, each as its label and the options it estimates. */
function stackBars(options: EstimateOptions) {
  return CALCULATORS.stack.scenarios(options).map((bar) => ({ label: bar.label, options: bar.options }));
}

describe('the stack calculator adds one choice per bar', () => {
  const offloadedOnOneGpu: EstimateOptions = {
    precision: 'mixed-bf16',
    recompute: 'full',
    optimizer: 'adamw',
    zero: 2,
    dp: 1,
    offload: 'optimizer',
  };

  test('on one GPU a ZeRO stage is no bar of its own: the offload bar carries it, and the last bar is the settings', () => {
    const bars = stackBars(offloadedOnOneGpu);
    expect(bars.map((bar) => bar.label)).toEqual(['fp32, AdamW', '+ mixed-bf16', '+ full recompute', '+ offload optimizer']);
    // The bar before the offload shards nothing and offloads nothing; the offload bar runs through ZeRO-2.
    expect(bars[2]?.options).toMatchObject({ zero: 0, offload: 'none', recompute: 'full' });
    expect(bars.at(-1)?.options).toEqual(offloadedOnOneGpu);
  });

  test('across several GPUs the ZeRO stage is a bar, before the offload', () => {
    const bars = stackBars({ ...offloadedOnOneGpu, dp: 8, zero: 3 });
    expect(bars.map((bar) => bar.label)).toContain('+ ZeRO-3 on 8 GPUs');
    const zeroBar = bars.findIndex((bar) => bar.label === '+ ZeRO-3 on 8 GPUs');
    expect(bars[zeroBar]?.options).toMatchObject({ zero: 3, dp: 8, offload: 'none' });
    expect(bars.at(-1)?.label).toBe('+ offload optimizer');
  });
});
