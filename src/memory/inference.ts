/** Inference memory: weights in their storage format, the KV cache and the forward working set. */
import type { Attention } from './activations.ts';
import type { AttentionWidths, ModelConfig } from './model.ts';
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

/** Inputs of the KV-cache formula. */
export interface KvCacheShape {
  /** Layers on this GPU. */
  layers: number;
  /** Key/value heads of the model (GQA-aware). */
  kvHeads: number;
  /** Head dimension h/a, elements. */
  headDim: number;
  /** Bytes per cached element. */
  bytesPerElement: number;
  /** Sequences in the batch. */
  batch: number;
  /** Tokens cached per sequence (prompt + generated). */
  tokens: number;
  /** Sliding-window span, or null: a window caps the cached tokens (Mistral's rolling buffer cache, arXiv 2310.06825 §2). */
  slidingWindow: number | null;
  /** Tensor-parallel degree: KV heads are split across t GPUs (replicated when t > kvHeads). */
  tp: number;
}

/**
 * KV-cache bytes on one GPU: 2 · layers · kv_heads · head_dim · bytes · batch · tokens
 * (EleutherAI "Transformer Math 101": 2·n_layers·n_heads·d_head bytes-per-element per token; GQA uses kv heads).
 */
export function kvCacheBytes(shape: KvCacheShape): number {
  const tokens = shape.slidingWindow === null ? shape.tokens : Math.min(shape.tokens, shape.slidingWindow);
  const kvHeadsPerGpu = ceilDiv(shape.kvHeads, shape.tp);
  return 2 * shape.layers * kvHeadsPerGpu * shape.headDim * shape.bytesPerElement * shape.batch * tokens;
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
