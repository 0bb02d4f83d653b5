/**
 * A custom shape's embeddings and head: `--tie-embeddings` (transformers `tie_word_embeddings`: the LM head is the
 * embedding matrix, one tensor and one gradient) and `--num-labels N` (a `*ForSequenceClassification` head of N labels
 * in place of the LM head). Every expected count is derived by hand from the shape in the test.
 */
import { describe, expect, test } from 'vitest';
import { estimateMemory, flagArgs, type EstimateOptions } from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

// A Llama shape small enough to count by hand: h = 64, L = 2, one head (h / 64), MLP width 256 (8h/3 = 170 rounded up
// to 256), V = 100. Per layer: q, k, v, o 4h² = 16,384; gate, up, down 3·h·256 = 49,152; two RMSNorms 2h = 128.
const H = 64;
const V = 100;
const LAYERS = 2 * (16_384 + 49_152 + 128);
const FINAL_NORM = H;
const TINY_LLAMA = { arch: 'llama', hidden: H, layers: 2, vocab: V } as const;
/** Every option the model-state bytes depend on, given explicitly: fp32 weights and gradients, foreach AdamW. */
const FP32_ADAMW = {
  stack: 'pytorch',
  precision: 'fp32',
  optimizer: 'adamw',
  optimizerImpl: 'foreach',
  attention: 'sdpa',
  recompute: 'none',
  loss: 'eager',
  microBatch: 4,
  seq: 32,
} as const;

const MODEL_STATE_LINES = new Set(['weights', 'gradients', 'optimizer-moments']);
function modelStates(options: EstimateOptions): number {
  return estimateOrThrow(options)
    .lines.filter((l) => l.device === 'gpu' && MODEL_STATE_LINES.has(l.id))
    .reduce((sum, l) => sum + l.bytes, 0);
}

describe('--tie-embeddings on a custom shape', () => {
  test('untied: embedding V·h + layers + final norm + head V·h; tied: the head is gone', () => {
    expect(estimateOrThrow({ ...TINY_LLAMA, ...FP32_ADAMW }).params).toBe(V * H + LAYERS + FINAL_NORM + V * H);
    expect(estimateOrThrow({ ...TINY_LLAMA, ...FP32_ADAMW, tieEmbeddings: true }).params).toBe(V * H + LAYERS + FINAL_NORM);
  });

  test('the shared matrix is counted once with one gradient: fp32 AdamW states drop by 4 + 4 + 8 bytes × V·h', () => {
    const untied = modelStates({ ...TINY_LLAMA, ...FP32_ADAMW });
    const tied = modelStates({ ...TINY_LLAMA, ...FP32_ADAMW, tieEmbeddings: true });
    expect(untied - tied).toBe(16 * V * H);
  });

  test('a tied family can be untied (GPT-2 with its own lm_head adds V·h = 50,257 × 768)', () => {
    const tied = estimateOrThrow({ model: 'gpt2', ...FP32_ADAMW }).params;
    const untied = estimateOrThrow({ model: 'gpt2', ...FP32_ADAMW, tieEmbeddings: false }).params;
    expect(untied - tied).toBe(50_257 * 768);
  });

  test('an untied shape from a URL reaches the terminal as --no-tie-embeddings', () => {
    expect(flagArgs({ arch: 'gpt2', 'tie-embeddings': 'false' })).toEqual(['--arch', 'gpt2', '--no-tie-embeddings']);
  });
});

describe('--num-labels on a custom shape', () => {
  test('a decoder ends in score = Linear(h, N, bias=False): the LM head V·h becomes N·h', () => {
    const result = estimateOrThrow({ ...TINY_LLAMA, ...FP32_ADAMW, numLabels: 3 });
    expect(result.params).toBe(V * H + LAYERS + FINAL_NORM + 3 * H);
  });

  test('BERT ends in classifier = Linear(h, N) with its bias, beside its pooler', () => {
    const plain = estimateOrThrow({ model: 'bert-base-uncased', ...FP32_ADAMW }).params;
    const classifier = estimateOrThrow({ model: 'bert-base-uncased', ...FP32_ADAMW, numLabels: 2 }).params;
    expect(classifier - plain).toBe(2 * 768 + 2);
  });

  test('the loss keeps an fp32 log-softmax of one pooled row per sequence: 4 B × b × N, not 4 B × s·b × V', () => {
    const logits = (options: EstimateOptions) => estimateOrThrow(options).lines.find((l) => l.id === 'activations-logits')?.bytes;
    expect(logits({ ...TINY_LLAMA, ...FP32_ADAMW, numLabels: 3 })).toBe(4 * 4 * 3);
    expect(logits({ ...TINY_LLAMA, ...FP32_ADAMW })).toBe(4 * 32 * 4 * V);
  });

  test('a classification head is never the embedding: --tie-embeddings with it keeps both and says so', () => {
    const result = estimateOrThrow({ ...TINY_LLAMA, ...FP32_ADAMW, numLabels: 3, tieEmbeddings: true });
    expect(result.params).toBe(V * H + LAYERS + FINAL_NORM + 3 * H);
    expect(result.warnings).toContainEqual(expect.stringContaining('--tie-embeddings has no effect with --num-labels'));
  });

  test.each<[string, EstimateOptions, string]>([
    ['no labels', { ...TINY_LLAMA, numLabels: 0 }, 'num-labels'],
    ['a fraction', { ...TINY_LLAMA, numLabels: 2.5 }, 'num-labels'],
    ['the mlp, whose --vocab is its classes', { arch: 'mlp', hidden: 64, layers: 2, numLabels: 3 }, 'num-labels'],
    ['tie-embeddings that is not a boolean', { ...TINY_LLAMA, tieEmbeddings: 'yes' as unknown as boolean }, 'tie-embeddings'],
  ])('bad input, %s: one error naming its field', (_name, options, field) => {
    const outcome = estimateMemory(options);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.errors.map((e) => e.field)).toEqual([field]);
  });
});
