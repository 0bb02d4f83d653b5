import { lossBytes } from '../../../src/memory/loss.ts';
import { describe, expect, test } from 'vitest';
import {
  defaultMlpSegment,
  layerActivationBytes,
  outsideActivationBytes,
  planRecompute,
  type LayerActivationShape,
} from '../../../src/memory/index.ts';
import { mlpLayerActivationBytes } from '../../../src/memory/activations.ts';

// GPT-3 175B shape used throughout Korthikanti et al. 2022 (arXiv 2205.05198), Table 3.
const s = 2048;
const b = 1;
const h = 12288;
const a = 96;
const t = 8;
const sbh = s * b * h;
const gpt: LayerActivationShape = {
  seq: s,
  microBatch: b,
  hidden: h,
  heads: a,
  widths: { query: h, key: h, value: h, output: h, latents: [] },
  mlpWidth: 4 * h,
  mlp: 'gelu',
  norm: 'layernorm',
  pythonGelu: false,
  sinks: false,
  dropout: true,
  attention: 'eager',
  kernels: 'fused',
  bytesPerElement: 2,
  residualBytes: 2,
  tp: 1,
  sp: false,
  frozenWeights: false,
};

describe('layerActivationBytes(shape) reproduces Korthikanti et al. 2022 (arXiv 2205.05198)', () => {
  test.each<[string, Partial<LayerActivationShape>, 'full' | 'selective', number]>([
    ['§4.1 eq. 1, no parallelism: sbh(34 + 5as/h)', {}, 'full', sbh * (34 + (5 * a * s) / h)],
    ['Table 2, tensor parallel: sbh(10 + 24/t + 5as/(ht))', { tp: t }, 'full', sbh * (10 + 24 / t + (5 * a * s) / (h * t))],
    [
      'Table 2, tensor + sequence parallel: sbh(34/t + 5as/(ht))',
      { tp: t, sp: true },
      'full',
      sbh * (34 / t + (5 * a * s) / (h * t)),
    ],
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
    expect(planRecompute(layerActivationBytes(gpt), 96, 'full', 1).keptPerLayer).toBe(2 * sbh);
  });

  test('no dropout drops the 2 masks and the softmax-dropout output: sbh(32 + 2as/h)', () => {
    expect(layerActivationBytes({ ...gpt, dropout: false }).full).toBe(sbh * (32 + (2 * a * s) / h));
  });

  test('SDPA (FlashAttention, arXiv 2205.14135 Alg. 2) stores no s² term, only an fp32 log-sum-exp per row and head: sbh·34 + 4asb', () => {
    expect(layerActivationBytes({ ...gpt, attention: 'sdpa' }).full).toBe(34 * sbh + 4 * a * s * b);
  });

  test('fp32 activations: 4-byte tensors, 1-byte masks: sbh(66 + 9as/h)', () => {
    expect(layerActivationBytes({ ...gpt, bytesPerElement: 4, residualBytes: 4 }).full).toBe(sbh * (66 + (9 * a * s) / h));
  });

  test('SwiGLU + GQA (Llama 2 70B shape): 2sbh norms + 2sbh inputs + Q 2sbh + KV 4sbh·(8/64) + proj 2sbh + 8sbf + 2as²b', () => {
    const kv = (8 / 64) * 8192;
    const widths = { query: 8192, key: kv, value: kv, output: 8192, latents: [] };
    const shape = { ...gpt, hidden: 8192, heads: 64, widths, mlpWidth: 28672, mlp: 'swiglu' as const, dropout: false, seq: 4096 };
    const sbh70 = 4096 * 8192;
    expect(layerActivationBytes(shape).full).toBe(
      8 * sbh70 + 2 * sbh70 + 4 * sbh70 * (8 / 64) + 2 * sbh70 + 8 * 4096 * 28672 + 2 * 64 * 4096 * 4096,
    );
  });
});

describe('planRecompute(layer, L, policy)', () => {
  const layer = layerActivationBytes(gpt);

  test('none keeps L full layers and has no working set', () => {
    expect(planRecompute(layer, 4, 'none', 1)).toEqual({
      keptPerLayer: layer.full,
      keptForLayers: 4 * layer.full,
      workingSet: 0,
      firstLayerWorkingSet: 0,
      segment: 0,
    });
  });

  test('selective keeps the non-s² part and rebuilds one attention core', () => {
    const plan = planRecompute(layer, 4, 'selective', 1);
    expect(plan.keptForLayers).toBe(4 * (layer.full - layer.attentionCore));
    expect(plan.workingSet).toBe(layer.attentionCore);
  });

  test('full with k = 1 keeps L inputs plus one layer, less the shared input', () => {
    const plan = planRecompute(layer, 96, 'full', 1);
    expect(plan.keptForLayers + plan.workingSet).toBe(96 * layer.input + layer.full - layer.input);
  });

  test('full with k = 4: one segment of 4 layers rebuilt, then only its first layer left in the first layer', () => {
    const plan = planRecompute(layer, 96, 'full', 4);
    expect(plan.keptForLayers).toBe(24 * layer.input);
    expect(plan.workingSet).toBe(4 * layer.full - layer.input);
    expect(plan.firstLayerWorkingSet).toBe(layer.full - layer.input);
  });

  describe("with some layers of another kind (a mixture of experts' dense first layers)", () => {
    const dense = layerActivationBytes({ ...gpt, mlpWidth: 8 * h });

    test('none and selective sum each kind; the reported per-layer figure is the larger kind', () => {
      const none = planRecompute(layer, 4, 'none', 1, { layer: dense, count: 1 });
      expect(none.keptForLayers).toBe(3 * layer.full + dense.full);
      expect(none.keptPerLayer).toBe(dense.full);
      const selective = planRecompute(layer, 4, 'selective', 1, { layer: dense, count: 1 });
      expect(selective.keptForLayers).toBe(3 * (layer.full - layer.attentionCore) + dense.full - dense.attentionCore);
    });

    test('full recompute keeps the same inputs and rebuilds a segment at the larger kind', () => {
      const plan = planRecompute(layer, 4, 'full', 2, { layer: dense, count: 1 });
      expect(plan.keptForLayers).toBe(2 * layer.input);
      expect(plan.workingSet).toBe(2 * dense.full - layer.input);
    });

    test('a stage of the other kind only reports that kind, even when it is the smaller', () => {
      const narrow = layerActivationBytes({ ...gpt, mlpWidth: 2 * h });
      const plan = planRecompute(layer, 2, 'none', 1, { layer: narrow, count: 2 });
      expect(plan.keptPerLayer).toBe(narrow.full);
      expect(plan.keptForLayers).toBe(2 * narrow.full);
    });
  });

  test('mlp: ceil(L/k) checkpoints and the last output kept, then a rebuilt segment’s k inputs less the checkpoint and its output (Chen et al. 2016, arXiv 1604.06174)', () => {
    const block = mlpLayerActivationBytes(2, 5, 1);
    const plan = planRecompute(block, 8, 'full', defaultMlpSegment(8));
    expect(defaultMlpSegment(8)).toBe(3);
    expect(plan.keptForLayers / 10).toBe(Math.ceil(8 / 3) + 1);
    expect(plan.workingSet / 10).toBe(3 - 1 + 1);
  });

  test('mlp without recompute: L blocks keep L + 1 tensors, the batch and every ReLU’s result', () => {
    expect(planRecompute(mlpLayerActivationBytes(2, 5, 1), 8, 'none', 0).keptForLayers / 10).toBe(8 + 1);
  });

  test.each([
    [1, 1],
    [4, 2],
    [8, 3],
    [16, 4],
    [100, 10],
  ])('defaultMlpSegment(%d) = %d (round √L)', (layers, k) => {
    expect(defaultMlpSegment(layers)).toBe(k);
  });
});

describe('outsideActivationBytes(shape) and lossBytes', () => {
  test('logits are fp32 and vocab-parallel: 4sbv/t (Korthikanti §4.3)', () => {
    const loss = lossBytes({ kind: 'eager', positions: s * b, vocab: 51200, hidden: h, logitBytes: 2, tp: t });
    expect(loss.kept).toBe((4 * s * b * 51200) / t);
    const out = outsideActivationBytes({
      seq: s,
      microBatch: b,
      hidden: h,
      bytesPerElement: 2,
      residualBytes: 2,
      dropout: true,
      embeddingNorm: false,
      finalNorm: true,
      transformer: true,
      tp: t,
      sp: false,
      trainsHead: true,
    });
    expect(out.embedding).toBe(sbh);
    expect(out.headInputs).toBe(4 * sbh);
  });
});

describe('layerActivationBytes(shape) with eager kernels counts what autograd saves for Hugging Face modules', () => {
  // Small shape: every term is visible. sb = s·b tokens.
  const small = {
    seq: 128,
    microBatch: 2,
    hidden: 256,
    heads: 4,
    widths: { query: 256, key: 256, value: 256, output: 256, latents: [] },
    mlpWidth: 1024,
    sinks: false,
    tp: 1,
    sp: false,
    frozenWeights: false,
  } as const;
  const tokens = 128 * 2;
  const sbhSmall = tokens * 256;
  const sbf = tokens * 1024;
  const scores = 4 * 128 * 128 * 2;
  const gpt2 = {
    ...small,
    mlp: 'gelu',
    norm: 'layernorm',
    pythonGelu: true,
    kernels: 'eager',
    attention: 'eager',
    dropout: true,
  } as const;

  test('GPT-2 fp32 with CUDA dropout: 114·sbh + 9·as²b + 16·bs, as PyTorch 1.13 saved it (tools/pytorch-harness/README.md)', () => {
    expect(layerActivationBytes({ ...gpt2, bytesPerElement: 4, residualBytes: 4 }).full).toBe(
      114 * sbhSmall + 9 * scores + 16 * tokens,
    );
  });

  test('GPT-2 fused kernels (F.gelu tanh) in fp32: 66·sbh + 9·as²b (Korthikanti in fp32), LayerNorm stats aside', () => {
    const fusedGelu = layerActivationBytes({ ...gpt2, pythonGelu: false, bytesPerElement: 4, residualBytes: 4 }).full;
    expect(fusedGelu).toBe(66 * sbhSmall + 9 * scores + 16 * tokens);
  });

  test('GPT-2 under bf16 autocast: fp32 residual and norms, gelu_new partly fp32 (pow runs in fp32)', () => {
    // ln 2×4 + c_attn in 2 + qkv 6 + c_proj in 2 + 2 masks + c_fc in 2 = 22·sbh; gelu_new 16·sbf; scores 4 + 1 + 2.
    expect(layerActivationBytes({ ...gpt2, bytesPerElement: 2, residualBytes: 4 }).full).toBe(
      22 * sbhSmall + 16 * sbf + 7 * scores + 16 * tokens,
    );
  });

  test('Llama under bf16 autocast: RMSNorm fp32 copies, one cast input per projection, SwiGLU 8·sbf, eager scores 6 B', () => {
    const llama = {
      ...small,
      mlp: 'swiglu',
      norm: 'rmsnorm',
      pythonGelu: false,
      kernels: 'eager',
      attention: 'eager',
      dropout: false,
    } as const;
    // norms 2×(4 + 4) + q,k,v inputs 3×2 + q,k,v 6 + o_proj input 2 + gate, up inputs 2×2 = 34·sbh; rstd 2×4 per token.
    expect(layerActivationBytes({ ...llama, bytesPerElement: 2, residualBytes: 4 }).full).toBe(
      34 * sbhSmall + 8 * sbf + 6 * scores + 8 * tokens,
    );
    // SDPA: no scores; its output (2·sbh) and fp32 log-sum-exp (4·a·s·b) instead.
    expect(layerActivationBytes({ ...llama, attention: 'sdpa', bytesPerElement: 2, residualBytes: 4 }).full).toBe(
      36 * sbhSmall + 8 * sbf + 4 * 4 * tokens + 8 * tokens,
    );
  });
});

describe('llm-foundry’s layers: Korthikanti’s terms plus the flash path’s padded output', () => {
  // llm-foundry 4952183 attention.py flash_attn_fn: flash-attn 2.5.0's varlen kernel saves its output, and
  // bert_padding.pad_input copies it into the tensor the output projection keeps.
  const mpt3b = { ...gpt, seq: 8192, microBatch: 3, hidden: 2560, heads: 20, dropout: false, attention: 'sdpa' as const };
  const copy = 2 * 8192 * 3 * 2560;

  test('with flash attention: one 2·s·b·h tensor more than Megatron’s fused layer, split by tensor parallelism', () => {
    for (const tp of [1, 2]) {
      const fused = layerActivationBytes({ ...mpt3b, widths: widthsOf(2560), tp });
      const foundry = layerActivationBytes({ ...mpt3b, widths: widthsOf(2560), tp, kernels: 'llm-foundry' });
      expect(foundry.full - fused.full).toBe(copy / tp);
      expect(foundry.tensorParallel - fused.tensorParallel).toBe(copy / tp);
    }
  });

  test('with a frozen output projection flash-attn’s own copy stays: its backward reads it', () => {
    const frozen = { ...mpt3b, widths: widthsOf(2560), frozenWeights: true };
    const fused = layerActivationBytes(frozen);
    expect(layerActivationBytes({ ...frozen, kernels: 'llm-foundry' }).full - fused.full).toBe(copy);
  });

  test('its torch (eager) attention path keeps the output once, as Megatron’s does', () => {
    const eager = { ...mpt3b, widths: widthsOf(2560), attention: 'eager' as const };
    expect(layerActivationBytes({ ...eager, kernels: 'llm-foundry' })).toEqual(layerActivationBytes(eager));
  });
});

/** Plain multi-head attention's widths at hidden size `h`. */
function widthsOf(h: number) {
  return { query: h, key: h, value: h, output: h, latents: [] };
}
