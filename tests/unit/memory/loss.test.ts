/** What each cross-entropy implementation keeps and holds, derived from its source (loss.ts). */
import { describe, expect, test } from 'vitest';
import { lossBytes, type LossShape } from '../../../src/memory/loss.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

// Llama 2's vocabulary and width, 4 × 4096 tokens in bf16: N = 16384 × 32000 logits.
const shape = { positions: 4 * 4096, vocab: 32_000, hidden: 4096, logitBytes: 2, tp: 1 } as const;
const N = 16_384 * 32_000;
const at = (kind: LossShape['kind']) => lossBytes({ ...shape, kind });

describe('lossBytes, Llama 2 shapes, 16,384 positions in bf16', () => {
  test('eager (transformers ForCausalLMLoss): keeps 4N; forward the logits and their upcast (6N); backward 8N', () => {
    expect(at('eager')).toEqual({ kept: 4 * N, forward: 6 * N, backward: 8 * N });
  });
  test('vocab-parallel (Megatron): keeps 4N; 2N beside it', () => {
    expect(at('vocab-parallel')).toEqual({ kept: 4 * N, forward: 2 * N, backward: 2 * N });
  });
  test('in-place (Unsloth): keeps the bf16 logits and an fp32 logsumexp per row', () => {
    expect(at('in-place')).toEqual({ kept: 2 * N + 4 * 16_384, forward: 0, backward: 0 });
  });
  test('flash-attn (Triton CrossEntropyLoss, inplace_backward=False): keeps the bf16 logits and lse; backward a new 2N', () => {
    expect(at('flash-attn')).toEqual({ kept: 2 * N + 4 * 16_384, forward: 0, backward: 2 * N });
  });
  test('chunked (torchtune, 8 chunks): keeps 4N, one chunk’s transients', () => {
    expect(at('chunked')).toEqual({ kept: 4 * N, forward: (6 * N) / 8, backward: (10 * N) / 8 });
  });
  test('fused-linear (Liger): the source’s own example, BT = 4096·4, V = 32000, H = 4096 → chunk_size = 2048', () => {
    expect(at('fused-linear')).toEqual({ kept: 2 * 16_384 * 4096, forward: 2 * 2048 * 32_000, backward: 0 });
  });
  test('cut (Cut Cross-Entropy): the head input and an fp32 log-sum-exp per position', () => {
    expect(at('cut')).toEqual({ kept: 2 * 16_384 * 4096 + 4 * 16_384, forward: 0, backward: 0 });
  });
});

describe('--loss in an estimate (every option explicit)', () => {
  const options = {
    model: 'llama-3-8b',
    seq: 4096,
    microBatch: 4,
    precision: 'bf16',
    optimizer: 'adamw',
    optimizerImpl: 'fused',
    recompute: 'full',
    attention: 'sdpa',
    kernels: 'eager',
  } as const;
  test('the default with eager kernels is eager; fused-linear lowers the peak of Llama 3 8B (V = 128,256) by GiBs', () => {
    const eager = estimateOrThrow(options);
    expect(estimateOrThrow({ ...options, loss: 'eager' }).perGpu.total).toBe(eager.perGpu.total);
    const fused = estimateOrThrow({ ...options, loss: 'fused-linear' });
    expect(eager.perGpu.total - fused.perGpu.total).toBeGreaterThan(8 * 2 ** 30);
  });
  test('the default with fused kernels is vocab-parallel', () => {
    const fused = { ...options, kernels: 'fused' } as const;
    expect(estimateOrThrow(fused).perGpu.total).toBe(estimateOrThrow({ ...fused, loss: 'vocab-parallel' }).perGpu.total);
  });
});
