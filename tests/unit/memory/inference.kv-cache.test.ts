/**
 * The KV cache of today's architectures, from their committed config.json files: sliding-window and global layers
 * (Gemma 2, Gemma 3, gpt-oss), and multi-head latent attention's two caches (DeepSeek-V2-Lite, DeepSeek-V3). Every
 * expected figure is derived by hand from the config's numbers; the weights are bf16 (2 bytes per cached element).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { readConfigJson, slidingLayersIn, type EstimateOptions } from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

const infer = (options: EstimateOptions) => estimateOrThrow({ mode: 'infer', weights: 'bf16', seq: 1, ...options });
const kvCache = (options: EstimateOptions) => infer(options).perGpu.kvCache;

describe('sliding-window layers cache only the window; global layers every token', () => {
  test.each<[string, EstimateOptions, number]>([
    [
      'Gemma 2 9B: 42 layers alternate (21 sliding of 4096, 21 global), 8 kv heads × head_dim 256',
      { model: 'gemma-2-9b', tokens: 8192 },
      2 * 8 * 256 * 2 * (21 * 8192 + 21 * 4096),
    ],
    [
      'Gemma 3 1B: sliding_window_pattern 6 makes layers 6, 12, 18, 24 global, 22 slide over 512; 1 kv head × 256',
      { model: 'gemma-3-1b', tokens: 32768 },
      2 * 1 * 256 * 2 * (4 * 32768 + 22 * 512),
    ],
    [
      'gpt-oss-20b: layer_types alternate over 24 layers (12 sliding of 128, 12 full), 8 kv heads × head_dim 64',
      { model: 'gpt-oss-20b', tokens: 4096 },
      2 * 8 * 64 * 2 * (12 * 4096 + 12 * 128),
    ],
    [
      'gpt-oss-120b: 36 layers, 18 sliding of 128 and 18 full, 8 kv heads × 64',
      { model: 'gpt-oss-120b', tokens: 131072 },
      2 * 8 * 64 * 2 * (18 * 131072 + 18 * 128),
    ],
    [
      'within the window every layer holds every token: Gemma 2 9B at 1000 tokens is 42 full layers',
      { model: 'gemma-2-9b', tokens: 1000 },
      2 * 8 * 256 * 2 * 42 * 1000,
    ],
    [
      'Mistral Nemo (sliding_window null): all 40 layers full, 8 kv heads × head_dim 128',
      { model: 'mistral-nemo', tokens: 16384 },
      2 * 8 * 128 * 2 * 40 * 16384,
    ],
  ])('%s', (_title, options, bytes) => {
    expect(kvCache(options)).toBe(bytes);
  });

  test('a pipeline stage counts its own layers: Gemma 3 1B, first of 2 stages holds layers 1–13, of which 6 and 12 are global', () => {
    expect(kvCache({ model: 'gemma-3-1b', tokens: 32768, pp: 2 })).toBe(2 * 1 * 256 * 2 * (2 * 32768 + 11 * 512));
  });

  test('the line names the window and the layers of each kind', () => {
    const label = infer({ model: 'gemma-2-9b', tokens: 8192 }).lines.find((l) => l.id === 'kv-cache')?.label;
    expect(label).toContain('21 full-attention layers × 8192 tokens + 21 sliding-window layers × 4096 tokens (window 4096)');
  });
});

describe('readConfigJson: which layers slide', () => {
  const gemma2 = JSON.parse(
    readFileSync(new URL('../../../src/memory/model-configs/gemma-2-9b.json', import.meta.url), 'utf8'),
  ) as Record<string, unknown>;
  const layerTypes = (every: (i: number) => boolean) =>
    Array.from({ length: 42 }, (_, i) => (every(i) ? 'full_attention' : 'sliding_attention'));

  test('layer_types, when given, wins over the family rule: every 3rd layer global', () => {
    const reading = readConfigJson({ ...gemma2, layer_types: layerTypes((i) => (i + 1) % 3 === 0) });
    expect(reading.ok && slidingLayersIn(reading.config, 0, 42)).toBe(28);
  });

  test('layer_types that repeat no "every n-th global" pattern: every layer counted in full, with a warning', () => {
    const reading = readConfigJson({ ...gemma2, layer_types: layerTypes((i) => i < 2) });
    expect(reading.ok && reading.config.slidingWindow).toBeNull();
    expect(reading.ok && reading.warnings.join(' ')).toContain('layer_types does not repeat');
  });

  test('layer_types of the wrong length is an error naming the key', () => {
    const reading = readConfigJson({ ...gemma2, layer_types: ['full_attention'] });
    expect(!reading.ok && reading.errors.map((e) => e.field)).toEqual(['layer_types']);
  });
});

describe('multi-head latent attention: the latent (vLLM, SGLang) or the expanded heads (Transformers)', () => {
  test.each<[string, EstimateOptions, number]>([
    [
      'DeepSeek-V3, latent (default): 61 layers × (kv_lora_rank 512 + qk_rope_head_dim 64) = 576 per token per layer',
      { model: 'deepseek-v3', tokens: 1 },
      61 * 576 * 2,
    ],
    [
      'DeepSeek-V3, expanded: 61 layers × 128 heads × (key 128 + 64, value 128)',
      { model: 'deepseek-v3', tokens: 1, kvCache: 'expanded' },
      61 * 128 * (192 + 128) * 2,
    ],
    [
      'DeepSeek-V2-Lite, latent: 27 layers × (512 + 64), 4096 tokens, batch 2',
      { model: 'deepseek-v2-lite', tokens: 4096, microBatch: 2 },
      27 * 576 * 2 * 4096 * 2,
    ],
    [
      'DeepSeek-V2-Lite, expanded: 27 layers × 16 heads × (192 + 128), 4096 tokens, batch 2',
      { model: 'deepseek-v2-lite', tokens: 4096, microBatch: 2, kvCache: 'expanded' },
      27 * 16 * 320 * 2 * 4096 * 2,
    ],
    [
      'the latent is whole on every tensor-parallel rank: DeepSeek-V3 on tp 8 still 61 × 576',
      { model: 'deepseek-v3', tokens: 1, tp: 8 },
      61 * 576 * 2,
    ],
    [
      'expanded heads split across tensor-parallel ranks: DeepSeek-V3 on tp 8 holds 16 heads',
      { model: 'deepseek-v3', tokens: 1, tp: 8, kvCache: 'expanded' },
      61 * 16 * 320 * 2,
    ],
  ])('%s', (_title, options, bytes) => {
    expect(kvCache(options)).toBe(bytes);
  });

  test('the line says which cache is shown', () => {
    const label = (kv: 'latent' | 'expanded') =>
      infer({ model: 'deepseek-v3', tokens: 1, kvCache: kv }).lines.find((l) => l.id === 'kv-cache')?.label;
    expect(label('latent')).toContain('MLA latent 512 + 64 per token, as vLLM and SGLang cache it');
    expect(label('expanded')).toContain('as Transformers caches them');
  });

  test('--kv-cache on a model without MLA is ignored, with a warning', () => {
    const outcome = estimateOrThrow({ mode: 'infer', model: 'llama-3.1-8b', kvCache: 'expanded' });
    expect(outcome.warnings.join(' ')).toContain('--kv-cache');
  });
});
