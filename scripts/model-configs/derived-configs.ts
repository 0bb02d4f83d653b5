/**
 * Hugging Face config.json files derived from a checkpoint's original parameters when no copy of the released
 * config.json could be sourced (src/memory/model-configs/SOURCES.md, "Derived configs"). The rules are transformers'
 * own conversion scripts, which produced the released files from the same parameters:
 * - Meta's Llama: `src/transformers/models/llama/convert_llama_weights_to_hf.py` (huggingface/transformers @01cc9cd, the
 *   version that added Llama 3.1 and its 405B: `NUM_SHARDS["405B"]`, `CONTEXT_LENGTH_FOR_VERSION["3.1"] = 131072`),
 *   `write_model` → `compute_intermediate_size` and the `LlamaConfig(...)` it saves;
 * - Mistral's `params.json`: `src/transformers/models/mistral/convert_mistral_weights_to_hf.py`
 *   (huggingface/transformers @15ea02a) `convert_config`.
 * Keys are written sorted, as `PretrainedConfig.save_pretrained` writes them.
 */
import llama31_405bArgs from '../../src/memory/model-configs/original/llama-3.1-405b.arch-args.json' with { type: 'json' };
import mistralSmall24bParams from '../../src/memory/model-configs/original/mistral-small-24b.params.json' with { type: 'json' };

/** Meta's `arch_args` of one Llama SKU (meta-llama/llama-models `models/sku_list.py`), the checkpoint's `params.json`. */
export interface MetaLlamaArchArgs {
  readonly dim: number;
  readonly n_layers: number;
  readonly n_heads: number;
  readonly n_kv_heads: number;
  readonly vocab_size: number;
  readonly ffn_dim_multiplier: number;
  readonly multiple_of: number;
  readonly norm_eps: number;
  readonly rope_theta: number;
  readonly use_scaled_rope: boolean;
}

/** A Mistral checkpoint's `params.json`, as Mistral ships it next to `consolidated.safetensors`. */
export interface MistralParams {
  readonly dim: number;
  readonly n_layers: number;
  readonly head_dim: number;
  readonly hidden_dim: number;
  readonly n_heads: number;
  readonly n_kv_heads: number;
  readonly norm_eps: number;
  readonly vocab_size: number;
  readonly rope_theta: number;
  readonly max_seq_len: number;
}

/** The dtype a checkpoint's weights are stored in, written as config.json's `torch_dtype`. */
export type StoredDtype = 'bfloat16' | 'float16';

/**
 * Llama's FFN width from Meta's parameters: `multiple_of * ((int(ffn_dim_multiplier * int(8 * n / 3)) + multiple_of - 1)
 * // multiple_of)` (convert_llama_weights_to_hf.py `compute_intermediate_size`). JavaScript's doubles multiply exactly as
 * Python's floats do, so the truncations agree.
 */
export function computeIntermediateSize(dim: number, ffnDimMultiplier: number, multipleOf: number): number {
  const scaled = Math.trunc(ffnDimMultiplier * Math.trunc((8 * dim) / 3));
  return multipleOf * Math.floor((scaled + multipleOf - 1) / multipleOf);
}

/**
 * Llama 3.1's rope scaling, written whenever Meta's `use_scaled_rope` is set: the block every released Llama 3.1
 * config.json carries (src/memory/model-configs/llama-3.1-8b.json, llama-3.1-70b.json) and the conversion script writes
 * for `llama_version` "3.1" in its later versions. No byte count depends on it.
 */
const LLAMA_31_ROPE_SCALING = {
  factor: 8.0,
  high_freq_factor: 4.0,
  low_freq_factor: 1.0,
  original_max_position_embeddings: 8192,
  rope_type: 'llama3',
} as const;

/** Llama 3's `<|begin_of_text|>` and a base model's `<|end_of_text|>` (the script's `bos_token_id`, `eos_token_id`). */
const LLAMA_3_BOS = 128000;
const LLAMA_3_BASE_EOS = 128001;
/** `CONTEXT_LENGTH_FOR_VERSION["3.1"]`: the script's `max_position_embeddings` for Llama 3.1. */
const LLAMA_31_CONTEXT = 131072;

/**
 * The config.json the conversion script writes for a Llama 3.1 base checkpoint: `LlamaConfig(hidden_size=dim,
 * intermediate_size=compute_intermediate_size(...), num_attention_heads=n_heads, num_hidden_layers=n_layers,
 * rms_norm_eps=norm_eps, num_key_value_heads=n_kv_heads, vocab_size, rope_theta, max_position_embeddings, bos, eos)`,
 * with LlamaConfig's untied embeddings, and the dtype the checkpoint stores (stated by its source, not by the script).
 */
export function llamaConfigFromMetaArchArgs(args: MetaLlamaArchArgs, storedDtype: StoredDtype): Record<string, unknown> {
  return {
    architectures: ['LlamaForCausalLM'],
    bos_token_id: LLAMA_3_BOS,
    eos_token_id: LLAMA_3_BASE_EOS,
    hidden_size: args.dim,
    intermediate_size: computeIntermediateSize(args.dim, args.ffn_dim_multiplier, args.multiple_of),
    max_position_embeddings: LLAMA_31_CONTEXT,
    model_type: 'llama',
    num_attention_heads: args.n_heads,
    num_hidden_layers: args.n_layers,
    num_key_value_heads: args.n_kv_heads,
    rms_norm_eps: args.norm_eps,
    ...(args.use_scaled_rope ? { rope_scaling: LLAMA_31_ROPE_SCALING } : {}),
    rope_theta: args.rope_theta,
    tie_word_embeddings: false,
    torch_dtype: storedDtype,
    vocab_size: args.vocab_size,
  };
}

/**
 * The config.json `convert_config` writes from a Mistral `params.json`: dim → hidden_size, n_layers → num_hidden_layers,
 * hidden_dim → intermediate_size, n_heads → num_attention_heads, norm_eps → rms_norm_eps; head_dim and vocab_size kept;
 * n_kv_heads → num_key_value_heads; `sliding_window` null when params.json has none; max_seq_len →
 * max_position_embeddings; MistralConfig's untied embeddings; and the dtype the checkpoint stores.
 */
export function mistralConfigFromParams(params: MistralParams, storedDtype: StoredDtype): Record<string, unknown> {
  return {
    architectures: ['MistralForCausalLM'],
    head_dim: params.head_dim,
    hidden_size: params.dim,
    intermediate_size: params.hidden_dim,
    max_position_embeddings: params.max_seq_len,
    model_type: 'mistral',
    num_attention_heads: params.n_heads,
    num_hidden_layers: params.n_layers,
    num_key_value_heads: params.n_kv_heads,
    rms_norm_eps: params.norm_eps,
    rope_theta: params.rope_theta,
    sliding_window: null,
    tie_word_embeddings: false,
    torch_dtype: storedDtype,
    vocab_size: params.vocab_size,
  };
}

/** One derived preset file: its name in src/memory/model-configs/, its original parameters' file and its derivation. */
export interface DerivedConfig {
  readonly file: string;
  readonly original: string;
  readonly derive: () => Record<string, unknown>;
}

/**
 * Every config.json derived rather than copied. Stored dtypes: Llama 3.1 405B is "BF16 weights" (llama-models
 * sku_list.py @364ed4e, its `description`); Mistral Small 3's index stores 2 bytes per parameter (total_size
 * 47,144,806,400 = 2 × 23,572,403,200) and its model card loads it with `torch_dtype=torch.bfloat16` (float16 would store
 * the same bytes, so no figure depends on which 16-bit type it is).
 */
export const DERIVED_CONFIGS: readonly DerivedConfig[] = [
  {
    file: 'llama-3.1-405b.json',
    original: 'original/llama-3.1-405b.arch-args.json',
    derive: () => llamaConfigFromMetaArchArgs(llama31_405bArgs, 'bfloat16'),
  },
  {
    file: 'mistral-small-24b.json',
    original: 'original/mistral-small-24b.params.json',
    derive: () => mistralConfigFromParams(mistralSmall24bParams, 'bfloat16'),
  },
];
