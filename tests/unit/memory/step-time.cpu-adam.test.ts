/**
 * The optimizer step ZeRO-Offload runs on the host, at DeepSpeed's measured CPU-Adam rate, and the offload's host-link
 * transfers. Every option the time reads is given.
 */
import { describe, expect, test } from 'vitest';
import type { EstimateOptions } from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

const base: EstimateOptions = {
  model: 'llama-2-7b',
  stack: 'pytorch',
  precision: 'amp-bf16',
  optimizer: 'adamw',
  optimizerImpl: 'fused',
  recompute: 'full',
  attention: 'sdpa',
  kernels: 'eager',
  microBatch: 1,
  seq: 4096,
  gradAccum: 1,
  offload: 'optimizer',
  gpu: 'h100-80gb',
};

const seconds = (options: EstimateOptions, id: string) =>
  estimateOrThrow({ ...base, ...options }).stepTime?.lines.find((l) => l.id === id)?.seconds ?? Number.NaN;

// The parameters the rate applies to: Llama 2 7B's count (params.ts, held to the checkpoint by the model-count tests).
const llama2Params = estimateOrThrow({ ...base, zero: 2, dp: 1 }).params;

describe('CPU-Adam at DeepSpeed’s measured rate', () => {
  test('DeepSpeed PR #735 (11.6B parameters in 8.2 s): a 7B step on one GPU takes 6.74e9 × 8.2 / 11.6e9 ≈ 4.76 s', () => {
    expect(seconds({ zero: 2, dp: 1 }, 'optimizer')).toBeCloseTo((llama2Params * 8.2) / 11.6e9, 9);
  });

  test('each GPU steps its own ZeRO shard: 8 data-parallel GPUs take an eighth of it', () => {
    expect(seconds({ zero: 2, dp: 8 }, 'optimizer')).toBeCloseTo((Math.ceil(llama2Params / 8) * 8.2) / 11.6e9, 9);
  });
});

describe('offload transfers over the host link (Ren et al. 2021 §4)', () => {
  test('gradients down and weights up, both exposed: 4 + 4 bytes per parameter under amp-bf16’s fp32 master weights', () => {
    const result = estimateOrThrow({ ...base, zero: 2, dp: 1 });
    const host = result.gpu?.hostLinkBytesPerSecond ?? Number.NaN;
    expect(seconds({ zero: 2, dp: 1 }, 'offload')).toBeCloseTo((llama2Params * (4 + 4)) / host, 9);
  });
});
