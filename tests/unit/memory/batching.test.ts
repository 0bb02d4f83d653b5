/**
 * Batch layouts (`--batching padded|packed|padding-free`, `--mean-seq`): the tokens held, computed and trained, the
 * attention mask transformers materialises, and what they do to the peak and the step time. Every option the
 * activations and the step time depend on is passed explicitly.
 */
import { describe, expect, test } from 'vitest';
import { attentionMaskBytes, batchTokens } from '../../../src/memory/batching.ts';
import { getGpuPreset } from '../../../src/memory/gpus.ts';
import { estimateMemory, type EstimateOptions, type EstimateResult } from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

// Llama 2 7B (hidden 4096, 32 layers), four sequences of at most 2,048 tokens, 512 real on average.
const B = 4;
const S = 2048;
const MEAN = 512;
const HIDDEN = 4096;
const LAYERS = 32;

/** The compute efficiency these jobs pin (`--mfu 40`), so the expected seconds follow from it alone. */
const MFU = 0.4;

const base: EstimateOptions = {
  mfu: MFU * 100,
  model: 'llama-2-7b',
  stack: 'pytorch',
  precision: 'bf16',
  optimizer: 'adamw',
  optimizerImpl: 'fused',
  attention: 'sdpa',
  kernels: 'eager',
  recompute: 'none',
  loss: 'eager',
  microBatch: B,
  seq: S,
  gradAccum: 2,
  gpu: 'h100-80gb',
};

const seconds = (result: EstimateResult, id: string) => result.stepTime?.lines.find((l) => l.id === id)?.seconds ?? 0;

describe('batchTokens: the token accounting of each layout', () => {
  test('padded: b·s positions held and computed, b·mean trained', () => {
    expect(batchTokens('padded', B, S, MEAN, 'sdpa')).toEqual({
      held: 4 * 2048,
      computed: 4 * 2048,
      trained: 4 * 512,
      attentionSpan: 2048,
    });
  });

  test('packed: every position of the b rows of s is real; FlashAttention attends within each document', () => {
    expect(batchTokens('packed', B, S, MEAN, 'sdpa')).toEqual({
      held: 8192,
      computed: 8192,
      trained: 8192,
      attentionSpan: 512,
    });
    // Eager attention computes the whole row's scores and masks the other documents out.
    expect(batchTokens('packed', B, S, MEAN, 'eager').attentionSpan).toBe(2048);
  });

  test('padding-free: the worst batch holds b·s, a typical one computes and trains b·mean', () => {
    expect(batchTokens('padding-free', B, S, MEAN, 'sdpa')).toEqual({
      held: 8192,
      computed: 2048,
      trained: 2048,
      attentionSpan: 512,
    });
  });
});

describe('attentionMaskBytes: the (b, 1, s, s) mask of transformers masking_utils', () => {
  test('padding under sdpa: one boolean per query-key pair, b·s² bytes', () => {
    expect(attentionMaskBytes('padded', B, S, MEAN, 'sdpa', 2)).toBe(4 * 2048 * 2048);
  });

  test('padding under eager: the same mask in the compute dtype (bf16: 2 bytes)', () => {
    expect(attentionMaskBytes('padded', B, S, MEAN, 'eager', 2)).toBe(4 * 2048 * 2048 * 2);
  });

  test('no padding: sdpa skips the mask (allow_is_causal_skip) and so does eager here', () => {
    expect(attentionMaskBytes('padded', B, S, S, 'sdpa', 2)).toBe(0);
  });

  test('packed rows: block-diagonal under eager, none under FlashAttention varlen', () => {
    expect(attentionMaskBytes('packed', B, S, MEAN, 'eager', 2)).toBe(4 * 2048 * 2048 * 2);
    expect(attentionMaskBytes('packed', B, S, MEAN, 'sdpa', 2)).toBe(0);
    expect(attentionMaskBytes('padding-free', B, S, MEAN, 'sdpa', 2)).toBe(0);
  });
});

describe('the estimate: peak for the worst batch, step time on real tokens', () => {
  const full = estimateOrThrow({ ...base, batching: 'padded', meanSeq: S });
  const padded = estimateOrThrow({ ...base, batching: 'padded', meanSeq: MEAN });
  const packed = estimateOrThrow({ ...base, batching: 'packed', meanSeq: MEAN });
  const paddingFree = estimateOrThrow({ ...base, batching: 'padding-free', meanSeq: MEAN });

  test('padding adds the b·s² boolean mask, kept through backward, to the peak', () => {
    const mask = padded.lines.find((l) => l.id === 'activations-mask');
    expect(Math.max(...(mask?.live ?? [0]))).toBe(B * S * S);
    expect(padded.perGpu.total - full.perGpu.total).toBe(B * S * S);
  });

  test('packed and padding-free batches hold what a full padded batch holds at the worst batch, and no mask', () => {
    expect(packed.perGpu.total).toBe(full.perGpu.total);
    expect(paddingFree.perGpu.total).toBe(full.perGpu.total);
    expect(paddingFree.lines.some((l) => l.id === 'activations-mask')).toBe(false);
  });

  test('the activation label says the peak is for the worst batch', () => {
    const label = padded.lines.find((l) => l.id === 'activations-layers')?.label ?? '';
    expect(label).toContain('s=2048 (padded, worst batch, mean 512 real)');
  });

  test('tokens per step count only real tokens: b·mean·m padded, b·s·m packed', () => {
    expect(padded.stepTime?.trainedTokens).toBe(4 * 512 * 2);
    expect(packed.stepTime?.trainedTokens).toBe(4 * 2048 * 2);
    expect(paddingFree.stepTime?.trainedTokens).toBe(4 * 512 * 2);
  });

  test('padding is computed, not trained: its line is (1 − mean/s) of the full batch’s compute', () => {
    const wasted = seconds(padded, 'padding');
    const real = seconds(padded, 'compute');
    expect(wasted / (wasted + real)).toBeCloseTo(1 - 512 / 2048, 12);
    expect(wasted + real).toBeCloseTo(seconds(full, 'compute'), 12);
    expect(full.stepTime?.lines.some((l) => l.id === 'padding')).toBe(false);
  });

  test('packed documents under FlashAttention attend over their own length: 3 · 2·L·(s − mean)·h FLOPs per token less', () => {
    const gpu = getGpuPreset('h100-80gb');
    if (gpu === undefined) throw new Error('no h100-80gb preset');
    const flopsPerSecond = gpu.tensorTflops16 * 1e12 * MFU;
    const tokens = B * S * 2;
    const saved = (3 * 2 * LAYERS * (S - MEAN) * HIDDEN * tokens) / flopsPerSecond;
    expect(seconds(full, 'compute') - seconds(packed, 'compute')).toBeCloseTo(saved, 9);
  });

  test('padding-free computes only the real tokens', () => {
    // Kaplan et al. 2020 Table 1: 6N + 6·L·span·h per token, the span being the document's mean length.
    const gpu = getGpuPreset('h100-80gb');
    if (gpu === undefined) throw new Error('no h100-80gb preset');
    const n = paddingFree.activeParams;
    const perToken = 3 * (2 * n + 2 * LAYERS * MEAN * HIDDEN);
    const expected = (perToken * B * MEAN * 2) / (gpu.tensorTflops16 * 1e12 * MFU);
    expect(seconds(paddingFree, 'compute')).toBeCloseTo(expected, 9);
  });
});

describe('bad input names its field', () => {
  test('a mean longer than the sequence', () => {
    const outcome = estimateMemory({ ...base, meanSeq: S + 1 });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.errors.map((e) => e.field)).toEqual(['mean-seq']);
  });

  test('padding-free batches under eager attention', () => {
    const outcome = estimateMemory({ ...base, attention: 'eager', batching: 'padding-free' });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.errors[0]?.message).toMatch(/^padding-free batches need FlashAttention/);
  });

  test('an unknown layout', () => {
    const outcome = estimateMemory({ ...base, batching: 'ragged' as never });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.errors[0]?.field).toBe('batching');
  });
});
