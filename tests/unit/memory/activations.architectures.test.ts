/**
 * Activations of today's architectures, read from their committed config.json files: attention tensors at heads ×
 * head_dim rather than at the hidden size, MLA's latents and per-head keys and values, and a mixture-of-experts model's
 * dense first layers at their own MLP width. Every expected figure is derived by hand from the config's numbers.
 * Options that the default training stack sets are passed explicitly, so these tests hold whatever those defaults are.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  attentionWidths,
  layerActivationBytes,
  readConfigJson,
  routedMlpWidth,
  type EstimateOptions,
  type LayerActivationShape,
  type ModelConfig,
} from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

function committed(id: string): ModelConfig {
  const reading = readConfigJson(readFileSync(new URL(`../../../src/memory/model-configs/${id}.json`, import.meta.url), 'utf8'));
  if (!reading.ok) throw new Error(reading.errors.map((e) => e.message).join('; '));
  return reading.config;
}

describe('attentionWidths(model) from committed configs', () => {
  test.each<[string, { query: number; key: number; value: number; output: number; latents: number[] }]>([
    // 16 heads × head_dim 128 = 2048 against hidden_size 1024; 8 kv heads × 128.
    ['qwen3-0.6b', { query: 2048, key: 1024, value: 1024, output: 2048, latents: [] }],
    // 32 heads × head_dim 128 = 4096 against hidden_size 5120; 8 kv heads × 128.
    ['mistral-nemo', { query: 4096, key: 1024, value: 1024, output: 4096, latents: [] }],
    // 128 heads × (qk_nope 128 + qk_rope 64) for q and k, × v_head_dim 128 for v; q_lora_rank 1536, kv_lora_rank 512.
    ['deepseek-v3', { query: 24576, key: 24576, value: 16384, output: 16384, latents: [1536, 512] }],
    // 16 heads × (128 + 64), × 128; q_lora_rank null: a plain q_proj, one latent.
    ['deepseek-v2-lite', { query: 3072, key: 3072, value: 2048, output: 2048, latents: [512] }],
  ])('%s', (id, widths) => {
    expect(attentionWidths(committed(id))).toEqual(widths);
  });

  test('routed layers pass each token through top-k experts and the shared experts: DeepSeek-V2-Lite 6 × 1408 + 2 × 1408', () => {
    expect(routedMlpWidth(committed('deepseek-v2-lite'))).toBe(6 * 1408 + 2 * 1408);
  });
});

describe('layerActivationBytes at the model’s own head width (Korthikanti et al. 2022 §4.1 terms)', () => {
  test('Qwen3-0.6B, fused bf16, SDPA, no dropout: Q and the attention output are 2048 wide, not hidden_size 1024', () => {
    const s = 4096;
    const h = 1024;
    const shape: LayerActivationShape = {
      seq: s,
      microBatch: 1,
      hidden: h,
      heads: 16,
      widths: attentionWidths(committed('qwen3-0.6b')),
      mlpWidth: 3072,
      mlp: 'swiglu',
      norm: 'rmsnorm',
      pythonGelu: false,
      sinks: false,
      dropout: false,
      attention: 'sdpa',
      kernels: 'fused',
      bytesPerElement: 2,
      residualBytes: 2,
      tp: 1,
      sp: false,
    };
    const layer = layerActivationBytes(shape);
    // Norm inputs 2·2 + QKV and fc1 inputs 2·2 per h; Q 2048, K 1024, V 1024, output 2048 at 2 B; SwiGLU 4 × 3072 at 2 B.
    expect(layer.replicated).toBe(8 * s * h);
    expect(layer.tensorParallel).toBe(2 * s * (2048 + 1024 + 1024 + 2048) + 8 * s * 3072);
    expect(layer.attentionCore).toBe(4 * 16 * s);
  });

  test('gpt-oss eager attention keeps one more score column per row for the sink logit', () => {
    const shape: LayerActivationShape = {
      seq: 128,
      microBatch: 1,
      hidden: 2880,
      heads: 64,
      widths: attentionWidths(committed('gpt-oss-20b')),
      mlpWidth: 4 * 2880,
      mlp: 'swiglu',
      norm: 'rmsnorm',
      pythonGelu: false,
      sinks: true,
      dropout: false,
      attention: 'eager',
      kernels: 'fused',
      bytesPerElement: 2,
      residualBytes: 2,
      tp: 1,
      sp: false,
    };
    // 64 heads × 128 rows × (128 keys + 1 sink) × 2 B of softmax output.
    expect(layerActivationBytes(shape).attentionCore).toBe(64 * 128 * 129 * 2);
  });
});

describe('a mixture-of-experts model’s dense first layers keep activations at their own MLP width', () => {
  const options: EstimateOptions = {
    model: 'deepseek-v2-lite',
    mode: 'train',
    precision: 'bf16',
    kernels: 'fused',
    attention: 'sdpa',
    recompute: 'none',
    dropout: false,
    seq: 1024,
    microBatch: 1,
  };

  test('DeepSeek-V2-Lite: 1 dense layer (intermediate_size 10944) + 26 routed (6 × 1408 + 2 shared × 1408)', () => {
    const s = 1024;
    const h = 2048;
    // Norm, QKV and fc1 inputs 8 B per h; the 512-wide kv latent's norm and up-projection inputs, 2 B each.
    const replicated = 8 * s * h + 4 * s * 512;
    // q 16 × 192, k 16 × 192, v 16 × 128, attention output 16 × 128, at 2 B; SDPA's fp32 log-sum-exp per head and row.
    const attention = 2 * s * (3072 + 3072 + 2048 + 2048) + 4 * 16 * s;
    const layerAt = (mlpWidth: number) => replicated + attention + 4 * 2 * s * mlpWidth;
    const kept = estimateOrThrow(options).lines.find((l) => l.id === 'activations-layers')?.bytes;
    expect(kept).toBe(layerAt(10944) + 26 * layerAt(6 * 1408 + 2 * 1408));
  });
});
