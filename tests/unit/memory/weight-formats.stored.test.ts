/**
 * Weights as the checkpoints ship them, read from their committed config.json files (`--weights stored`): gpt-oss's
 * MXFP4 experts with bf16 elsewhere, DeepSeek-V3's FP8 in 128 × 128 blocks with fp32 scales. Held to the published
 * tensor bytes where they are published, else to a tensor-by-tensor derivation from the checkpoint's documented layout.
 */
import { describe, expect, test } from 'vitest';
import { countParams, getModelPreset, type EstimateOptions } from '../../../src/memory/index.ts';
import { estimateMemory, readConfigJson } from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

const storedBytes = (model: string, weights: EstimateOptions['weights'] = 'stored') =>
  estimateOrThrow({ mode: 'infer', model, weights }).perGpu.weights;

describe('--weights stored reads the format from config.json', () => {
  test.each<[string, string]>([
    ['gpt-oss-120b', 'mxfp4'],
    ['deepseek-v3', 'fp8-block'],
    ['qwen3-8b', 'bf16'],
  ])('%s ships as %s', (model, format) => {
    expect(getModelPreset(model)?.config.storedWeights).toBe(format);
  });

  test('a preset whose config.json is not on file has no stored format: the weights field says so', () => {
    const outcome = estimateMemory({ mode: 'infer', model: 'llama-2-7b', weights: 'stored' } satisfies EstimateOptions);
    expect(!outcome.ok && outcome.errors.map((e) => e.field)).toEqual(['weights']);
  });
});

describe('gpt-oss: MXFP4 experts (4.25 bits per weight), bf16 elsewhere', () => {
  test('gpt-oss-120b: 65,248,815,744 bytes, the tensor bytes of openai/gpt-oss-120b (model.safetensors.index.json total_size)', () => {
    expect(storedBytes('gpt-oss-120b')).toBe(65_248_815_744);
  });

  test('gpt-oss-120b by hand: 36 layers × 128 experts × (2880 × 5760 + 5760 × 2880... as blocks) at 17/32 B, the rest at 2 B', () => {
    const expertWeights = 36 * 128 * (2880 * 2 * 2880 + 2880 * 2880);
    const total = countParams(getModelPreset('gpt-oss-120b')!.config).total;
    expect(storedBytes('gpt-oss-120b')).toBe((expertWeights * 17) / 32 + 2 * (total - expertWeights));
  });

  test('gpt-oss-20b (its vendored config.json omits quantization_config, so named): 13,761,264,768 bytes, the tensor bytes of openai/gpt-oss-20b (model.safetensors.index.json total_size)', () => {
    expect(storedBytes('gpt-oss-20b', 'mxfp4')).toBe(13_761_264_768);
  });

  test('gpt-oss-20b by hand: 24 layers × 32 experts of 2880 × 5760 and 2880 × 2880 at 17/32 B (the index’s *_blocks and *_scales), the rest at 2 B', () => {
    const expertWeights = 24 * 32 * (2880 * 2 * 2880 + 2880 * 2880);
    const total = countParams(getModelPreset('gpt-oss-20b')!.config).total;
    expect(storedBytes('gpt-oss-20b', 'mxfp4')).toBe((expertWeights * 17) / 32 + 2 * (total - expertWeights));
  });
});

describe('DeepSeek-V3: FP8 e4m3 in 128 × 128 blocks with fp32 weight_scale_inv (README_WEIGHTS.md)', () => {
  test('tensor by tensor: every Linear of the 61 layers in FP8, embeddings, head, norms and router gate bf16, router bias fp32', () => {
    const h = 7168;
    const fp8 = (out: number, inp: number) => out * inp + 4 * Math.ceil(out / 128) * Math.ceil(inp / 128);
    // q_a 7168→1536 (+ q_a_layernorm), q_b 1536→128·192, kv_a 7168→512+64 (+ kv_a_layernorm), kv_b 512→128·256, o 128·128→7168.
    const attention =
      fp8(1536, h) + 2 * 1536 + fp8(128 * 192, 1536) + fp8(576, h) + 2 * 512 + fp8(128 * 256, 512) + fp8(h, 128 * 128);
    const mlp = (f: number) => 2 * fp8(f, h) + fp8(h, f);
    const norms = 2 * 2 * h;
    const dense = attention + mlp(18432) + norms;
    // 256 experts and 1 shared expert of 2048; router gate 256 × 7168 in bf16, e_score_correction_bias 256 in fp32.
    const routed = attention + norms + 256 * mlp(2048) + mlp(2048) + 2 * 256 * h + 4 * 256;
    const outside = 2 * 2 * 129280 * h + 2 * h;
    expect(storedBytes('deepseek-v3')).toBe(3 * dense + 58 * routed + outside);
  });

  test('the weights are the 61 layers Transformers loads (671,026,419,200 parameters), not the stored multi-token-prediction layer', () => {
    const result = estimateOrThrow({ mode: 'infer', model: 'deepseek-v3', weights: 'stored' });
    expect(result.params).toBe(671_026_419_200);
  });
});

describe('stored formats refuse what they cannot describe, naming the field', () => {
  test('MXFP4 stores experts: a dense model is refused on --weights', () => {
    const outcome = estimateMemory({ mode: 'infer', model: 'llama-3.1-8b', weights: 'mxfp4' });
    expect(!outcome.ok && outcome.errors.map((e) => e.field)).toEqual(['weights']);
  });

  test('a quantization_config the engine does not count leaves the stored format unknown, with a warning', () => {
    const reading = readConfigJson({
      model_type: 'llama',
      hidden_size: 4096,
      num_hidden_layers: 32,
      num_attention_heads: 32,
      intermediate_size: 11008,
      vocab_size: 32000,
      torch_dtype: 'float16',
      quantization_config: { quant_method: 'gptq', bits: 4 },
    });
    expect(reading.ok && reading.config.storedWeights).toBeUndefined();
    expect(reading.ok && reading.warnings.join(' ')).toContain('quantization_config "gptq"');
  });
});

describe('a tied head: counted once as loaded, though a checkpoint may store it twice', () => {
  test('Qwen3-0.6B: the loaded bf16 weights plus a second 151,936 × 1024 head are its model.safetensors data, 1,503,264,768 bytes (311 tensors)', () => {
    const config = getModelPreset('qwen3-0.6b')!.config;
    expect(storedBytes('qwen3-0.6b') + 2 * config.vocab * config.hidden).toBe(1_503_264_768);
  });

  test('--weights stored on a tied model says the download can be larger', () => {
    const { warnings } = estimateOrThrow({ mode: 'infer', model: 'qwen3-0.6b', weights: 'stored' });
    expect(warnings.join(' ')).toContain('some checkpoints also store lm_head');
  });
});
