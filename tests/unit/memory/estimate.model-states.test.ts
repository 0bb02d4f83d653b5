import { describe, expect, test } from 'vitest';
import type { EstimateOptions } from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

/** The lines the ZeRO paper counts as model states (§3.1); buckets and step temporaries are its "residual states" (§3.2). */
const MODEL_STATE_LINES = new Set(['weights', 'weights-autocast', 'gradients', 'optimizer-master', 'optimizer-moments']);

/** Model-state bytes (weights + gradients + optimizer) per GPU, as the ZeRO paper counts them. */
function modelStates(options: EstimateOptions): number {
  return estimateOrThrow(options)
    .lines.filter((l) => l.device === 'gpu' && MODEL_STATE_LINES.has(l.id))
    .reduce((sum, l) => sum + l.bytes, 0);
}

/** Check `bytes` against a figure printed in GB with `digits` decimals. */
function expectPrintedGB(bytes: number, printed: number, digits: number) {
  expect(Math.abs(bytes / 1e9 - printed)).toBeLessThanOrEqual(0.5 * 10 ** -digits + 1e-9);
}

const base = { precision: 'mixed-fp16', optimizer: 'adamw' } as const;

describe('ZeRO (Rajbhandari et al. 2019, arXiv 1910.02054)', () => {
  test.each<[string, EstimateOptions, number, number]>([
    ['Figure 1: 7.5B, Nd = 64, baseline → 120 GB', { zero: 0 }, 120, 0],
    ['Figure 1: 7.5B, Nd = 64, Pos → 31.4 GB', { zero: 1 }, 31.4, 1],
    ['Figure 1: 7.5B, Nd = 64, Pos+g → 16.6 GB', { zero: 2 }, 16.6, 1],
    ['Figure 1: 7.5B, Nd = 64, Pos+g+p → 1.88 GB', { zero: 3 }, 1.88, 2],
  ])('%s', (_title, options, printed, digits) => {
    expectPrintedGB(modelStates({ ...base, params: 7.5e9, dp: 64, ...options }), printed, digits);
  });

  // Table 1: per-device memory (GB) of model states, columns Pos, Pos+g, Pos+g+p.
  test.each<[params: number, dp: number, pos: number, posG: number, posGP: number, digits: number]>([
    [7.5e9, 1, 120, 120, 120, 0],
    [7.5e9, 4, 52.5, 41.3, 30, 1],
    [7.5e9, 16, 35.6, 21.6, 7.5, 1],
    [7.5e9, 64, 31.4, 16.6, 1.88, 1],
    [7.5e9, 256, 30.4, 15.4, 0.47, 1],
    [7.5e9, 1024, 30.1, 15.1, 0.12, 1],
    [128e9, 1, 2048, 2048, 2048, 0],
    [128e9, 4, 896, 704, 512, 0],
    [128e9, 16, 608, 368, 128, 0],
    [128e9, 64, 536, 284, 32, 0],
    [128e9, 256, 518, 263, 8, 0],
    [1e12, 1, 16000, 16000, 16000, 0],
    [1e12, 4, 7000, 5500, 4000, 0],
    [1e12, 16, 4750, 2875, 1000, 0],
  ])('Table 1: Ψ = %d, Nd = %d → %d / %d / %d GB', (params, dp, pos, posG, posGP, digits) => {
    expectPrintedGB(modelStates({ ...base, params, dp, zero: 1 }), pos, digits);
    expectPrintedGB(modelStates({ ...base, params, dp, zero: 2 }), posG, digits);
    expectPrintedGB(modelStates({ ...base, params, dp, zero: 3 }), posGP, digits === 0 ? 0 : 2);
  });

  test('§3.1: mixed-precision Adam holds 2Ψ + 2Ψ + 12Ψ = 16Ψ bytes', () => {
    expect(modelStates({ ...base, params: 1_000_000 })).toBe(16_000_000);
  });
});

describe('bytes per parameter (choices in SOURCE_CHOICES)', () => {
  test.each<[string, EstimateOptions, number]>([
    ['EleutherAI Transformer Math 101: fp32 AdamW = 4 + 4 + 8 = 16', { precision: 'fp32' }, 16],
    ['HF "Model training anatomy": AMP AdamW = 6 (fp32 + fp16 weights) + 4 grads + 8 = 18', { precision: 'amp-bf16' }, 18],
    ['ZeRO §3.1: mixed-bf16 AdamW = 2 + 2 + 12 = 16', { precision: 'mixed-bf16' }, 16],
    [
      'Transformer Math 101: 8-bit AdamW in mixed precision = 2 + 2 + (4 + 1 + 1) = 10, plus the fp32 absmax per 256 values it leaves out',
      { precision: 'mixed-bf16', optimizer: 'adamw-8bit' },
      10 + (2 * 4) / 256,
    ],
    [
      'Transformer Math 101: SGD + momentum in mixed precision = 2 + 2 + (4 + 4) = 12',
      { precision: 'mixed-bf16', optimizer: 'sgd-momentum' },
      12,
    ],
    [
      'HF "Model training anatomy": 8-bit AdamW optimizer = 2 bytes (fp32: 4 + 4 + 2 = 10), plus the absmax it leaves out',
      { precision: 'fp32', optimizer: 'adamw-8bit' },
      10 + (2 * 4) / 256,
    ],
    [
      'HF "Model training anatomy": SGD momentum = 4 bytes (fp32: 4 + 4 + 4 = 12)',
      { precision: 'fp32', optimizer: 'sgd-momentum' },
      12,
    ],
    ['plain SGD in fp32 keeps no state: 4 + 4 = 8', { precision: 'fp32', optimizer: 'sgd' }, 8],
    ['pure bf16 AdamW: 2 + 2 + 2·2 = 8', { precision: 'bf16' }, 8],
  ])('%s', (_title, options, bytesPerParam) => {
    expect(modelStates({ optimizer: 'adamw', params: 1000, ...options })).toBe(Math.ceil(1000 * bytesPerParam));
  });
});

// A GPT-2 shape small enough to count by hand: h = 64, L = 2, V = 100, 16 learned positions, tied head.
// Per layer 12h² + 13h = 49,152 + 832 = 49,984; embeddings (V + 16)·h = 7,424; final LayerNorm 2h = 128; no head.
const TINY_GPT2 = { arch: 'gpt2', hidden: 64, layers: 2, heads: 1, vocab: 100, positions: 16 } as const;
const TINY_GPT2_PARAMS = 2 * 49_984 + 7_424 + 128;

describe('fp32 gradient buffers beside 16-bit weights (Megatron accumulate_allreduce_grads_in_fp32)', () => {
  const megatronLike = { ...TINY_GPT2, stack: 'pytorch', precision: 'mixed-bf16', optimizer: 'adamw' } as const;

  test('the hand count of the tiny shape is the engine’s', () => {
    expect(estimateOrThrow(megatronLike).params).toBe(TINY_GPT2_PARAMS);
  });

  test('--grad-dtype fp32: 2 + 4 + 4 + 8 = 18 bytes per parameter where --grad-dtype param holds 16', () => {
    expect(modelStates({ ...megatronLike, gradDtype: 'fp32' })).toBe(18 * TINY_GPT2_PARAMS);
    expect(modelStates({ ...megatronLike, gradDtype: 'param' })).toBe(16 * TINY_GPT2_PARAMS);
  });

  test('ZeRO-2 shards the fp32 gradients: 4 bytes × ⌈Ψ / 4⌉ on each of 4 GPUs', () => {
    const gradients = estimateOrThrow({ ...megatronLike, gradDtype: 'fp32', dp: 4, zero: 2 }).lines.find(
      (l) => l.id === 'gradients',
    );
    expect(gradients?.bytes).toBe(4 * Math.ceil(TINY_GPT2_PARAMS / 4));
  });

  test('the Megatron stack sets it: its gradients line holds 4 bytes per parameter under bf16', () => {
    const result = estimateOrThrow({ ...TINY_GPT2, stack: 'megatron' });
    expect(result.resolved.precision).toBe('mixed-bf16');
    expect(result.lines.find((l) => l.id === 'gradients')?.bytes).toBe(4 * TINY_GPT2_PARAMS);
  });

  test('fp32 weights already have fp32 gradients: the option changes nothing', () => {
    const fp32 = { ...TINY_GPT2, stack: 'pytorch', precision: 'fp32', optimizer: 'adamw' } as const;
    expect(modelStates({ ...fp32, gradDtype: 'fp32' })).toBe(modelStates({ ...fp32, gradDtype: 'param' }));
  });
});
