/** Inference memory: quantised weights, the KV cache and the forward working set. */
import type { Attention } from './activations.ts';
import { ceilDiv } from './units.ts';

/** Weight storage type for inference (and for a frozen distillation teacher). */
export type WeightDtype = 'fp32' | 'fp16' | 'bf16' | 'int8' | 'int4';

/** Every weight dtype. */
export const WEIGHT_DTYPES: readonly WeightDtype[] = ['fp32', 'fp16', 'bf16', 'int8', 'int4'];

/** Bits per weight for each dtype. Quantisation scales and zero-points are not counted (see SOURCE_CHOICES). */
export const WEIGHT_BITS: Readonly<Record<WeightDtype, number>> = { fp32: 32, fp16: 16, bf16: 16, int8: 8, int4: 4 };

/** Bytes of `params` weights stored as `dtype`: ceil(params × bits / 8). */
export function weightBytes(params: number, dtype: WeightDtype): number {
  return ceilDiv(params * WEIGHT_BITS[dtype], 8);
}

/** Bytes per KV-cache element: fp32 stays fp32, everything else caches in 16-bit (int8/int4 quantise weights only). */
export function kvCacheBytesPerElement(dtype: WeightDtype): number {
  return dtype === 'fp32' ? 4 : 2;
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
  /** Key/value heads. */
  kvHeads: number;
  /** MLP inner width f (per expert). */
  ffn: number;
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
 * normed copy (2·e·sbh) plus the larger of attention (QKV, and the e·a·s²·b score matrix unless
 * FlashAttention) and MLP intermediates (GELU 2f, SwiGLU 3f), plus fp32 logits. This site's estimate.
 */
export function inferenceActivationBytes(shape: InferenceActivationShape): number {
  const { seq: s, batch: b, hidden: h, bytesPerElement: e, tp: t } = shape;
  const logits = ceilDiv(4 * b * shape.logitPositions * shape.vocab, t);
  if (!shape.transformer) return 2 * e * b * h + logits;
  const kvWidth = (shape.kvHeads / shape.heads) * h;
  const attention = ceilDiv(e * s * b * (h + 2 * kvWidth + h), t) + (shape.attention === 'sdpa' ? 0 : ceilDiv(e * shape.heads * s * s * b, t));
  const mlpTensors = shape.mlp === 'swiglu' ? 3 : 2;
  const mlp = ceilDiv(e * s * b * shape.ffn * mlpTensors, t);
  return 2 * e * s * b * h + Math.max(attention, mlp) + logits;
}
