/**
 * Reads a model's Hugging Face `config.json` into the engine's `ModelConfig`, defensively: JSON text (or an already
 * parsed object) in, a shape, warnings and `{ field, message }` errors out. No I/O and nothing executed: the caller reads
 * the file (the CLI, a page's paste or drop). Which keys each `model_type` uses, and what a missing key means, follow
 * that family's configuration and modeling classes in Hugging Face Transformers (cited per family below).
 */
import {
  CHECKPOINT_DTYPES,
  type AttentionBias,
  type CheckpointDtype,
  type MlaShape,
  type ModelConfig,
  type MoeShape,
} from './model.ts';
import type { FieldError } from './options.ts';
import { ruleError, type BrokenRule } from './rule-words.ts';
import { FP8_BLOCK, type WeightFormat } from './weight-formats.ts';
import { wordNotice, type Notice } from './warnings.ts';

/** The largest config.json read, in bytes: real ones are a few KB, so anything near 1 MB is not a model config. */
export const MAX_CONFIG_JSON_BYTES = 1_048_576;

/** The largest width, count or vocabulary accepted from a config.json: far above any real model, low enough that every product stays a safe integer. */
const MAX_DIMENSION = 10_000_000;

/**
 * Outcome of `readConfigJson`. `shapeJson` is the config.json cut down to the keys the shape was read from (nested under
 * `text_config` when it was read there, with the top `model_type`): reading it again gives the same shape, so a page can
 * carry a model in its URL in a few hundred bytes instead of the whole file.
 */
export type ConfigJsonReading =
  | { ok: true; config: ModelConfig; warnings: string[]; notices: Notice[]; shapeJson: Readonly<Record<string, unknown>> }
  | { ok: false; errors: FieldError[] };

/** What a `model_type` means beyond the generic keys: how Transformers builds that family's decoder. */
interface Family {
  /** `tie_word_embeddings` when the key is missing: each configuration class's default. */
  tiedByDefault: boolean;
  /** Which key switches the attention biases on, or `qkv-always` for Qwen2's fixed q/k/v bias. */
  bias: 'attention_bias' | 'qkv-always' | 'bias' | 'none';
  /** Per-head q/k RMSNorms in every layer. */
  qkNorm: boolean;
  /** Norms per layer. */
  normsPerLayer: number;
  /**
   * Without `layer_types`, which layers attend to every token when `sliding_window` is set: none (the window is on every
   * layer, Mistral v0.1), every n-th, or every `sliding_window_pattern`-th (Gemma 3).
   */
  fullAttentionEvery: number | 'sliding_window_pattern' | null;
}

const DECODER: Family = { tiedByDefault: false, bias: 'none', qkNorm: false, normsPerLayer: 2, fullAttentionEvery: null };

/** Gemma 3's `sliding_window_pattern` when the key is missing (Gemma3TextConfig: `kwargs.get("sliding_window_pattern", 6)`). */
const GEMMA3_WINDOW_PATTERN = 6;

/**
 * Families read by name. Sources (Transformers 4.57 `models/<type>/configuration_<type>.py` and `modeling_<type>.py`):
 * Llama/Mixtral/gpt-oss/Qwen3 `attention_bias` sets q, k, v and o biases; Qwen2 always biases q, k, v and never o;
 * InternLM2's `bias` sets wqkv and wo (remote code modeling_internlm2.py); Gemma's configurations default to tied
 * embeddings and Gemma 2/3 put four RMSNorms in each layer; Qwen3 and Gemma 3 add q_norm/k_norm of head_dim.
 * Default `layer_types` (Transformers 008e574 and 02b8f42, configuration_gemma2.py, configuration_gpt_oss.py
 * `__post_init__`: `"sliding_attention" if bool((i + 1) % 2) else "full_attention"`; configuration_gemma3.py the same
 * with `sliding_window_pattern`): every 2nd layer is global in Gemma 2 and gpt-oss, every 6th in Gemma 3.
 */
const FAMILIES: Readonly<Record<string, Family>> = {
  llama: { ...DECODER, bias: 'attention_bias' },
  mistral: DECODER,
  mixtral: DECODER,
  phi3: DECODER,
  internlm2: { ...DECODER, bias: 'bias' },
  qwen2: { ...DECODER, bias: 'qkv-always' },
  qwen2_moe: { ...DECODER, bias: 'qkv-always' },
  qwen3: { ...DECODER, bias: 'attention_bias', qkNorm: true },
  qwen3_moe: { ...DECODER, bias: 'attention_bias', qkNorm: true },
  gemma: { ...DECODER, tiedByDefault: true },
  gemma2: { ...DECODER, tiedByDefault: true, normsPerLayer: 4, fullAttentionEvery: 2 },
  gemma3_text: {
    ...DECODER,
    tiedByDefault: true,
    normsPerLayer: 4,
    qkNorm: true,
    fullAttentionEvery: 'sliding_window_pattern',
  },
  deepseek_v2: { ...DECODER, bias: 'attention_bias' },
  deepseek_v3: { ...DECODER, bias: 'attention_bias' },
  gpt_oss: { ...DECODER, bias: 'attention_bias', fullAttentionEvery: 2 },
  chatglm: DECODER,
};

/** Keys that describe the file or the runtime, never the shape: neither used nor worth listing as ignored. */
const METADATA_KEYS = new Set([
  'architectures',
  'model_type',
  'torch_dtype',
  'dtype',
  'transformers_version',
  '_name_or_path',
  'auto_map',
  'bos_token_id',
  'eos_token_id',
  'pad_token_id',
  'use_cache',
  // Read apart, by readStoredWeights: how the checkpoint stores its weights, not the shape.
  'quantization_config',
]);

type Json = Readonly<Record<string, unknown>>;

/** Reads keys of one config object, remembering which were read and which failed. */
class KeyReader {
  readonly used = new Set<string>();
  readonly errors: FieldError[] = [];

  constructor(
    private readonly json: Json,
    private readonly prefix: string,
  ) {}

  /** Whether `key` is present and not null. */
  has(key: string): boolean {
    return this.json[key] !== undefined && this.json[key] !== null;
  }

  /** A whole number from `min` to MAX_DIMENSION; `fallback` when absent; an error naming the key when required or bad. */
  count(key: string, fallback?: number, min = 1): number | undefined {
    this.used.add(key);
    const value = this.json[key];
    if (value === undefined || value === null) {
      if (fallback === undefined) this.fail(key, { code: 'missing' });
      return fallback;
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > MAX_DIMENSION) {
      this.fail(key, { code: 'outOfRange', params: { value: JSON.stringify(value), min, max: MAX_DIMENSION } });
      return undefined;
    }
    return value;
  }

  /** A boolean; `fallback` when absent. */
  flag(key: string, fallback: boolean): boolean {
    this.used.add(key);
    const value = this.json[key];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'boolean') {
      this.fail(key, { code: 'notTrueOrFalse', params: { value: JSON.stringify(value) } });
      return fallback;
    }
    return value;
  }

  /** A string, or undefined. */
  text(key: string): string | undefined {
    this.used.add(key);
    const value = this.json[key];
    return typeof value === 'string' ? value : undefined;
  }

  /** An array, or undefined. */
  list(key: string): readonly unknown[] | undefined {
    this.used.add(key);
    const value = this.json[key];
    return Array.isArray(value) ? value : undefined;
  }

  /** Record a broken rule on `key`: the key then its English sentence, and the rule as data (no bare message). */
  fail(key: string, rule: BrokenRule): void {
    this.errors.push(ruleError(`${this.prefix}${key}`, rule, `${this.prefix}${key} `));
  }

  /** Keys present in the file that were read, metadata aside. */
  read(): string[] {
    return [...this.used].filter((key) => this.json[key] !== undefined && !METADATA_KEYS.has(key));
  }

  /** Keys present in the file that were not read, metadata aside. */
  ignored(): string[] {
    return Object.keys(this.json).filter((key) => !this.used.has(key) && !METADATA_KEYS.has(key));
  }
}

/** UTF-8 length of `text`, counted without encoding it when it is clearly short. */
function utf8Bytes(text: string): number {
  if (text.length * 3 <= MAX_CONFIG_JSON_BYTES) return text.length;
  return new TextEncoder().encode(text).length;
}

/** Parse config.json text or take a parsed value; an object, or one error. */
function toObject(input: unknown): { json: Json } | { error: FieldError } {
  let value = input;
  if (typeof input === 'string') {
    const bytes = utf8Bytes(input);
    if (bytes > MAX_CONFIG_JSON_BYTES) return { error: ruleError('config', { code: 'fileTooLarge', params: { bytes } }) };
    try {
      value = JSON.parse(input);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { error: ruleError('config', { code: 'notJson', params: { reason } }) };
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { error: ruleError('config', { code: 'notAnObject' }) };
  return { json: value as Json };
}

/**
 * Read a Hugging Face config.json (text, or the parsed object) into a model shape whose `countParams` is what
 * Transformers loads. A multimodal config's `text_config` is read alone, with a warning; an unknown `model_type` is read
 * through the generic keys, with a warning naming the keys used and ignored.
 * @example readConfigJson('{"model_type":"qwen3","hidden_size":1024,…}')
 */
export function readConfigJson(input: unknown): ConfigJsonReading {
  const parsed = toObject(input);
  if ('error' in parsed) return { ok: false, errors: [parsed.error] };
  const top = parsed.json;
  const notices: Notice[] = [];
  const textConfig = top['text_config'];
  const nested =
    top['hidden_size'] === undefined && typeof textConfig === 'object' && textConfig !== null && !Array.isArray(textConfig);
  const json = nested ? (textConfig as Json) : top;
  const topType = typeof top['model_type'] === 'string' ? top['model_type'] : undefined;
  if (nested) notices.push({ code: 'textConfigOnly', params: { modelType: topType } });
  const read = new KeyReader(json, nested ? 'text_config.' : '');
  const modelType = read.text('model_type') ?? (nested && topType === 'gemma3' ? 'gemma3_text' : topType);
  const family = modelType === undefined ? undefined : FAMILIES[modelType];
  const config = family === undefined ? readGeneric(read) : readFamily(read, family, modelType ?? '', notices);
  if (read.errors.length > 0 || config === null) return { ok: false, errors: read.errors };
  if (family === undefined) {
    const ignored = read.ignored();
    notices.push({ code: 'unknownModelType', params: { modelType, read: read.read(), ignored } });
  }
  const storedDtype = readStoredDtype(json) ?? readStoredDtype(top);
  const storedWeights = readStoredWeights(top, json, storedDtype, notices);
  const described = {
    ...config,
    ...(storedDtype === undefined ? {} : { storedDtype }),
    ...(storedWeights === undefined ? {} : { storedWeights }),
  };
  // The stored format is read outside the KeyReader, so its keys join the shape's by name: a link rebuilt from the
  // shape then ships in the same format.
  const picked: Json = Object.fromEntries(
    [...read.used, ...STORED_FORMAT_KEYS].filter((key) => Object.hasOwn(json, key)).map((key) => [key, json[key]]),
  );
  const topStored = nested
    ? Object.fromEntries(STORED_FORMAT_KEYS.filter((key) => Object.hasOwn(top, key)).map((key) => [key, top[key]]))
    : {};
  const shapeJson = nested
    ? { ...(topType === undefined ? {} : { model_type: topType }), ...topStored, text_config: picked }
    : picked;
  return {
    ok: true,
    config: modelType === undefined ? described : { ...described, family: modelType },
    warnings: notices.map((notice) => wordNotice(notice)),
    notices,
    shapeJson,
  };
}

/** The keys `readStoredWeights` reads. */
const STORED_FORMAT_KEYS = ['quantization_config', 'torch_dtype', 'dtype'] as const;

/** Each checkpoint dtype and the weight format that stores it. */
const STORED_DTYPE_FORMATS: Readonly<Record<CheckpointDtype, WeightFormat>> = {
  float32: 'fp32',
  float16: 'fp16',
  bfloat16: 'bf16',
};

/**
 * The dtype the checkpoint is stored in: `dtype` (transformers v5 writes this name) or `torch_dtype` (v4), when it is
 * one of the dtypes a trainer loads; anything else (absent, "auto", a quantized layout) leaves it unknown.
 */
function readStoredDtype(json: Json): CheckpointDtype | undefined {
  const value = json['dtype'] ?? json['torch_dtype'];
  return CHECKPOINT_DTYPES.find((dtype) => dtype === value);
}

/**
 * The format the checkpoint ships in: `quantization_config` (top level, also for a multimodal file) when it names one
 * the engine counts (DeepSeek-V3's `fp8` with 128 × 128 `weight_block_size`, gpt-oss's `mxfp4`), else the dtype.
 * Another quantization method leaves it unknown, with a warning, rather than guessing.
 */
function readStoredWeights(
  top: Json,
  json: Json,
  storedDtype: CheckpointDtype | undefined,
  notices: Notice[],
): WeightFormat | undefined {
  const quantization = top['quantization_config'] ?? json['quantization_config'];
  if (typeof quantization === 'object' && quantization !== null && !Array.isArray(quantization)) {
    const q = quantization as Json;
    const block = q['weight_block_size'];
    if (q['quant_method'] === 'mxfp4') return 'mxfp4';
    if (q['quant_method'] === 'fp8' && Array.isArray(block) && block.length === 2 && block.every((n) => n === FP8_BLOCK))
      return 'fp8-block';
    notices.push({
      code: 'quantizationNotCounted',
      params: { method: JSON.stringify(q['quant_method'] ?? null), block: FP8_BLOCK },
    });
    return undefined;
  }
  return storedDtype === undefined ? undefined : STORED_DTYPE_FORMATS[storedDtype];
}

/** An unknown model_type: the keys every Llama-style config shares, with PretrainedConfig's tied-embedding default. */
function readGeneric(read: KeyReader): ModelConfig | null {
  const core = readCore(read, { tiedByDefault: true, heads: 'num_attention_heads', layers: 'num_hidden_layers' });
  return core === null ? null : { ...core, experts: 1, topK: 1, slidingWindow: null };
}

/** Shape keys every family shares (GLM's under its own names), checked against each other. */
function readCore(
  read: KeyReader,
  names: { tiedByDefault: boolean; heads: string; layers: string },
): Omit<ModelConfig, 'experts' | 'topK' | 'slidingWindow'> | null {
  const glm = names.layers === 'num_layers';
  const hidden = read.count('hidden_size');
  const layers = read.count(names.layers);
  const heads = read.count(names.heads);
  const kvHeads = glm ? read.count('multi_query_group_num', heads) : read.count('num_key_value_heads', heads);
  const ffn = read.count(glm ? 'ffn_hidden_size' : 'intermediate_size');
  // GLM pads its embedding and output rows to padded_vocab_size (THUDM glm-4-9b configuration_chatglm.py).
  const vocab = read.count(glm && read.has('padded_vocab_size') ? 'padded_vocab_size' : 'vocab_size');
  const explicitHeadDim = read.count(glm ? 'kv_channels' : 'head_dim', 0, 0);
  const context = read.count(glm ? 'seq_length' : 'max_position_embeddings', 2048);
  const tied = read.flag('tie_word_embeddings', names.tiedByDefault);
  if (hidden === undefined || layers === undefined || heads === undefined || kvHeads === undefined) return null;
  if (ffn === undefined || vocab === undefined || context === undefined) return null;
  if (kvHeads > heads || heads % kvHeads !== 0) {
    read.fail(glm ? 'multi_query_group_num' : 'num_key_value_heads', {
      code: 'configKvHeads',
      params: { kvHeads, headsKey: names.heads, heads },
    });
    return null;
  }
  const headDim = explicitHeadDim === undefined || explicitHeadDim === 0 ? undefined : explicitHeadDim;
  if (headDim === undefined && hidden % heads !== 0) {
    read.fail('hidden_size', { code: 'configHiddenByHeads', params: { hidden, headsKey: names.heads, heads } });
    return null;
  }
  return {
    arch: 'llama',
    hidden,
    layers,
    heads,
    kvHeads,
    ffn,
    vocab,
    positions: 0,
    tiedEmbeddings: tied,
    contextLength: context,
    ...(headDim === undefined || headDim === hidden / heads ? {} : { headDim }),
  };
}

/** A known family: the core keys plus its biases, norms, experts, latent attention and window. */
function readFamily(read: KeyReader, family: Family, modelType: string, notices: Notice[]): ModelConfig | null {
  const glm = modelType === 'chatglm';
  const core = readCore(read, {
    tiedByDefault: family.tiedByDefault,
    heads: 'num_attention_heads',
    layers: glm ? 'num_layers' : 'num_hidden_layers',
  });
  const attentionBias = readAttentionBias(read, family, glm);
  const mla = read.has('kv_lora_rank') ? readLatentAttention(read) : undefined;
  const experts = readExperts(read, modelType, notices);
  const window = readWindow(read, family, modelType, core?.layers ?? 0, notices);
  if (core === null || experts === null || mla === null || window === null) return null;
  if (modelType === 'deepseek_v3' && read.count('num_nextn_predict_layers', 0, 0) !== 0)
    notices.push({ code: 'nextnLayersSkipped' });
  return {
    ...core,
    experts: experts.experts,
    topK: experts.topK,
    ffn: experts.expertFfn ?? core.ffn,
    slidingWindow: window.slidingWindow,
    ...(window.fullAttentionEvery === undefined ? {} : { fullAttentionEvery: window.fullAttentionEvery }),
    ...(attentionBias.qkv || attentionBias.output ? { attentionBias } : {}),
    ...(family.qkNorm ? { qkNorm: true } : {}),
    ...(family.normsPerLayer === 2 ? {} : { normsPerLayer: family.normsPerLayer }),
    ...(modelType === 'gpt_oss' ? { attentionSinks: true } : {}),
    // The expanded cache keeps a query/key head of d_nope + d_rope per head (modeling_deepseek_v3.py), not hidden / heads.
    ...(mla === undefined ? {} : { mla, headDim: mla.qkNopeHeadDim + mla.qkRopeHeadDim }),
    ...(experts.moe === undefined ? {} : { moe: { ...experts.moe, denseFfn: core.ffn } }),
  };
}

/** Attention biases by the family's rule; GLM's `add_qkv_bias` and `add_bias_linear` (THUDM glm-4-9b modeling_chatglm.py). */
function readAttentionBias(read: KeyReader, family: Family, glm: boolean): AttentionBias {
  if (glm) return { qkv: read.flag('add_qkv_bias', false), output: read.flag('add_bias_linear', false) };
  if (family.bias === 'qkv-always') return { qkv: true, output: false };
  if (family.bias === 'none') return { qkv: false, output: false };
  const on = read.flag(family.bias, family.bias === 'bias');
  return { qkv: on, output: on };
}

/** DeepSeek's multi-head latent attention keys (configuration_deepseek_v3.py); null after an error. */
function readLatentAttention(read: KeyReader): MlaShape | null {
  const qLoraRank = read.has('q_lora_rank') ? read.count('q_lora_rank') : (read.used.add('q_lora_rank'), null);
  const kvLoraRank = read.count('kv_lora_rank');
  const qkNopeHeadDim = read.count('qk_nope_head_dim');
  const qkRopeHeadDim = read.count('qk_rope_head_dim');
  const vHeadDim = read.count('v_head_dim');
  if (qLoraRank === undefined || kvLoraRank === undefined || qkNopeHeadDim === undefined) return null;
  if (qkRopeHeadDim === undefined || vHeadDim === undefined) return null;
  return { qLoraRank, kvLoraRank, qkNopeHeadDim, qkRopeHeadDim, vHeadDim };
}

/** Experts per layer and per token, their width, and the rest of a mixture of experts; null after an error. */
interface ExpertKeys {
  experts: number;
  topK: number;
  expertFfn: number | undefined;
  moe: Omit<MoeShape, 'denseFfn'> | undefined;
}

/**
 * The expert count under its three names (`num_local_experts` Mixtral/gpt-oss, `num_experts` Qwen-MoE, `n_routed_experts`
 * DeepSeek), experts per token (`num_experts_per_tok`, gpt-oss's `experts_per_token`), the expert width
 * (`moe_intermediate_size`, else `intermediate_size`), shared experts, dense layers and router extras.
 */
function readExperts(read: KeyReader, modelType: string, notices: Notice[]): ExpertKeys | null {
  const key = ['num_local_experts', 'num_experts', 'n_routed_experts'].find((name) => read.has(name));
  if (key === undefined) return { experts: 1, topK: 1, expertFfn: undefined, moe: undefined };
  const experts = read.count(key);
  const topK = read.count(read.has('num_experts_per_tok') ? 'num_experts_per_tok' : 'experts_per_token');
  const expertFfn = read.has('moe_intermediate_size') ? read.count('moe_intermediate_size') : undefined;
  const layers = read.count(modelType === 'chatglm' ? 'num_layers' : 'num_hidden_layers') ?? 0;
  const sharedExperts = read.count('n_shared_experts', 0, 0) ?? 0;
  const qwenShared = read.count('shared_expert_intermediate_size', 0, 0) ?? 0;
  const denseLayers = countDenseLayers(read, layers);
  if (experts === undefined || topK === undefined || denseLayers === null) return null;
  if (topK > experts) {
    read.fail('num_experts_per_tok', { code: 'configTopK', params: { topK, experts, expertsKey: key } });
    return null;
  }
  if (experts === 1) return { experts: 1, topK: 1, expertFfn: undefined, moe: undefined };
  if (modelType === 'deepseek_v2' && read.text('topk_method') === 'noaux_tc') notices.push({ code: 'noauxOnDeepseekV2' });
  return {
    experts,
    topK,
    expertFfn,
    moe: {
      denseLayers,
      sharedFfn: sharedExperts * (expertFfn ?? 0) + qwenShared,
      sharedExpertGate: qwenShared > 0,
      routerBias: modelType === 'gpt_oss',
      correctionBias: read.text('topk_method') === 'noaux_tc',
      expertBias: modelType === 'gpt_oss',
    },
  };
}

/**
 * Layers with a dense MLP: DeepSeek's first `first_k_dense_replace` (then every `moe_layer_freq`-th is routed); Qwen-MoE's
 * `mlp_only_layers` and layers off its `decoder_sparse_step` (modeling_qwen3_moe.py Qwen3MoeDecoderLayer).
 */
function countDenseLayers(read: KeyReader, layers: number): number | null {
  const first = read.count('first_k_dense_replace', 0, 0) ?? 0;
  const frequency = read.count('moe_layer_freq', 1) ?? 1;
  const step = read.count('decoder_sparse_step', 1) ?? 1;
  const only = read.list('mlp_only_layers') ?? [];
  if (only.some((index) => typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= layers)) {
    read.fail('mlp_only_layers', { code: 'configLayerIndices', params: { layers } });
    return null;
  }
  let dense = 0;
  for (let i = 0; i < layers; i++) {
    const routed = i >= first && i % frequency === 0 && !only.includes(i) && (i + 1) % step === 0;
    if (!routed) dense++;
  }
  return dense;
}

/** Where a sliding window applies: its span (null: none) and which layers attend to every token instead. */
interface WindowLayout {
  slidingWindow: number | null;
  /** Every n-th layer is global (model.ts `fullAttentionEvery`); absent: the window is on every layer. */
  fullAttentionEvery?: number;
}

/**
 * The sliding window and its layers. `layer_types`, when present, says which layers slide (Transformers reads it first:
 * cache_utils.py DynamicCache); else the family's default above; Qwen2 slides only with `use_sliding_window`. Layers
 * laid out otherwise than "every n-th global" (or a type other than sliding or full attention) are counted in full,
 * an upper bound, with a warning. Null after an error.
 */
function readWindow(read: KeyReader, family: Family, modelType: string, layers: number, notices: Notice[]): WindowLayout | null {
  const window = read.has('sliding_window') ? read.count('sliding_window') : undefined;
  const types = read.list('layer_types');
  const pattern =
    family.fullAttentionEvery === 'sliding_window_pattern'
      ? read.count('sliding_window_pattern', GEMMA3_WINDOW_PATTERN)
      : undefined;
  if (read.has('sliding_window') && window === undefined) return null;
  if (window === undefined) return { slidingWindow: null };
  if (modelType.startsWith('qwen') && !read.flag('use_sliding_window', false)) return { slidingWindow: null };
  if (types !== undefined) return windowFromLayerTypes(read, types, window, layers, notices);
  const every = family.fullAttentionEvery === 'sliding_window_pattern' ? pattern : family.fullAttentionEvery;
  if (every === undefined) return null;
  return every === null || every > layers ? { slidingWindow: window } : { slidingWindow: window, fullAttentionEvery: every };
}

/** The layout `layer_types` lists: no window, a window on every layer, or every n-th layer global. */
function windowFromLayerTypes(
  read: KeyReader,
  types: readonly unknown[],
  window: number,
  layers: number,
  notices: Notice[],
): WindowLayout | null {
  if (types.length !== layers || types.some((type) => typeof type !== 'string')) {
    read.fail('layer_types', { code: 'configLayerTypes', params: { layers, entries: types.length } });
    return null;
  }
  const sliding = types.map((type) => type === 'sliding_attention');
  if (types.some((type) => type !== 'sliding_attention' && type !== 'full_attention')) {
    notices.push({ code: 'layerTypesOther' });
    return { slidingWindow: null };
  }
  if (sliding.every((s) => !s)) return { slidingWindow: null };
  if (sliding.every((s) => s)) return { slidingWindow: window };
  for (let every = 2; every <= layers; every++) {
    if (sliding.every((s, i) => s === ((i + 1) % every !== 0))) return { slidingWindow: window, fullAttentionEvery: every };
  }
  notices.push({ code: 'layerTypesIrregular', params: { window } });
  return { slidingWindow: null };
}
