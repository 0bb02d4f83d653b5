/** Model architecture vocabulary: the four families and their fixed traits. */
import type { WeightFormat } from './weight-formats.ts';

/** Architecture family. */
export type Arch = 'gpt2' | 'llama' | 'bert' | 'mlp';

/** Every architecture family, in the order the UI lists them. */
export const ARCHS: readonly Arch[] = ['gpt2', 'llama', 'bert', 'mlp'];

/**
 * A model's shape. Everything the parameter count and activation formulas need;
 * presets hold these numbers and the count is computed from them.
 */
export interface ModelConfig {
  /** Architecture family. */
  arch: Arch;
  /** Hidden size h (model width); for `mlp` also the input width. */
  hidden: number;
  /** Number of transformer layers L (for `mlp`: hidden Linear+ReLU blocks). */
  layers: number;
  /** Attention heads a (ignored by `mlp`). */
  heads: number;
  /** Key/value heads for grouped-query attention; equals `heads` for multi-head attention. */
  kvHeads: number;
  /** MLP inner width f (per expert for mixture-of-experts; ignored by `mlp`). */
  ffn: number;
  /** Vocabulary size V (for `mlp`: number of classes). */
  vocab: number;
  /** Rows of the learned position table (gpt2, bert); 0 for rotary or none. */
  positions: number;
  /** `mlp` only: input features d of an input layer Linear(d→h) + ReLU before the L hidden blocks; absent when the input is h wide. */
  inputs?: number;
  /**
   * Whether the LM head shares the token-embedding matrix (transformers `tie_word_embeddings`): one tensor, counted
   * once, with one gradient.
   */
  tiedEmbeddings: boolean;
  /**
   * A classification head of this many labels in place of the LM head (transformers `*ForSequenceClassification`):
   * logits and loss over the labels, one row per sequence. Absent: the language-model head over the vocabulary.
   */
  numLabels?: number;
  /** Experts per MoE layer; 1 for a dense MLP. */
  experts: number;
  /** Experts each token is routed to; 1 for a dense MLP. */
  topK: number;
  /** Default sequence length for estimates (the model's training context), tokens. */
  contextLength: number;
  /** Sliding-window attention span in tokens, or null for full attention. */
  slidingWindow: number | null;
  /**
   * With a sliding window, every n-th layer (the n-th, 2n-th, … counted from 1) attends to every token instead: 2 for
   * Gemma 2 and gpt-oss, 6 for Gemma 3 (see config-json.ts `readWindow`). Absent: every layer uses the window.
   */
  fullAttentionEvery?: number;
  /**
   * Width of one attention head when the checkpoint sets it apart from hidden / heads (config.json `head_dim`, GLM's
   * `kv_channels`): Qwen3, Gemma 2/3, Mistral Nemo and gpt-oss project to heads × headDim, not to hidden. Absent: h / a.
   */
  headDim?: number;
  /** Which attention projections carry a bias, where the family's traits do not say (absent: `ARCH_TRAITS.biases` for all four). */
  attentionBias?: AttentionBias;
  /** Per-head RMSNorm over q and k in every layer, headDim weights each (Qwen3 `q_norm`/`k_norm`, Gemma 3). */
  qkNorm?: boolean;
  /** Norms in each layer; absent: 2 (before attention, before the MLP). Gemma 2/3 have 4 (pre and post of each). */
  normsPerLayer?: number;
  /** Learned attention-sink logits, one per head per layer (gpt-oss `self_attn.sinks`). */
  attentionSinks?: boolean;
  /** Multi-head latent attention (DeepSeek-V2/V3) in place of q, k, v projections. */
  mla?: MlaShape;
  /** Mixture-of-experts details beyond `experts` and `topK`; absent: every layer routes, no shared expert, bias-free router. */
  moe?: MoeShape;
  /**
   * The format the checkpoint's weights ship in, from config.json's `quantization_config` (DeepSeek-V3 `fp8-block`,
   * gpt-oss `mxfp4`) or else its `torch_dtype`; what `--weights stored` counts. Absent when the file does not say.
   */
  storedWeights?: WeightFormat;
  /** The checkpoint's `model_type` when the shape was read from a config.json, for display (e.g. `qwen3`). */
  family?: string;
  /**
   * The dtype the checkpoint's weights are stored in (config.json `dtype`, `torch_dtype` before transformers v5), which
   * a stack that loads weights "as stored" trains in (stacks.ts). Absent: unknown, read as float32.
   */
  storedDtype?: CheckpointDtype;
}

/** A dtype a checkpoint's weights are stored in, by its config.json name. */
export type CheckpointDtype = 'float32' | 'float16' | 'bfloat16';

/** Every checkpoint dtype. */
export const CHECKPOINT_DTYPES: readonly CheckpointDtype[] = ['float32', 'float16', 'bfloat16'];

/** Biases of the attention projections. */
export interface AttentionBias {
  /** q, k and v projections (Qwen2/2.5 always; GLM-4 `add_qkv_bias`; Llama/gpt-oss `attention_bias`). */
  qkv: boolean;
  /** Output projection (Llama/gpt-oss `attention_bias`; not Qwen2). */
  output: boolean;
}

/**
 * Multi-head latent attention, DeepSeek-V2 (arXiv 2405.04434 §2.1) as Transformers builds it (modeling_deepseek_v3.py
 * `DeepseekV3Attention`): queries through a rank-`qLoraRank` bottleneck (or one q_proj when null), keys and values from a
 * shared `kvLoraRank` latent plus `qkRopeHeadDim` rotary dims.
 */
export interface MlaShape {
  /** Query bottleneck rank (`q_lora_rank`), or null for a plain q_proj (DeepSeek-V2-Lite). */
  qLoraRank: number | null;
  /** Key/value latent rank (`kv_lora_rank`). */
  kvLoraRank: number;
  /** Per-head query/key dims without rotary embedding (`qk_nope_head_dim`). */
  qkNopeHeadDim: number;
  /** Per-head query/key dims with rotary embedding (`qk_rope_head_dim`), shared by all heads for keys. */
  qkRopeHeadDim: number;
  /** Per-head value dims (`v_head_dim`). */
  vHeadDim: number;
}

/** Mixture-of-experts details: dense layers, shared experts, router and expert biases. */
export interface MoeShape {
  /** Layers whose MLP is dense instead of routed (DeepSeek `first_k_dense_replace`, Qwen-MoE `mlp_only_layers`). */
  denseLayers: number;
  /** Width of those dense MLPs (config.json `intermediate_size`). */
  denseFfn: number;
  /** Width of the always-on shared expert MLP, 0 for none (DeepSeek n_shared_experts × moe_intermediate_size; Qwen2-MoE `shared_expert_intermediate_size`). */
  sharedFfn: number;
  /** Whether a Linear(h → 1) gates the shared expert (Qwen2-MoE `shared_expert_gate`). */
  sharedExpertGate: boolean;
  /** Whether the router has a bias (gpt-oss). */
  routerBias: boolean;
  /** Whether the router keeps a per-expert score-correction bias (DeepSeek-V3 `e_score_correction_bias`, topk_method noaux_tc). */
  correctionBias: boolean;
  /** Whether expert projections carry biases (gpt-oss `gate_up_proj_bias`, `down_proj_bias`). */
  expertBias: boolean;
}

/** Fixed traits of an architecture family. */
export interface ArchTraits {
  /** Normalisation layer. */
  norm: 'layernorm' | 'rmsnorm' | 'none';
  /** MLP kind: GELU (2 matrices), SwiGLU (3 matrices), or ReLU (the plain `mlp`). */
  mlp: 'gelu' | 'swiglu' | 'relu';
  /** Whether linear layers carry biases. */
  biases: boolean;
  /** Whether dropout is on by default during training. */
  dropout: boolean;
  /** Whether the model has a final norm before the head. */
  finalNorm: boolean;
  /** Whether the model is a transformer (has attention, sequence, heads). */
  transformer: boolean;
}

/** Traits per family; sources: GPT-2 (Radford et al. 2019), Llama 2 (arXiv 2307.09288), BERT (arXiv 1810.04805). */
export const ARCH_TRAITS: Readonly<Record<Arch, ArchTraits>> = {
  gpt2: { norm: 'layernorm', mlp: 'gelu', biases: true, dropout: true, finalNorm: true, transformer: true },
  llama: { norm: 'rmsnorm', mlp: 'swiglu', biases: false, dropout: false, finalNorm: true, transformer: true },
  bert: { norm: 'layernorm', mlp: 'gelu', biases: true, dropout: true, finalNorm: false, transformer: true },
  mlp: { norm: 'none', mlp: 'relu', biases: true, dropout: false, finalNorm: false, transformer: false },
};

/** Output features of the model's head: the labels of a classification head, else the vocabulary (mlp: classes). */
export function headWidth(model: ModelConfig): number {
  return model.numLabels ?? model.vocab;
}

/**
 * Parameters of a classification head of `model.numLabels` labels. Decoders (transformers main 00029cf
 * modeling_layers.py `GenericForSequenceClassification`, GPT2ForSequenceClassification): `score = nn.Linear(hidden,
 * num_labels, bias=False)`. BERT (modeling_bert.py `BertForSequenceClassification`): `classifier =
 * nn.Linear(hidden, num_labels)` with its bias, over the pooled first token. 0 without one.
 */
export function classifierParams(model: ModelConfig): number {
  const labels = model.numLabels;
  if (labels === undefined) return 0;
  return model.hidden * labels + (model.arch === 'bert' ? labels : 0);
}

/** Head dimension: the explicit `headDim`, else h / a, in elements. */
export function headDim(model: ModelConfig): number {
  return model.headDim ?? model.hidden / model.heads;
}

/** Width of the query projection's output (and the output projection's input), heads × headDim, in elements. */
export function queryWidth(model: ModelConfig): number {
  return model.heads * headDim(model);
}

/** Width of the key (or value) projection, kvHeads × headDim, in elements. */
export function kvWidth(model: ModelConfig): number {
  return model.kvHeads * headDim(model);
}

/** Widths of what one attention layer computes per token, in elements: what its activations and KV cache are made of. */
export interface AttentionWidths {
  /** Queries: heads × headDim; MLA heads × (qk_nope_head_dim + qk_rope_head_dim). */
  query: number;
  /** Keys as projected: kvHeads × headDim; MLA heads × (qk_nope_head_dim + qk_rope_head_dim), expanded from the latent. */
  key: number;
  /** Values as projected: kvHeads × headDim; MLA heads × v_head_dim. */
  value: number;
  /** The attention output, which the output projection reads: heads × the value head's width. */
  output: number;
  /** MLA's compressed latents, each normed and then projected up: [q_lora_rank, kv_lora_rank] (no q latent when q_lora_rank is null); none without MLA. */
  latents: readonly number[];
}

/**
 * Attention widths per token. Grouped-query attention projects k and v to kvHeads × headDim (HF LlamaAttention); MLA
 * (HF modeling_deepseek_v3.py DeepseekV3Attention.forward) builds per-head keys of qk_nope_head_dim + qk_rope_head_dim
 * and values of v_head_dim for every head from its latents.
 */
export function attentionWidths(model: ModelConfig): AttentionWidths {
  const mla = model.mla;
  if (mla !== undefined) {
    const qk = model.heads * (mla.qkNopeHeadDim + mla.qkRopeHeadDim);
    const value = model.heads * mla.vHeadDim;
    const latents = mla.qLoraRank === null ? [mla.kvLoraRank] : [mla.qLoraRank, mla.kvLoraRank];
    return { query: qk, key: qk, value, output: value, latents };
  }
  return { query: queryWidth(model), key: kvWidth(model), value: kvWidth(model), output: queryWidth(model), latents: [] };
}

/**
 * MLP width one token passes through in a routed layer: top-k experts of width f plus the shared expert
 * (DeepSeek n_shared_experts × moe_intermediate_size, Qwen2-MoE shared_expert_intermediate_size); f for a dense model.
 */
export function routedMlpWidth(model: ModelConfig): number {
  return model.topK * model.ffn + (model.moe?.sharedFfn ?? 0);
}

/** Layers of a mixture-of-experts model whose MLP is dense (DeepSeek `first_k_dense_replace`), 0 for every other model. */
export function denseMlpLayers(model: ModelConfig): number {
  return model.experts > 1 ? (model.moe?.denseLayers ?? 0) : 0;
}

/** The widest single MLP of the model (a dense layer's, an expert's or the shared expert's), in elements: what one MLP call holds at once. */
export function widestMlp(model: ModelConfig): number {
  const dense = denseMlpLayers(model) > 0 ? (model.moe?.denseFfn ?? 0) : 0;
  return Math.max(model.ffn, dense, model.moe?.sharedFfn ?? 0);
}

/**
 * How many of layers [first, first + count) attend through the sliding window, the rest attending to every token: all of
 * them with a window on every layer, none without a window, else those whose 1-based index is not a multiple of
 * `fullAttentionEvery`.
 */
export function slidingLayersIn(model: ModelConfig, first: number, count: number): number {
  if (model.slidingWindow === null) return 0;
  const every = model.fullAttentionEvery;
  if (every === undefined) return count;
  const fullUpTo = (end: number) => Math.floor(end / every);
  return count - (fullUpTo(first + count) - fullUpTo(first));
}

/**
 * Llama's default MLP width: 2/3 · 4h rounded up to a multiple of 256
 * (Meta llama `model.py` FeedForward: `multiple_of * ceil(int(2*4h/3) / multiple_of)`).
 */
export function llamaDefaultFfn(hidden: number, multipleOf = 256): number {
  const raw = Math.floor((2 * 4 * hidden) / 3);
  return multipleOf * Math.ceil(raw / multipleOf);
}
