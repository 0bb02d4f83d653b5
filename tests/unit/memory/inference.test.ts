import { describe, expect, test } from 'vitest';
import { estimateMemory, kvCacheBytes, type EstimateOptions } from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

const perGpu = (options: EstimateOptions) => estimateOrThrow({ mode: 'infer', ...options }).perGpu;

describe('kvCacheBytes(shape): 2 · layers · kv_heads · head_dim · bytes per token', () => {
  test.each<[string, EstimateOptions, number]>([
    [
      'NVIDIA blog "Mastering LLM Techniques: Inference Optimization": Llama 2 7B, fp16, batch 1, 4096 tokens ≈ 2 GB',
      { model: 'llama-2-7b', weights: 'fp16', tokens: 4096 },
      1 * 4096 * 2 * 32 * 4096 * 2,
    ],
    [
      'vLLM paper (Kwon et al. 2023, arXiv 2309.06180 §3): OPT-13B needs 800 KB per token (2 × 5120 × 40 × 2)',
      { arch: 'gpt2', hidden: 5120, layers: 40, heads: 40, vocab: 50272, positions: 2048, weights: 'fp16', tokens: 1, seq: 1 },
      819_200,
    ],
    [
      'EleutherAI Transformer Math 101 with GQA: Llama 2 70B, 8 kv heads → 2 · 80 · 8 · 128 · 2 = 320 KiB per token',
      { model: 'llama-2-70b', tokens: 1, seq: 1 },
      327_680,
    ],
    ['Llama 3 8B (8 kv heads): 2 · 32 · 8 · 128 · 2 = 128 KiB per token', { model: 'llama-3-8b', tokens: 1, seq: 1 }, 131_072],
    [
      'Mistral 7B v0.1 rolling buffer (arXiv 2310.06825 §2): 32k tokens cache only the 4096-token window',
      { model: 'mistral-7b', tokens: 32768 },
      2 * 32 * 8 * 128 * 2 * 4096,
    ],
  ])('%s', (_title, options, bytes) => {
    expect(perGpu(options).kvCache).toBe(bytes);
  });

  test('batch multiplies, tensor parallel divides the kv heads', () => {
    const llama3 = { model: 'llama-3-8b', tokens: 1000, seq: 1, microBatch: 4 } as const;
    expect(perGpu({ ...llama3, tp: 2 }).kvCache).toBe(2 * 32 * 4 * 128 * 2 * 4 * 1000);
    expect(perGpu({ ...llama3, tp: 16 }).kvCache).toBe(2 * 32 * 1 * 128 * 2 * 4 * 1000); // kv heads replicated when t > kv heads
  });

  test('kvCacheBytes: full-attention layers hold every token, sliding-window layers the window', () => {
    const shape = { elementsPerToken: 2 * 8 * 128, fullLayers: 3, windowLayers: 5, window: 100, bytesPerElement: 2, batch: 2 };
    expect(kvCacheBytes({ ...shape, tokens: 1000 })).toBe(2 * 8 * 128 * 2 * 2 * (3 * 1000 + 5 * 100));
    expect(kvCacheBytes({ ...shape, tokens: 60 })).toBe(2 * 8 * 128 * 2 * 2 * (3 * 60 + 5 * 60));
  });
});

describe('weights in their storage format', () => {
  test.each<[string, number]>([
    ['fp32', 4],
    ['fp16', 2],
    ['bf16', 2],
  ])('EleutherAI Transformer Math 101: %s stores %d bytes per parameter', (format, bytes) => {
    expect(perGpu({ params: 1000, mode: 'infer', weights: format as 'fp32' }).weights).toBe(1000 * bytes);
  });

  test('a quantized format needs a model shape: --params alone is refused, naming --weights', () => {
    const outcome = estimateMemory({ params: 7e9, mode: 'infer', weights: 'nf4' });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.errors[0]?.field).toBe('weights');
  });

  test('a 4-bit Llama 2 7B is 3.6–3.9 GiB as the libraries store it, not the flat 0.5 B/param (3.14 GiB)', () => {
    const gib = (weights: 'nf4' | 'nf4-dq' | 'gptq') => perGpu({ model: 'llama-2-7b', mode: 'infer', weights }).weights / 2 ** 30;
    expect(gib('nf4')).toBeCloseTo(3.88, 2);
    expect(gib('nf4-dq')).toBeCloseTo(3.6, 1);
    expect(gib('gptq')).toBeCloseTo(3.63, 2);
  });

  test('Llama 2 7B in fp16 is 13.48 GB of weights (Transformer Math 101: "~2 bytes × 7B ≈ 14 GB")', () => {
    expect(perGpu({ model: 'llama-2-7b', weights: 'fp16' }).weights).toBe(2 * 6_738_415_616);
  });
});

describe('estimateMemory({ mode: "infer" })', () => {
  test('eager attention materialises the e·a·s²·b score matrix; FlashAttention leaves the MLP as the peak', () => {
    const s = 4096;
    const h = 4096;
    const eager = perGpu({ model: 'llama-2-7b', tokens: s, attention: 'eager' }).activations;
    const flash = perGpu({ model: 'llama-2-7b', tokens: s, attention: 'sdpa' }).activations;
    const residual = 2 * 2 * s * h;
    const logits = 4 * 32000;
    expect(eager).toBe(residual + 2 * s * (4 * h) + 2 * 32 * s * s + logits);
    expect(flash).toBe(residual + 2 * s * 11008 * 3 + logits);
  });

  test('LLM.int8 weights keep a 16-bit KV cache', () => {
    expect(perGpu({ model: 'llama-2-7b', weights: 'llm-int8', tokens: 100 }).kvCache).toBe(
      perGpu({ model: 'llama-2-7b', weights: 'bf16', tokens: 100 }).kvCache,
    );
  });

  test('no gradients or optimizer states', () => {
    const g = perGpu({ model: 'gpt2' });
    expect(g.gradients + g.optimizer).toBe(0);
  });
});
