import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { GB, GIB } from '../../../src/base/bytes.ts';
import { countParams, getModelPreset, type ModelConfig } from '../../../src/memory/index.ts';
import { linearLayers } from '../../../src/memory/linear-layers.ts';
import {
  dequantizedWeightBytes,
  linearWeightBytes,
  quantizedLayers,
  validateWeightFormat,
  weightFormatBytes,
  weightFormatBytesPerLayer,
  WEIGHT_FORMATS,
  type WeightFormat,
} from '../../../src/memory/weight-formats.ts';

const model = (id: string): ModelConfig => getModelPreset(id)!.config;
const llama2 = model('llama-2-7b');

describe('linearWeightBytes(in, out, format) mirrors the tensors each library allocates', () => {
  // 4096 × 4096 = 16,777,216 weights; shapes read from the library sources cited in weight-formats.ts.
  test.each<[WeightFormat, number, string]>([
    ['fp16', 2 * 16_777_216, 'torch.float16'],
    ['llm-int8', 16_777_216 + 4 * 4096, 'Int8Params: int8 CB [4096, 4096] + fp32 SCB [4096]'],
    ['nf4', 8_388_608 + 4 * 262_144 + 64, 'uint8 [(n+1)//2] + fp32 absmax [n/64] + 16-entry fp32 code'],
    [
      'nf4-dq',
      8_388_608 + 262_144 + 4 * 1024 + 4 + 64 + 1024,
      'uint8 absmax [n/64] + fp32 absmax2 [n/64/256] + offset + code + 256-entry nested code',
    ],
    [
      'gptq',
      512 * 4096 * 4 + 32 * 512 * 4 + 32 * 4096 * 2 + 4096 * 4,
      'qweight [512, 4096] + qzeros [32, 512] int32, scales [32, 4096] fp16, g_idx [4096] int32',
    ],
    [
      'awq',
      4096 * 512 * 4 + 32 * 512 * 4 + 32 * 4096 * 2,
      'qweight [4096, 512] + qzeros [32, 512] int32, scales [32, 4096] fp16',
    ],
  ])('linearWeightBytes(4096, 4096, %s) = %d (%s)', (format, bytes) => {
    expect(linearWeightBytes(4096, 4096, format).bytes).toBe(bytes);
  });

  test('FP4 stores exactly what NF4 stores: same blocks, a different 16-entry code', () => {
    expect(linearWeightBytes(4096, 11008, 'fp4')).toEqual(linearWeightBytes(4096, 11008, 'nf4'));
    expect(linearWeightBytes(4096, 11008, 'fp4-dq')).toEqual(linearWeightBytes(4096, 11008, 'nf4-dq'));
  });

  test('an odd weight count rounds the packed nibbles and the last block up (ops.py: (n + 1) // 2, -(n // -blocksize))', () => {
    expect(linearWeightBytes(3, 5, 'nf4').bytes).toBe(8 + 4 * 1 + 64);
  });
});

describe('QLoRA paper (arXiv 2305.14314) §3 "Double Quantization"', () => {
  // Bits per parameter spent on quantization constants, on a large layer where the fixed code tables vanish.
  const constantBits = (format: WeightFormat) => {
    const weights = 8192 * 28672;
    return ((linearWeightBytes(8192, 28672, format).bytes - weights / 2) * 8) / weights;
  };

  test('block size 64 with fp32 constants costs 32/64 = 0.5 bits per parameter', () => {
    expect(constantBits('nf4')).toBeCloseTo(0.5, 4);
  });

  test('double quantization brings it to 8/64 + 32/(64·256) = 0.127 bits per parameter', () => {
    expect(constantBits('nf4-dq')).toBeCloseTo(0.127, 3);
  });

  test('"a reduction of 0.373 bits per parameter": Llama 2 70B saves 0.373 · quantized params / 8 bytes', () => {
    const nf4 = weightFormatBytes(model('llama-2-70b'), 'nf4');
    const dq = weightFormatBytes(model('llama-2-70b'), 'nf4-dq');
    expect(((nf4.bytes - dq.bytes) * 8) / nf4.quantizedParams).toBeCloseTo(0.373, 3);
  });
});

describe('weightFormatBytes(Llama 2 7B) as each format packs it (GiB = 2^30)', () => {
  test.each<[WeightFormat, number]>([
    ['nf4', 3.88],
    ['nf4-dq', 3.6],
    ['gptq', 3.62],
  ])('weightFormatBytes(llama-2-7b, %s) ≈ %d GiB', (format, gib) => {
    expect(Math.abs(weightFormatBytes(llama2, format).bytes / GIB - gib)).toBeLessThan(0.01);
  });

  test('every real 4-bit format is above the flat 0.5 B/param that --weights int4 prints today (3.14 GiB)', () => {
    const flat = countParams(llama2).total / 2;
    expect(flat / GIB).toBeCloseTo(3.14, 2);
    for (const format of ['nf4', 'nf4-dq', 'fp4', 'fp4-dq', 'gptq', 'awq'] as const) {
      expect(weightFormatBytes(llama2, format).bytes).toBeGreaterThan(flat);
    }
  });

  test('bitsandbytes keeps embed_tokens, lm_head and the 65 RMSNorm weights in 16-bit: 2 · 32000 · 4096 + 65 · 4096', () => {
    const counts = weightFormatBytes(llama2, 'nf4');
    expect(counts.keptParams).toBe(2 * 32000 * 4096 + 65 * 4096);
    expect(counts.quantizedParams + counts.keptParams).toBe(6_738_415_616);
  });
});

// model.safetensors.index.json "total_size" is the sum of tensor bytes Transformers/AutoAWQ wrote (no headers or metadata),
// so it is the exact figure to compare with; each index below is quoted verbatim in public code found by its total_size.
describe('weightFormatBytes equals safetensors index total_size, to the byte', () => {
  test('AWQ Llama 3 70B (9 shards, model.layers.0.self_attn.q_proj.qweight, layers.79; index quoted in a public Go test, TestUnmarshalSafetensorIndex): 39,767,785,472', () => {
    expect(weightFormatBytes(model('llama-3-70b'), 'awq').bytes).toBe(39_767_785_472);
  });

  test('meta-llama/Meta-Llama-3-8B bf16 index: 16,060,522,496', () => {
    expect(weightFormatBytes(model('llama-3-8b'), 'bf16').bytes).toBe(16_060_522_496);
  });

  test('mistralai/Mistral-7B-Instruct-v0.2 bf16 index (same shape as v0.1): 14,483,464,192', () => {
    expect(weightFormatBytes(model('mistral-7b'), 'bf16').bytes).toBe(14_483_464_192);
  });

  test('meta-llama/Llama-2-7b-hf fp16 index: 13,476,839,424 = weights + 32 saved rotary_emb.inv_freq buffers of 64 fp32', () => {
    expect(weightFormatBytes(llama2, 'fp16').bytes + 32 * 64 * 4).toBe(13_476_839_424);
  });
});

describe('weightFormatBytes against published checkpoints and printouts', () => {
  test('TheBloke/Llama-2-13B-GPTQ main branch (AutoGPTQ, 4-bit, group 128, act-order False): "7.26 GB" file', () => {
    // The table gives 2 decimals of GB (10^9). Checkpoints made by AutoGPTQ before PR #602 (March 2024) also stored a
    // zero fp16 bias per quantized Linear (make_quant passed bias=True); both counts round to the published 7.26.
    const counts = weightFormatBytes(model('llama-2-13b'), 'gptq');
    const legacyZeroBias = quantizedLayers(model('llama-2-13b'), 'gptq').reduce(
      (sum, l) => sum + 2 * l.outFeatures * l.copies,
      0,
    );
    expect((counts.bytes / GB).toFixed(2)).toBe('7.26');
    expect(((counts.bytes + legacyZeroBias) / GB).toFixed(2)).toBe('7.26');
  });

  test('PEFT examples/dora_finetuning/QDoRA_finetuning.ipynb: Llama 3 8B in NF4+DQ, "all params: 4562948096" with 22,347,776 trainable', () => {
    // The notebook's own print_trainable_parameters sums param.numel(): a Params4bit holds two weights per uint8 element.
    // Trainable = LoRA r=8 on the 7 projections (20,971,520) + DoRA magnitudes, one per output feature (1,376,256).
    const counts = weightFormatBytes(model('llama-3-8b'), 'nf4-dq');
    expect(counts.keptParams + counts.quantizedParams / 2 + 22_347_776).toBe(4_562_948_096);
  });

  test('Mixtral: bitsandbytes quantizes the router (an nn.Linear), AutoGPTQ and AutoAWQ leave it in 16-bit', () => {
    const router = 32 * 4096 * 8;
    const bnb = weightFormatBytes(model('mixtral-8x7b'), 'nf4');
    expect(weightFormatBytes(model('mixtral-8x7b'), 'gptq').keptParams - bnb.keptParams).toBe(router);
    expect(weightFormatBytes(model('mixtral-8x7b'), 'awq').keptParams - bnb.keptParams).toBe(router);
  });

  test('BertModel: bitsandbytes keeps the last module, pooler.dense, in 16-bit (get_keys_to_not_convert)', () => {
    const bert = model('bert-base-uncased');
    expect(quantizedLayers(bert, 'nf4').map((l) => l.module)).not.toContain('pooler.dense');
    expect(weightFormatBytes(bert, 'nf4').quantizedParams).toBe(12 * (4 * 768 * 768 + 2 * 768 * 3072));
  });

  test('GPT-2: Conv1D layers are quantized (Transformers transposes them), the tied head is the embedding and stays 16-bit', () => {
    expect(weightFormatBytes(model('gpt2'), 'llm-int8').quantizedParams).toBe(12 * (768 * 2304 + 768 * 768 + 2 * 768 * 3072));
  });
});

describe('weightFormatBytes(float formats)', () => {
  test('fp16 and bf16 are 2 bytes and fp32 4 bytes per parameter, nothing quantized', () => {
    expect(weightFormatBytes(llama2, 'bf16')).toEqual({
      bytes: 2 * 6_738_415_616,
      quantizedParams: 0,
      keptParams: 6_738_415_616,
      constantBytes: 0,
    });
    expect(weightFormatBytes(llama2, 'fp32').bytes).toBe(4 * 6_738_415_616);
  });

  test('keptBytes: 4 counts the fp32 upcast of prepare_model_for_kbit_training', () => {
    const upcast = weightFormatBytes(llama2, 'nf4-dq', { keptBytes: 4 });
    expect(upcast.bytes - weightFormatBytes(llama2, 'nf4-dq').bytes).toBe(2 * upcast.keptParams);
  });
});

describe('weightFormatBytesPerLayer (for pipeline stages)', () => {
  test('a Llama 2 7B layer quantizes 4h² + 3hf weights and keeps its two RMSNorm weights', () => {
    const layer = weightFormatBytesPerLayer(llama2, 'nf4-dq');
    expect(layer.quantizedParams).toBe(4 * 4096 * 4096 + 3 * 4096 * 11008);
    expect(layer.keptParams).toBe(2 * 4096);
  });

  test('a Mixtral layer holds 8 experts; GPTQ keeps the router in 16-bit, bitsandbytes does not', () => {
    const mixtral = model('mixtral-8x7b');
    expect(weightFormatBytesPerLayer(mixtral, 'gptq').keptParams - weightFormatBytesPerLayer(mixtral, 'nf4').keptParams).toBe(
      4096 * 8,
    );
  });
});

describe('dequantizedWeightBytes', () => {
  test('the largest quantized Linear in bf16: Llama 2 7B down_proj/gate_proj, 2 · 4096 · 11008', () => {
    expect(dequantizedWeightBytes(llama2, 'nf4-dq')).toBe(2 * 4096 * 11008);
    expect(dequantizedWeightBytes(llama2, 'bf16')).toBe(0);
  });
});

describe('validateWeightFormat', () => {
  test.each<[string, WeightFormat]>([
    ['bert-base-uncased', 'gptq'],
    ['bert-base-uncased', 'awq'],
    ['gpt2', 'awq'],
    ['demo-mlp', 'gptq'],
  ])('%s in %s is refused on the weights field', (id, format) => {
    const errors = validateWeightFormat(model(id), format);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ field: 'weights' });
    expect(errors[0]!.message).toContain(model(id).arch);
  });

  test('GPT-2 XL (h = 1600) cannot be AWQ-packed in groups of 128, and the message names the layer', () => {
    const xl = { ...model('gpt2-xl'), arch: 'llama' as const };
    const errors = validateWeightFormat(xl, 'awq');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]!.message).toMatch(/q_proj is 1600 → 1600/);
  });

  test('every preset passes for every bitsandbytes format', () => {
    for (const id of ['gpt2', 'bert-base-uncased', 'llama-2-7b', 'mixtral-8x7b', 'demo-mlp']) {
      for (const format of ['llm-int8', 'nf4', 'nf4-dq', 'fp4', 'fp4-dq'] as const)
        expect(validateWeightFormat(model(id), format)).toEqual([]);
    }
  });
});

/** Transformer shapes whose widths suit every packing (multiples of 128). */
const shapeArbitrary: fc.Arbitrary<ModelConfig> = fc
  .record({
    arch: fc.constantFrom('gpt2', 'llama', 'bert' as const),
    heads: fc.constantFrom(1, 2, 4, 8),
    headDim: fc.constantFrom(128, 256),
    ffnMultiple: fc.integer({ min: 1, max: 64 }),
    layers: fc.integer({ min: 1, max: 48 }),
    vocab: fc.integer({ min: 1, max: 130_000 }),
    experts: fc.constantFrom(1, 1, 4, 8),
  })
  .map((c) => ({
    arch: c.arch,
    hidden: c.heads * c.headDim,
    layers: c.layers,
    heads: c.heads,
    kvHeads: c.heads,
    ffn: 128 * c.ffnMultiple,
    vocab: c.vocab,
    positions: c.arch === 'llama' ? 0 : 512,
    tiedEmbeddings: c.arch !== 'llama',
    experts: c.arch === 'llama' ? c.experts : 1,
    topK: 1,
    contextLength: 512,
    slidingWindow: null,
  }));

describe('weightFormatBytes properties', () => {
  test('sizes are safe non-negative integers and kept + quantized = countParams().total', () => {
    fc.assert(
      fc.property(shapeArbitrary, fc.constantFrom(...WEIGHT_FORMATS), (shape, format) => {
        const counts = weightFormatBytes(shape, format);
        for (const value of Object.values(counts)) expect(Number.isSafeInteger(value) && value >= 0).toBe(true);
        expect(counts.keptParams + counts.quantizedParams).toBe(countParams(shape).total);
      }),
    );
  });

  test('every format stores at least 0.5 bytes per quantized weight', () => {
    fc.assert(
      fc.property(shapeArbitrary, fc.constantFrom(...WEIGHT_FORMATS), (shape, format) => {
        for (const linear of quantizedLayers(shape, format)) {
          expect(linearWeightBytes(linear.inFeatures, linear.outFeatures, format).bytes).toBeGreaterThanOrEqual(
            (linear.inFeatures * linear.outFeatures) / 2,
          );
        }
      }),
    );
  });

  test('double quantization is smaller than single for every model large enough to amortize its 1 KiB code per tensor', () => {
    fc.assert(
      fc.property(
        shapeArbitrary.filter((shape) => shape.hidden >= 512),
        (shape) => {
          expect(weightFormatBytes(shape, 'nf4-dq').bytes).toBeLessThan(weightFormatBytes(shape, 'nf4').bytes);
        },
      ),
    );
  });

  test('bytes grow with the parameter count: one more layer never shrinks any format', () => {
    fc.assert(
      fc.property(shapeArbitrary, fc.constantFrom(...WEIGHT_FORMATS), (shape, format) => {
        const deeper = { ...shape, layers: shape.layers + 1 };
        expect(weightFormatBytes(deeper, format).bytes).toBeGreaterThan(weightFormatBytes(shape, format).bytes);
      }),
    );
  });

  test('layers × per-layer bytes + the kept parameters outside the layers = the whole model', () => {
    fc.assert(
      fc.property(shapeArbitrary, fc.constantFrom(...WEIGHT_FORMATS), (shape, format) => {
        const counts = countParams(shape);
        const outside = (counts.total - shape.layers * counts.perLayer) * (format === 'fp32' ? 4 : 2);
        expect(shape.layers * weightFormatBytesPerLayer(shape, format).bytes + outside).toBe(
          weightFormatBytes(shape, format).bytes,
        );
      }),
    );
  });

  test('linearLayers covers every weight matrix: Σ weights + biases ≤ total for every preset shape', () => {
    fc.assert(
      fc.property(shapeArbitrary, (shape) => {
        const linear = linearLayers(shape).filter((l) => !(l.role === 'head' && shape.tiedEmbeddings));
        const sum = linear.reduce((s, l) => s + (l.inFeatures * l.outFeatures + (l.bias ? l.outFeatures : 0)) * l.copies, 0);
        expect(sum).toBeLessThanOrEqual(countParams(shape).total);
      }),
    );
  });
});
