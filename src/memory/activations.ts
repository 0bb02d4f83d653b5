/**
 * Activation memory: what the backward pass keeps, per transformer layer and outside the layers.
 * Base formula: Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
 * Models" (arXiv 2205.05198) §4: sbh(34 + 5as/h) bytes per GPT layer with 16-bit activations and
 * 1-byte dropout masks. Generalised here term by term (bytes per element, GQA, SwiGLU, no dropout).
 */
import { ceilDiv } from './units.ts';

/** Activation recomputation (gradient checkpointing) policy. */
export type Recompute = 'none' | 'selective' | 'full';

/** Every recompute policy. */
export const RECOMPUTES: readonly Recompute[] = ['none', 'selective', 'full'];

/** Inputs of the per-layer activation formula. Sizes in elements, counts in units. */
export interface LayerActivationShape {
  /** Sequence length s, tokens. */
  seq: number;
  /** Micro-batch size b, sequences. */
  microBatch: number;
  /** Hidden size h. */
  hidden: number;
  /** Attention heads a. */
  heads: number;
  /** Key/value heads (GQA); K and V are kvHeads/heads the size of Q. */
  kvHeads: number;
  /** MLP inner width f. */
  ffn: number;
  /** MLP kind: GELU keeps 2 f-wide tensors, SwiGLU keeps 4. */
  mlp: 'gelu' | 'swiglu';
  /** Experts each token visits (MoE top-k); 1 for dense. */
  topK: number;
  /** Whether dropout layers (and their 1-byte masks) are active. */
  dropout: boolean;
  /** Whether attention is FlashAttention (no s×s tensors are stored). */
  flashAttention: boolean;
  /** Bytes per stored activation element (2 for 16-bit, 4 for fp32). */
  bytesPerElement: number;
  /** Tensor-parallel degree t. */
  tp: number;
  /** Whether sequence parallelism shards the non-tensor-parallel regions by t. */
  sp: boolean;
}

/** Bytes one transformer layer stores for backward, per GPU, for one micro-batch. */
export interface LayerActivationBytes {
  /** Outside the tensor-parallel regions: norm inputs, QKV and fc1 inputs, dropout masks (Korthikanti's "10sbh"). */
  replicated: number;
  /** Inside the tensor-parallel regions, excluding the s×s attention core (Korthikanti's "24sbh/t"). */
  tensorParallel: number;
  /** The s×s attention core: softmax output, dropout mask and output (Korthikanti's "5as²b/t"). */
  attentionCore: number;
  /** Everything the layer stores without recompute: replicated + tensorParallel + attentionCore. */
  full: number;
  /** The layer input, the only tensor kept under full recompute (Korthikanti's "2sbh"). */
  input: number;
}

/**
 * Activation bytes of one transformer layer (Korthikanti et al. 2022, arXiv 2205.05198, §4.1 and Table 2):
 * attention 11sbh + 5as²b, MLP 19sbh, norms 4sbh for GPT with 16-bit activations; tensor parallel
 * sbh(10 + 24/t + 5as/(ht)); with sequence parallel sbh(34/t + 5as/(ht)).
 */
export function layerActivationBytes(shape: LayerActivationShape): LayerActivationBytes {
  const { seq: s, microBatch: b, hidden: h, heads: a, ffn: f, bytesPerElement: e, tp: t } = shape;
  const sbh = s * b * h;
  const kvShare = shape.kvHeads / shape.heads;
  const mask = shape.dropout ? 1 : 0;
  // Two norm inputs, the QKV-projection input and the fc1 input (e each), two dropout masks (1 byte each).
  const replicatedRaw = sbh * (4 * e + 2 * mask);
  // Q, K, V for QKᵀ and AV, the output-projection input; MLP: GELU input + output, or SwiGLU gate, silu(gate), up, product.
  const mlpTensors = shape.mlp === 'swiglu' ? 4 : 2;
  const tensorParallelRaw = e * sbh * (1 + 2 * kvShare + 1) + shape.topK * mlpTensors * e * s * b * f;
  // Softmax output (e), and with dropout its 1-byte mask and e-byte output; FlashAttention stores none of them.
  const coreRaw = shape.flashAttention ? 0 : a * s * s * b * (e + mask * (1 + e));
  const replicated = shape.sp ? ceilDiv(replicatedRaw, t) : replicatedRaw;
  const tensorParallel = ceilDiv(tensorParallelRaw, t);
  const attentionCore = ceilDiv(coreRaw, t);
  const input = shape.sp ? ceilDiv(e * sbh, t) : e * sbh;
  return { replicated, tensorParallel, attentionCore, full: replicated + tensorParallel + attentionCore, input };
}

/** How a recompute policy splits a stage's activations into kept tensors and a transient working set. */
export interface RecomputePlan {
  /** Bytes kept per layer for one micro-batch (reported as `activationsPerLayer`). */
  keptPerLayer: number;
  /** Bytes kept for all layers of the stage, one micro-batch. */
  keptForLayers: number;
  /** Transient bytes while one layer or checkpoint segment is recomputed in backward. */
  workingSet: number;
  /** Checkpoint segment length k actually used (full recompute), else 0. */
  segment: number;
}

/**
 * Apply a recompute policy to `layers` layers with per-layer bytes `layer`.
 * none: every layer keeps `full`. selective: drop the attention core, recompute it for one layer at a time
 * (Korthikanti §5). full with segments of k layers: keep ceil(L/k) segment inputs and, during backward,
 * one segment's full activations (Chen et al. 2016, arXiv 1604.06174, O(L/k + k)). `sharedInput` is
 * subtracted once because the recomputed segment's first input is the kept checkpoint itself.
 */
export function planRecompute(
  layer: LayerActivationBytes,
  layers: number,
  recompute: Recompute,
  segment: number,
  sharedInput: number,
): RecomputePlan {
  if (layers === 0) return { keptPerLayer: 0, keptForLayers: 0, workingSet: 0, segment: 0 };
  if (recompute === 'none') return { keptPerLayer: layer.full, keptForLayers: layer.full * layers, workingSet: 0, segment: 0 };
  if (recompute === 'selective') {
    const kept = layer.full - layer.attentionCore;
    return { keptPerLayer: kept, keptForLayers: kept * layers, workingSet: layer.attentionCore, segment: 0 };
  }
  const k = Math.min(Math.max(1, segment), layers);
  const checkpoints = ceilDiv(layers, k);
  return {
    keptPerLayer: layer.input,
    keptForLayers: checkpoints * layer.input,
    workingSet: Math.max(0, k * layer.full - sharedInput),
    segment: k,
  };
}

/** Default checkpoint segment for the plain MLP: round(√L), the √n rule of Chen et al. 2016 (arXiv 1604.06174). */
export function defaultMlpSegment(layers: number): number {
  return Math.max(1, Math.round(Math.sqrt(layers)));
}

/**
 * Bytes one plain-MLP hidden block keeps: one micro-batch × h tensor (its input; ReLU's backward reuses
 * its output, the next block's input). Site demo convention; no sequence dimension.
 */
export function mlpLayerActivationBytes(microBatch: number, hidden: number, bytesPerElement: number): LayerActivationBytes {
  const tensor = microBatch * hidden * bytesPerElement;
  return { replicated: tensor, tensorParallel: 0, attentionCore: 0, full: tensor, input: tensor };
}

/** Inputs for the activations that live outside the layers. */
export interface OutsideActivationShape {
  /** Sequence length s (1 for mlp). */
  seq: number;
  /** Micro-batch size b. */
  microBatch: number;
  /** Hidden size h. */
  hidden: number;
  /** Vocabulary (or class count) V. */
  vocab: number;
  /** Bytes per stored activation element. */
  bytesPerElement: number;
  /** Whether dropout follows the embedding. */
  dropout: boolean;
  /** Whether an embedding LayerNorm follows the embedding sum (BERT). */
  embeddingNorm: boolean;
  /** Whether a final norm precedes the head. */
  finalNorm: boolean;
  /** Whether the model is a transformer (has embedding and head inputs to store). */
  transformer: boolean;
  /** Tensor-parallel degree t (the vocab-parallel logits are split by t). */
  tp: number;
  /** Whether sequence parallelism shards h-wide tensors by t. */
  sp: boolean;
}

/** Bytes outside the layers for one micro-batch: at the input (first stage) and at the output (last stage). */
export interface OutsideActivationBytes {
  /** Embedding dropout mask and embedding-norm input. */
  embedding: number;
  /** Final-norm input and head input (16-bit or fp32 per precision). */
  headInputs: number;
  /** Logits kept in fp32 for the cross-entropy loss: 4·s·b·V/t. */
  logits: number;
}

/**
 * Activations outside the transformer layers, after Korthikanti et al. 2022 §4.3 (embedding dropout
 * mask, final norm and output-layer inputs, fp32 logits for the loss, 4sbv/t).
 */
export function outsideActivationBytes(shape: OutsideActivationShape): OutsideActivationBytes {
  const { seq: s, microBatch: b, hidden: h, bytesPerElement: e, tp: t } = shape;
  const sbh = s * b * h;
  const hShard = (bytes: number) => (shape.sp ? ceilDiv(bytes, t) : bytes);
  const logits = ceilDiv(4 * s * b * shape.vocab, t);
  if (!shape.transformer) return { embedding: 0, headInputs: 0, logits };
  const embedding = hShard((shape.dropout ? sbh : 0) + (shape.embeddingNorm ? e * sbh : 0));
  const headInputs = hShard((shape.finalNorm ? e * sbh : 0) + e * sbh);
  return { embedding, headInputs, logits };
}
