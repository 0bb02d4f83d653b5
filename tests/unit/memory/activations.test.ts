import { describe, expect, test } from 'vitest';
import {
  defaultMlpSegment, layerActivationBytes, outsideActivationBytes, planRecompute, type LayerActivationShape,
} from '../../../src/memory/index.ts';

// GPT-3 175B shape used throughout Korthikanti et al. 2022 (arXiv 2205.05198), Table 3.
const s = 2048;
const b = 1;
const h = 12288;
const a = 96;
const t = 8;
const sbh = s * b * h;
const gpt: LayerActivationShape = {
  seq: s, microBatch: b, hidden: h, heads: a, kvHeads: a, ffn: 4 * h, mlp: 'gelu', topK: 1,
  dropout: true, flashAttention: false, bytesPerElement: 2, tp: 1, sp: false,
};

describe('layerActivationBytes(shape) reproduces Korthikanti et al. 2022 (arXiv 2205.05198)', () => {
  test.each<[string, Partial<LayerActivationShape>, 'full' | 'selective', number]>([
    ['§4.1 eq. 1, no parallelism: sbh(34 + 5as/h)', {}, 'full', sbh * (34 + (5 * a * s) / h)],
    ['Table 2, tensor parallel: sbh(10 + 24/t + 5as/(ht))', { tp: t }, 'full', sbh * (10 + 24 / t + (5 * a * s) / (h * t))],
    ['Table 2, tensor + sequence parallel: sbh(34/t + 5as/(ht))', { tp: t, sp: true }, 'full', sbh * (34 / t + (5 * a * s) / (h * t))],
    ['Table 2, tensor parallel + selective recompute: sbh(10 + 24/t)', { tp: t }, 'selective', sbh * (10 + 24 / t)],
    ['Table 2, tensor + sequence parallel + selective recompute: sbh·34/t', { tp: t, sp: true }, 'selective', (sbh * 34) / t],
  ])('%s', (_title, override, kind, expected) => {
    const layer = layerActivationBytes({ ...gpt, ...override });
    const bytes = kind === 'full' ? layer.full : layer.full - layer.attentionCore;
    expect(bytes).toBe(expected);
  });

  test('§4.1: attention 11sbh + 5as²b, MLP 19sbh, LayerNorms 4sbh', () => {
    const layer = layerActivationBytes(gpt);
    expect(layer.attentionCore).toBe(5 * a * s * s * b);
    expect(layer.replicated + layer.tensorParallel).toBe(34 * sbh);
  });

  test('Table 2, full activation recompute keeps sbh·2 per layer', () => {
    expect(layerActivationBytes(gpt).input).toBe(2 * sbh);
    expect(planRecompute(layerActivationBytes(gpt), 96, 'full', 1, 2 * sbh).keptPerLayer).toBe(2 * sbh);
  });

  test('no dropout drops the 2 masks and the softmax-dropout output: sbh(32 + 2as/h)', () => {
    expect(layerActivationBytes({ ...gpt, dropout: false }).full).toBe(sbh * (32 + (2 * a * s) / h));
  });

  test('FlashAttention stores no s² term: sbh·34', () => {
    expect(layerActivationBytes({ ...gpt, flashAttention: true }).full).toBe(34 * sbh);
  });

  test('fp32 activations: 4-byte tensors, 1-byte masks: sbh(66 + 9as/h)', () => {
    expect(layerActivationBytes({ ...gpt, bytesPerElement: 4 }).full).toBe(sbh * (66 + (9 * a * s) / h));
  });

  test('SwiGLU + GQA (Llama 2 70B shape): 2sbh norms + 2sbh inputs + Q 2sbh + KV 4sbh·(8/64) + proj 2sbh + 8sbf + 2as²b', () => {
    const shape = { ...gpt, hidden: 8192, heads: 64, kvHeads: 8, ffn: 28672, mlp: 'swiglu' as const, dropout: false, seq: 4096 };
    const sbh70 = 4096 * 8192;
    expect(layerActivationBytes(shape).full).toBe(8 * sbh70 + 2 * sbh70 + 4 * sbh70 * (8 / 64) + 2 * sbh70 + 8 * 4096 * 28672 + 2 * 64 * 4096 * 4096);
  });
});

describe('planRecompute(layer, L, policy)', () => {
  const layer = layerActivationBytes(gpt);

  test('none keeps L full layers and has no working set', () => {
    expect(planRecompute(layer, 4, 'none', 1, 0)).toEqual({ keptPerLayer: layer.full, keptForLayers: 4 * layer.full, workingSet: 0, segment: 0 });
  });

  test('selective keeps the non-s² part and rebuilds one attention core', () => {
    const plan = planRecompute(layer, 4, 'selective', 1, 0);
    expect(plan.keptForLayers).toBe(4 * (layer.full - layer.attentionCore));
    expect(plan.workingSet).toBe(layer.attentionCore);
  });

  test('full with k = 1 keeps L inputs plus one layer, less the shared input', () => {
    const plan = planRecompute(layer, 96, 'full', 1, layer.input);
    expect(plan.keptForLayers + plan.workingSet).toBe(96 * layer.input + layer.full - layer.input);
  });

  test('mlp convention: ceil(L/k) + k tensors (Chen et al. 2016, arXiv 1604.06174)', () => {
    const tensor = { replicated: 10, tensorParallel: 0, attentionCore: 0, full: 10, input: 10 };
    const plan = planRecompute(tensor, 8, 'full', defaultMlpSegment(8), 0);
    expect(defaultMlpSegment(8)).toBe(3);
    expect((plan.keptForLayers + plan.workingSet) / 10).toBe(Math.ceil(8 / 3) + 3);
  });

  test.each([[1, 1], [4, 2], [8, 3], [16, 4], [100, 10]])('defaultMlpSegment(%d) = %d (round √L)', (layers, k) => {
    expect(defaultMlpSegment(layers)).toBe(k);
  });
});

describe('outsideActivationBytes(shape)', () => {
  test('logits are fp32 and vocab-parallel: 4sbv/t (Korthikanti §4.3)', () => {
    const out = outsideActivationBytes({
      seq: s, microBatch: b, hidden: h, vocab: 51200, bytesPerElement: 2, dropout: true,
      embeddingNorm: false, finalNorm: true, transformer: true, tp: t, sp: false,
    });
    expect(out.logits).toBe((4 * s * b * 51200) / t);
    expect(out.embedding).toBe(sbh);
    expect(out.headInputs).toBe(4 * sbh);
  });
});
