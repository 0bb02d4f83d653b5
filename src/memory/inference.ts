/** Inference memory: weights in their storage format, the KV cache and the forward working set. */
import type { Attention } from './activations.ts';
import { headDim, type AttentionWidths, type ModelConfig } from './model.ts';
import { WEIGHT_FORMAT_SPECS, weightFormatBytes, type WeightFormat } from './weight-formats.ts';
import { ceilDiv } from './ceil-div.ts';

/** Bytes per KV-cache element: fp32 weights cache in fp32; every other format computes, and caches, in 16 bits. */
export function kvCacheBytesPerElement(format: WeightFormat): number {
  return format === 'fp32' ? 4 : 2;
}

/**
 * Weight bytes one GPU holds for `stageParams` of the model's parameters stored as `format`: the library's exact
 * count for the whole model (weight-formats.ts) in proportion to the GPU's share; for a bare parameter count (no shape
 * to find the Linear layers in) only float formats are allowed and each parameter takes its float size.
 */
export function stageWeightBytes(
  model: ModelConfig | null,
  totalParams: number,
  stageParams: number,
  format: WeightFormat,
  keptBytes?: number,
): number {
  if (model === null || totalParams === 0) return stageParams * WEIGHT_FORMAT_SPECS[format].keptBytes;
  const whole = weightFormatBytes(model, format, keptBytes === undefined ? {} : { keptBytes }).bytes;
  return stageParams === totalParams ? whole : Math.ceil((whole * stageParams) / totalParams);
}

/**
 * How a multi-head latent attention model (DeepSeek-V2/V3) caches keys and values. `latent`: the compressed
 * kv_lora_rank + qk_rope_head_dim per token per layer, shared by every head (DeepSeek-V2, arXiv 2405.04434 §2.1.3 and
 * Table 1: (d_c + d_h^R)·l elements per token), as vLLM (deepseek_v2.py: an MLA attention of head_size kv_lora_rank +
 * qk_rope_head_dim, its kv_a_proj_with_mqa replicated on every tensor-parallel rank) and SGLang store it. `expanded`:
 * every head's key (qk_nope_head_dim + qk_rope_head_dim) and value (v_head_dim), as Transformers' DynamicCache stores
 * what DeepseekV3Attention.forward passes to `past_key_values.update`. Other models cache keys and values either way.
 */
export type KvCacheLayout = 'latent' | 'expanded';

/** Every KV-cache layout. */
export const KV_CACHE_LAYOUTS: readonly KvCacheLayout[] = ['latent', 'expanded'];

/**
 * Elements one layer caches per token on one GPU. Keys and values: 2 · kv_heads · head_dim, the kv heads split across
 * t GPUs (replicated when t > kv heads). MLA: the latent, whole on every GPU, or the expanded heads split across t.
 */
export function kvCacheElementsPerToken(model: ModelConfig, layout: KvCacheLayout, tp: number): number {
  const mla = model.mla;
  if (mla === undefined) return 2 * ceilDiv(model.kvHeads, tp) * headDim(model);
  if (layout === 'latent') return mla.kvLoraRank + mla.qkRopeHeadDim;
  return ceilDiv(model.heads, tp) * (mla.qkNopeHeadDim + mla.qkRopeHeadDim + mla.vHeadDim);
}

/** Inputs of the KV-cache formula. */
export interface KvCacheShape {
  /** Elements one layer caches per token on this GPU (`kvCacheElementsPerToken`). */
  elementsPerToken: number;
  /** Layers on this GPU that cache every token. */
  fullLayers: number;
  /** Layers on this GPU that attend through the sliding window and cache at most `window` tokens. */
  windowLayers: number;
  /** Sliding-window span, tokens (read only when `windowLayers` > 0). */
  window: number;
  /** Bytes per cached element. */
  bytesPerElement: number;
  /** Sequences in the batch. */
  batch: number;
  /** Tokens cached per sequence (prompt + generated) by a full-attention layer. */
  tokens: number;
}

/**
 * KV-cache bytes on one GPU: per token per layer 2 · kv_heads · head_dim · bytes (EleutherAI "Transformer Math 101":
 * 2·n_layers·n_heads·d_head bytes-per-element per token; GQA uses kv heads), for every token in a full-attention layer
 * and for min(tokens, window) in a sliding-window layer. The window-sized cache is what current runtimes keep:
 * Transformers (67dd552) cache_utils.py DynamicCache gives each sliding layer of `layer_types` a
 * DynamicSlidingWindowLayer of [batch, kv_heads, min(seq_len, sliding_window), head_dim]; vLLM (002f349)
 * v1/core/single_type_kv_cache_manager.py SlidingWindowManager frees the blocks that fall out of the window; Mistral's
 * rolling buffer (arXiv 2310.06825 §2).
 */
export function kvCacheBytes(shape: KvCacheShape): number {
  const windowTokens = Math.min(shape.tokens, shape.window);
  const tokenLayers = shape.fullLayers * shape.tokens + (shape.windowLayers === 0 ? 0 : shape.windowLayers * windowTokens);
  return shape.elementsPerToken * shape.bytesPerElement * shape.batch * tokenLayers;
}

/** Inputs of the forward working-set estimate for inference (and for a frozen teacher). */
export interface InferenceActivationShape {
  /** Tokens processed at once per sequence (prefill chunk). */
  seq: number;
  /** Sequences in the batch. */
  batch: number;
  /** Hidden size h. */
  hidden: number;
  /** Attention heads a. */
  heads: number;
  /** What the attention projections produce per token (model.ts `attentionWidths`). */
  widths: AttentionWidths;
  /** Width of the widest single MLP (model.ts `widestMlp`): one MLP call's intermediates are what the layer holds at once. */
  mlpWidth: number;
  /** MLP kind. */
  mlp: 'gelu' | 'swiglu' | 'relu';
  /** Whether the model is a transformer. */
  transformer: boolean;
  /** Attention kernel: `eager` materialises the s×s scores, `sdpa` does not. */
  attention: Attention;
  /** Bytes per activation element. */
  bytesPerElement: number;
  /** Vocabulary size V. */
  vocab: number;
  /** Sequence positions whose fp32 logits are materialised (1 for generation, seq for a distillation teacher). */
  logitPositions: number;
  /** Tensor-parallel degree. */
  tp: number;
}

/**
 * Peak forward working set of one layer (nothing is kept for backward): the residual stream and the
 * normed copy (2·e·sbh) plus the larger of attention (Q, K, V and the attention output at their own widths, and the
 * e·a·s²·b score matrix unless FlashAttention) and MLP intermediates (GELU 2f, SwiGLU 3f), plus fp32 logits. This
 * site's estimate.
 */
export function inferenceActivationBytes(shape: InferenceActivationShape): number {
  const { seq: s, batch: b, hidden: h, bytesPerElement: e, tp: t } = shape;
  const logits = ceilDiv(4 * b * shape.logitPositions * shape.vocab, t);
  if (!shape.transformer) return 2 * e * b * h + logits;
  const w = shape.widths;
  const attention =
    ceilDiv(e * s * b * (w.query + w.key + w.value + w.output), t) +
    (shape.attention === 'sdpa' ? 0 : ceilDiv(e * shape.heads * s * s * b, t));
  const mlpTensors = shape.mlp === 'swiglu' ? 3 : 2;
  const mlp = ceilDiv(e * s * b * shape.mlpWidth * mlpTensors, t);
  return 2 * e * s * b * h + Math.max(attention, mlp) + logits;
}
