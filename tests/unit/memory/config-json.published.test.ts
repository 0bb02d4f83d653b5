/**
 * Every architecture family read from a committed, real config.json (src/memory/model-configs/, SOURCES.md there) and
 * counted: the total must equal what was published for that checkpoint, to the parameter. A bf16 safetensors
 * `total_size` is 2 bytes per parameter, so params = total_size / 2.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { countParams } from '../../../src/memory/index.ts';
import { readConfigJson } from '../../../src/memory/config-json.ts';
import { linearLayers } from '../../../src/memory/linear-layers.ts';

function counted(file: string) {
  const reading = readConfigJson(readFileSync(new URL(`../../../src/memory/model-configs/${file}`, import.meta.url), 'utf8'));
  if (!reading.ok) throw new Error(reading.errors.map((e) => e.message).join('; '));
  return { counts: countParams(reading.config), warnings: reading.warnings, config: reading.config };
}

const BF16 = (totalSize: number) => totalSize / 2;

// [family, config file, published parameter count, source of the published count]
const PUBLISHED: [family: string, file: string, params: number, source: string][] = [
  [
    'Llama 3.1',
    'llama-3.1-8b.json',
    BF16(16_060_522_496),
    'meta-llama/Llama-3.1-8B model.safetensors.index.json total_size 16060522496',
  ],
  [
    'Llama 3.2 (tied)',
    'llama-3.2-3b.json',
    BF16(6_425_499_648),
    'meta-llama/Llama-3.2-3B model.safetensors.index.json total_size 6425499648',
  ],
  [
    'Llama 3.2 (tied, head_dim 64)',
    'llama-3.2-1b.json',
    1_235_814_400,
    'meta-llama/Llama-3.2-1B Hub API safetensors parameter count 1235814400',
  ],
  [
    'Qwen2.5 (q/k/v bias)',
    'qwen2.5-72b.json',
    BF16(145_412_407_296),
    'Qwen/Qwen2.5-72B-Instruct model.safetensors.index.json total_size 145412407296; a tensor audit of the checkpoint: 72,706,203,648 parameters',
  ],
  [
    'Qwen3 (tied embeddings)',
    'qwen3-0.6b.json',
    596_049_920,
    'Qwen/Qwen3-0.6B parameter count 596049920 (Hub safetensors; the checkpoint also stores the tied lm_head)',
  ],
  [
    'Mistral (head_dim ≠ hidden/heads)',
    'mistral-nemo.json',
    BF16(24_495_564_800),
    'mistralai/Mistral-Nemo-Base-2407 model.safetensors.index.json total_size 24495564800',
  ],
  [
    'Qwen2.5 (q/k/v bias)',
    'qwen2.5-7b.json',
    BF16(15_231_233_024),
    'Qwen/Qwen2.5-7B-Instruct model.safetensors.index.json total_size 15231233024',
  ],
  [
    'Qwen3 (head_dim, q/k norms)',
    'qwen3-8b.json',
    BF16(16_381_470_720),
    'Qwen/Qwen3-8B model.safetensors.index.json total_size 16381470720',
  ],
  [
    'Qwen3 (head_dim ≠ hidden/heads)',
    'qwen3-32b.json',
    BF16(65_524_246_528),
    'Qwen/Qwen3-32B model.safetensors.index.json total_size 65524246528',
  ],
  [
    'Qwen3-MoE (num_experts, moe_intermediate_size)',
    'qwen3-30b-a3b.json',
    BF16(61_064_245_248),
    'Qwen/Qwen3-30B-A3B model.safetensors.index.json total_size 61064245248',
  ],
  [
    'Gemma 2 (4 norms, missing tie key = tied)',
    'gemma-2-9b.json',
    BF16(18_483_411_968),
    'google/gemma-2-9b-it model.safetensors.index.json total_size 18483411968',
  ],
  [
    'Gemma 3 text (4 norms, q/k norms)',
    'gemma-3-1b.json',
    999_885_952,
    'google/gemma-3-1b-it Hub API safetensors total 999885952',
  ],
  [
    'Phi-4 (fused qkv_proj, gate_up_proj)',
    'phi-4.json',
    BF16(29_319_014_400),
    'microsoft/phi-4 model.safetensors.index.json total_size 29319014400',
  ],
  [
    'GLM-4 (num_layers, padded_vocab_size, kv_channels, add_qkv_bias)',
    'glm-4-9b.json',
    9_399_951_360,
    'a GLM-4 tool-calling demo printing "GLM-4, with 9399951360 (9.4B) parameters"; a fine-tuning log of THUDM/glm-4-9b-chat: 9399951360 trainable',
  ],
  [
    'gpt-oss (o bias, sinks, router and expert biases)',
    'gpt-oss-20b.json',
    20_914_757_184,
    'openai/gpt-oss-20b parameter count 20914757184 (Ollama general.parameter_count)',
  ],
  [
    'gpt-oss',
    'gpt-oss-120b.json',
    116_829_156_672,
    'openai/gpt-oss-120b parameter count 116829156672 (a table of Hub parameter counts)',
  ],
  [
    'DeepSeek-V2 (MLA, plain q_proj, shared experts)',
    'deepseek-v2-lite.json',
    BF16(31_412_968_448),
    'deepseek-ai/DeepSeek-V2-Lite model.safetensors.index.json total_size 31412968448',
  ],
  [
    'DeepSeek-V3 (MLA q_lora_rank, dense layers, correction bias)',
    'deepseek-v3.json',
    671_026_419_200,
    'deepseek-ai/DeepSeek-V3 README_WEIGHTS.md "Main Model Weights: 671B"; 671026419200 in third-party audits of the checkpoint tensors',
  ],
  [
    'Llama 3.1 70B',
    'llama-3.1-70b.json',
    BF16(141_107_412_992),
    'meta-llama/Llama-3.1-70B model.safetensors.index.json total_size 141107412992 (checkpoint records of revision 349b2dd)',
  ],
  [
    'Qwen3-MoE 235B-A22B (128 experts, head_dim 128 × 64 heads ≠ hidden 4096)',
    'qwen3-235b-a22b.json',
    BF16(470_187_269_120),
    'Qwen/Qwen3-235B-A22B model.safetensors.index.json metadata.total_size 470187269120 (tensor audits of the official index: 235,093,634,560 parameters)',
  ],
  [
    'Mixtral 8x22B',
    'mixtral-8x22b.json',
    BF16(281_241_268_224),
    'mistralai/Mixtral-8x22B-v0.1: 281241268224 tensor payload bytes over its 59 safetensors shards (a checkpoint page-map record)',
  ],
  [
    "Llama 3.1 405B (derived from Meta's arch_args)",
    'llama-3.1-405b.json',
    405_853_388_800,
    "meta-llama/Llama-3.1-405B Hub API safetensors.total 405853388800 at revision b906e4d (quoted with its revision by a training-compute study's data file)",
  ],
  [
    'Mistral Small 3 (derived from params.json; head_dim 128 ≠ 5120/32)',
    'mistral-small-24b.json',
    BF16(47_144_806_400),
    'mistralai/Mistral-Small-24B-Instruct-2501 model.safetensors.index.json total_size 47144806400 (vendored by OpenMOSE/RWKV-LM-RLHF @7e8f62a)',
  ],
  [
    'InternLM2.5 (remote code: fused wqkv, `bias`, untied output)',
    'internlm2.5-7b.json',
    7_737_708_544,
    'internlm/internlm2_5-7b-chat Hub safetensors parameter_count BF16 7737708544 (floschne/gimmick @81c06a5 get_model_sizes); foldl/chatllm.cpp docs/tool_calling.md: "with 7737708544 (7.7B) parameters"',
  ],
];

describe('countParams(readConfigJson(config.json)) = published', () => {
  test.each(PUBLISHED)('%s: %s counts %d (%s)', (_family, file, params) => {
    expect(counted(file).counts.total).toBe(params);
  });
});

describe('active parameters per token, apart from the total', () => {
  test('gpt-oss-20b: 3.61B active without the token embedding (OpenAI gpt-oss model card, Table 1: 3.61B active)', () => {
    const { counts } = counted('gpt-oss-20b.json');
    expect(Math.round((counts.active - counts.tokenEmbedding) / 1e7) / 100).toBe(3.61);
  });

  test('gpt-oss-120b: 5.13B active without the token embedding (OpenAI gpt-oss model card, Table 1: 5.13B active)', () => {
    const { counts } = counted('gpt-oss-120b.json');
    expect(Math.round((counts.active - counts.tokenEmbedding) / 1e7) / 100).toBe(5.13);
  });

  test('DeepSeek-V3: 36.6B active without the input embedding (README_WEIGHTS.md: "Activation parameters: 36.6B")', () => {
    const { counts } = counted('deepseek-v3.json');
    expect(Math.round((counts.active - counts.tokenEmbedding) / 1e8) / 10).toBe(36.6);
  });

  test('Qwen3-30B-A3B: 3.3B activated, the card cutting off further digits (Qwen3 model card: "Number of Activated Parameters: 3.3B")', () => {
    const { counts } = counted('qwen3-30b-a3b.json');
    expect(Math.floor(counts.active / 1e8) / 10).toBe(3.3);
  });
});

describe('what the reader says about a checkpoint', () => {
  test('DeepSeek-V3: the multi-token-prediction layer is stored but not counted, and said so', () => {
    expect(counted('deepseek-v3.json').warnings.join(' ')).toMatch(/multi-token-prediction/);
  });

  test.each<[string, string, number]>([
    ['Gemma 2 (Gemma2Config: every 2nd layer global)', 'gemma-2-9b.json', 2],
    ['Gemma 3 (sliding_window_pattern 6)', 'gemma-3-1b.json', 6],
    ['gpt-oss (layer_types alternate)', 'gpt-oss-120b.json', 2],
  ])('%s: the sliding window and its global layers are read, with no warning', (_family, file, every) => {
    const { config, warnings } = counted(file);
    expect(config.slidingWindow).not.toBeNull();
    expect(config.fullAttentionEvery).toBe(every);
    expect(warnings.join(' ')).not.toMatch(/sliding|window/);
  });

  test('Gemma 2: tie_word_embeddings is missing, so the head is the embedding (Gemma2Config default True)', () => {
    expect(counted('gemma-2-9b.json').counts.head).toBe(0);
  });
});

describe('InternLM2 fused wqkv (remote code modeling_internlm2.py, InternLM2Attention)', () => {
  const file = 'internlm2.5-7b.json';
  const json = JSON.parse(readFileSync(new URL(`../../../src/memory/model-configs/${file}`, import.meta.url), 'utf8')) as {
    hidden_size: number;
    num_attention_heads: number;
    num_key_value_heads: number;
    num_hidden_layers: number;
  };
  // The checkpoint's remote code (modeling_internlm2.py, as IntMeGroup/HarmonyIQA @79a7bf6 vendors it), InternLM2Attention:
  // head_dim = hidden_size // num_heads; wqkv = nn.Linear(hidden_size, (num_heads + 2 * num_key_value_heads) * head_dim,
  // bias=config.bias); wo = nn.Linear(num_heads * head_dim, hidden_size, bias=config.bias).
  const headDim = json.hidden_size / json.num_attention_heads;
  const wqkvRows = (json.num_attention_heads + 2 * json.num_key_value_heads) * headDim;

  test("internlm2.5-7b-chat: the q, k and v projections counted hold wqkv's (32 + 2 × 8) × 128 rows of hidden_size inputs", () => {
    const qkv = linearLayers(counted(file).config).filter((linear) =>
      linear.projections.some((projection) => projection === 'q' || projection === 'k' || projection === 'v'),
    );
    expect(qkv.map((linear) => linear.inFeatures)).toEqual(qkv.map(() => json.hidden_size));
    expect(qkv.reduce((rows, linear) => rows + linear.outFeatures, 0)).toBe(wqkvRows);
  });

  test('internlm2.5-7b-chat with `bias: true`: every layer gains the wqkv and wo bias vectors (bias=config.bias)', () => {
    const biased = readConfigJson({ ...json, bias: true });
    if (!biased.ok) throw new Error(biased.errors.map((e) => e.message).join('; '));
    const added = countParams(biased.config).total - counted(file).counts.total;
    expect(added).toBe(json.num_hidden_layers * (wqkvRows + json.hidden_size));
  });
});
