import { describe, expect, test } from 'vitest';
import { countParams, getModelPreset, MODEL_PRESETS } from '../../../src/memory/index.ts';
import { llamaDefaultFfn } from '../../../src/memory/model.ts';
import { mlpModelConfig } from '../support/mlp-model-config.ts';

// Published totals; the presets hold only the shape and the count is computed.
const PUBLISHED: [id: string, params: number, source: string][] = [
  ['gpt2', 124_439_808, 'HF openai-community/gpt2 model card / config.json'],
  ['gpt2-medium', 354_823_168, 'HF openai-community/gpt2-medium config.json'],
  ['gpt2-large', 774_030_080, 'HF openai-community/gpt2-large config.json'],
  ['gpt2-xl', 1_557_611_200, 'HF openai-community/gpt2-xl config.json'],
  ['bert-base-uncased', 109_482_240, 'HF google-bert/bert-base-uncased, BertModel with pooler'],
  ['llama-2-7b', 6_738_415_616, 'HF meta-llama/Llama-2-7b-hf config.json'],
  ['llama-2-13b', 13_015_864_320, 'HF meta-llama/Llama-2-13b-hf config.json'],
  ['llama-2-70b', 68_976_648_192, 'HF meta-llama/Llama-2-70b-hf config.json'],
  ['llama-3-8b', 8_030_261_248, 'HF meta-llama/Meta-Llama-3-8B config.json'],
  ['llama-3-70b', 70_553_706_496, 'HF meta-llama/Meta-Llama-3-70B config.json'],
  ['mistral-7b', 7_241_732_096, 'HF mistralai/Mistral-7B-v0.1 config.json'],
  ['mixtral-8x7b', 46_702_792_704, 'HF mistralai/Mixtral-8x7B-v0.1 config.json'],
];

describe('countParams(preset.config)', () => {
  test.each(PUBLISHED)('countParams(%s) = %d (%s)', (id, params) => {
    const preset = getModelPreset(id);
    expect(preset).toBeDefined();
    expect(countParams(preset!.config).total).toBe(params);
  });

  test('every preset has a lowercase-kebab id (dots as in the checkpoint, qwen2.5-7b) and a computed, safe-integer count', () => {
    for (const preset of MODEL_PRESETS) {
      expect(preset.id).toMatch(/^[a-z0-9]+([.-][a-z0-9]+)*$/);
      expect(Number.isSafeInteger(countParams(preset.config).total)).toBe(true);
    }
  });
});

describe('countParams(formula)', () => {
  test('GPT-2 layer is 12h² + 13h (LayerNorms, biases, 4h GELU MLP)', () => {
    const h = 768;
    expect(countParams(getModelPreset('gpt2')!.config).perLayer).toBe(12 * h * h + 13 * h);
  });

  test('Llama 2 7B layer is 4h² + 3hf + 2h (MHA, SwiGLU, RMSNorm, no biases)', () => {
    const h = 4096;
    const f = 11008;
    expect(countParams(getModelPreset('llama-2-7b')!.config).perLayer).toBe(4 * h * h + 3 * h * f + 2 * h);
  });

  test('GQA shrinks K and V: Llama 2 70B layer is 2h² + 2h·(8·128) + 3hf + 2h', () => {
    const h = 8192;
    expect(countParams(getModelPreset('llama-2-70b')!.config).perLayer).toBe(2 * h * h + 2 * h * 1024 + 3 * h * 28672 + 2 * h);
  });

  test('llamaDefaultFfn(4096) = 11008 (Meta llama model.py, multiple_of 256)', () => {
    expect(llamaDefaultFfn(4096)).toBe(11008);
    expect(llamaDefaultFfn(5120)).toBe(13824);
  });

  test('Mixtral active params ≈ 12.9B (arXiv 2401.04088: "13B active parameters")', () => {
    const counts = countParams(getModelPreset('mixtral-8x7b')!.config);
    expect(counts.active).toBe(12_879_925_248);
  });

  test('demo-mlp is L(h² + h) + hV + V = 528,906 (site demo convention)', () => {
    expect(countParams(getModelPreset('demo-mlp')!.config).total).toBe(8 * (256 * 256 + 256) + 256 * 10 + 10);
    expect(countParams(getModelPreset('demo-mlp')!.config).total).toBe(528_906);
  });

  test('demo-tiny-gpt is 120,576 (GPT-2 formula, tied embeddings, 64 positions)', () => {
    expect(countParams(getModelPreset('demo-tiny-gpt')!.config).total).toBe(
      256 * 64 + 64 * 64 + 2 * (12 * 64 * 64 + 13 * 64) + 2 * 64,
    );
    expect(countParams(getModelPreset('demo-tiny-gpt')!.config).total).toBe(120_576);
  });

  test('largestModule is the token embedding for GPT-2 (50257 × 768)', () => {
    expect(countParams(getModelPreset('gpt2')!.config).largestModule).toBe(50257 * 768);
  });
});

describe('countParams(mlp with inputs)', () => {
  test('an input layer of d features adds d·h + h, counted with the embeddings (the distillation teacher: 137,992)', () => {
    const shape = { hidden: 256, layers: 2, classes: 8 };
    expect(countParams(mlpModelConfig(shape)).total).toBe(2 * (256 * 256 + 256) + 256 * 8 + 8);
    const counts = countParams(mlpModelConfig({ ...shape, inputs: 16 }));
    expect(counts.embeddings).toBe(16 * 256 + 256);
    expect(counts.total).toBe(137_992);
  });
});
