import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { willItFit } from '../../../../src/components/landing/will-it-fit';
import { readConfigJson } from '../../../../src/memory/index';

describe('willItFit(model, gpu, mode)', () => {
  test('Llama 2 70B does not train on one H100 80GB: 16 bytes/param of mixed-precision Adam states alone are 1.1 TB (ZeRO, Rajbhandari et al. 2020, §3.1)', () => {
    const verdict = willItFit('llama-2-70b', 'h100-80gb', 'train');
    expect(verdict?.fits).toBe(false);
    expect(verdict?.marginBytes).toBeGreaterThan(16 * 69e9 - 80 * 2 ** 30);
  });

  test('GPT-2 (124M) inference fits on an RTX 4090: its bf16 weights are 0.25 GB of 24 GB', () => {
    const verdict = willItFit('gpt2', 'rtx-4090', 'infer');
    expect(verdict?.fits).toBe(true);
    expect(Number.isSafeInteger(verdict?.marginBytes) && (verdict?.marginBytes ?? -1) > 0).toBe(true);
  });

  test('the largest part is the largest line of the per-GPU totals, with its share of the total', () => {
    const verdict = willItFit('llama-2-7b', 'a100-80gb', 'train');
    if (!verdict) throw new Error('the engine refused llama-2-7b on a100-80gb');
    const { perGpu } = verdict.result;
    const parts = [perGpu.weights, perGpu.gradients, perGpu.optimizer, perGpu.activations, perGpu.kvCache, perGpu.overhead];
    expect(verdict.largest.bytes).toBe(Math.max(...parts));
    expect(verdict.largest.share).toBeCloseTo(verdict.largest.bytes / perGpu.total, 12);
  });

  test('an unknown preset gives no verdict rather than a made-up one', () => {
    expect(willItFit('no-such-model', 'h100-80gb', 'train')).toBeNull();
  });
});

describe('willItFit(config.json shape, gpu, mode)', () => {
  test('a shape read from Qwen3 8B’s config.json gives the verdict of the preset generated from that file', () => {
    const reading = readConfigJson(
      readFileSync(new URL('../../../../src/memory/model-configs/qwen3-8b.json', import.meta.url), 'utf8'),
    );
    if (!reading.ok) throw new Error('qwen3-8b.json reads');
    const fromFile = willItFit(reading.config, 'rtx-4090', 'infer');
    const fromPreset = willItFit('qwen3-8b', 'rtx-4090', 'infer');
    expect(fromFile?.result.params).toBe(fromPreset?.result.params);
    expect(fromFile?.result.perGpu.total).toBe(fromPreset?.result.perGpu.total);
    expect(fromFile?.fits).toBe(fromPreset?.fits);
  });
});
