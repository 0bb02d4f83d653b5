/**
 * Activation memory: what the backward pass keeps, per transformer layer and outside the layers.
 * Base formula: Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
 * Models" (arXiv 2205.05198) §4: sbh(34 + 5as/h) bytes per GPT layer with 16-bit activations and
 * 1-byte dropout masks. Generalised here term by term (bytes per element, GQA, SwiGLU, no dropout).
 */
import { ceilDiv } from './ceil-div.ts';
import type { AttentionWidths } from './model.ts';

/**
 * Activation recomputation (gradient checkpointing) policy. `selective`: Megatron-LM's, the attention core only
 * (Korthikanti et al. 2022 §5). `op`: torchtitan's op-level selective checkpointing (`selective_ac_option = "op"`),
 * each block checkpointed with a policy that saves every other matmul output, the SDPA outputs and the block input
 * (`_apply_ac_to_transformer_block`, torchtitan/parallelisms/parallelize_llama.py at commit 9dec370, 2024-12-26: the
 * version of its published Llama 3.1 benchmarks). `full`: checkpoint segments of layers, their inputs kept.
 */
export type Recompute = 'none' | 'selective' | 'op' | 'full';

/** Every recompute policy. */
export const RECOMPUTES: readonly Recompute[] = ['none', 'selective', 'op', 'full'];

/**
 * Attention kernel. `sdpa`: `torch.nn.functional.scaled_dot_product_attention` with the FlashAttention or
 * memory-efficient backend, the default of PyTorch 2.x and of Hugging Face Transformers (`attn_implementation="sdpa"`),
 * which keeps no s×s tensor. `eager`: scores materialised and kept for backward.
 */
export type Attention = 'sdpa' | 'eager';

/** Every attention kernel. */
export const ATTENTIONS: readonly Attention[] = ['sdpa', 'eager'];

/**
 * Whose code computes the layers. `eager`: plain PyTorch modules as Hugging Face Transformers writes them (Python
 * tanh-GELU for GPT-2, RMSNorm with an fp32 upcast, autocast casting each Linear's input on its own). `fused`:
 * Megatron-LM's fused kernels, the accounting of Korthikanti et al. 2022. `llm-foundry`: MosaicML llm-foundry's MPT
 * blocks (exact GELU, low-precision LayerNorm, flash attention), Korthikanti's term set but for one tensor its flash
 * path adds (fusedLayerTerms).
 */
export type Kernels = 'eager' | 'fused' | 'llm-foundry';

/** Every kernel family. */
export const KERNELS: readonly Kernels[] = ['eager', 'fused', 'llm-foundry'];

/** Inputs of the per-layer activation formula. Sizes in elements, counts in units. */
export interface LayerActivationShape {
  /** Sequence length s, tokens. */
  seq: number;
  /** Micro-batch size b, sequences. */
  microBatch: number;
  /** Hidden size h. */
  hidden: number;
  /** Attention heads a (query heads: the score matrices and the kernel statistics are per query head). */
  heads: number;
  /** What the attention projections produce per token (model.ts `attentionWidths`): GQA's narrower k and v, an explicit head_dim, MLA. */
  widths: AttentionWidths;
  /** MLP width a token passes through (model.ts `routedMlpWidth`): f for a dense layer, top-k × expert width + shared expert for a routed one. */
  mlpWidth: number;
  /** MLP kind: GELU keeps 2 f-wide tensors (fused), SwiGLU keeps 4. */
  mlp: 'gelu' | 'swiglu';
  /** Norm kind (eager kernels only: RMSNorm as Hugging Face writes it keeps an fp32 copy of its input). */
  norm: 'layernorm' | 'rmsnorm';
  /** Eager GELU is GPT-2's Python `gelu_new` (keeps four f-wide intermediates) rather than `F.gelu`. */
  pythonGelu: boolean;
  /** Learned attention sinks (gpt-oss): eager attention appends one sink logit per row and head to the scores. */
  sinks: boolean;
  /** Whether dropout layers (and their 1-byte masks) are active. */
  dropout: boolean;
  /** Attention kernel. */
  attention: Attention;
  /** Kernel family. */
  kernels: Kernels;
  /** Bytes per element of the layers' compute dtype e (2 for 16-bit, 4 for fp32). */
  bytesPerElement: number;
  /** Bytes per element of the residual stream r: 4 under autocast (fp32 weights make an fp32 stream), else e. */
  residualBytes: number;
  /** Tensor-parallel degree t. */
  tp: number;
  /** Whether sequence parallelism shards the non-tensor-parallel regions by t. */
  sp: boolean;
  /**
   * Whether the layer's weights are frozen (LoRA, QLoRA): autograd keeps an op's input only for the gradients it
   * must compute (torch's generated `VariableType` saves `self` for `mm`'s weight gradient only when
   * `grad_fn->should_compute_output(1)`), so no Linear keeps its input for a weight gradient and no norm keeps its
   * normalised output for its weight's. What the adapters keep is counted apart (lora-activations.ts).
   */
  frozenWeights: boolean;
  /**
   * Bytes per element of each Linear's saved input: e, or 1 under Transformer Engine's FP8, where every Linear keeps its
   * own float8 copy of its input (fp8.ts `savedLinearInputBytes`). Absent: e.
   */
  linearInputBytes?: number;
}

/** Bytes one transformer layer stores for backward, per GPU, for one micro-batch. */
export interface LayerActivationBytes {
  /** Outside the tensor-parallel regions: norm inputs and statistics, dropout masks (Korthikanti's "10sbh"). */
  replicated: number;
  /** Inside the tensor-parallel regions, excluding the s×s attention core (Korthikanti's "24sbh/t"). */
  tensorParallel: number;
  /** The s×s attention core (eager attention) or the kernel's softmax statistics (SDPA): Korthikanti's "5as²b/t". */
  attentionCore: number;
  /** Everything the layer stores without recompute: replicated + tensorParallel + attentionCore. */
  full: number;
  /** The layer input, the only tensor kept under full recompute (Korthikanti's "2sbh"). */
  input: number;
  /**
   * The layer's output, when its own backward reads it too: a ReLU keeps its result (torch's `threshold_backward`
   * takes the result). The next layer keeps the same tensor as its input, so a stage adds it once, for its last
   * layer. 0 for a transformer layer, whose last op (the residual sum) keeps nothing.
   */
  output: number;
  /** What torchtitan's op-level policy saves beside the layer input (opSavedTerms); 0 for a plain-MLP block. */
  opSaved: number;
}

/** The same layer counted in its raw terms, before tensor and sequence parallelism divide them. */
interface LayerTerms {
  replicated: number;
  tensorParallel: number;
  attentionCore: number;
}

/**
 * Activation bytes of one transformer layer, per GPU, for one micro-batch.
 * `fused`: Korthikanti et al. 2022 (arXiv 2205.05198) §4.1 and Table 2, term by term: attention 11sbh + 5as²b,
 * MLP 19sbh, norms 4sbh for GPT with 16-bit activations; tensor parallel sbh(10 + 24/t + 5as/(ht)); with
 * sequence parallel sbh(34/t + 5as/(ht)). `eager`: what PyTorch autograd saves for Hugging Face's modules,
 * derived op by op in `eagerLayerTerms` and held to the PyTorch fixtures in tests/fixtures/pytorch.
 */
export function layerActivationBytes(shape: LayerActivationShape): LayerActivationBytes {
  const { seq: s, microBatch: b, hidden: h, tp: t } = shape;
  const terms = shape.kernels === 'eager' ? eagerLayerTerms(shape) : fusedLayerTerms(shape);
  const replicated = shape.sp ? ceilDiv(terms.replicated, t) : terms.replicated;
  const tensorParallel = ceilDiv(terms.tensorParallel, t);
  const attentionCore = ceilDiv(terms.attentionCore, t);
  const inputBytes = shape.residualBytes * s * b * h;
  const input = shape.sp ? ceilDiv(inputBytes, t) : inputBytes;
  const full = replicated + tensorParallel + attentionCore;
  return { replicated, tensorParallel, attentionCore, full, input, output: 0, opSaved: ceilDiv(opSavedTerms(shape), t) };
}

/**
 * What torchtitan's op-level selective checkpointing saves of one transformer layer beside its input, before tensor
 * parallelism. Its policy (`_custom_policy` in `_apply_ac_to_transformer_block`, torchtitan
 * torchtitan/parallelisms/parallelize_llama.py at 9dec370) saves the outputs of the ops in `_save_list`
 * (`aten.mm`, the SDPA flash and memory-efficient kernels, `reduce_scatter_tensor`, `abs`, `max`) except every
 * second `aten.mm` of the block, counted from the first, and recomputes everything else. A layer's matmuls run q, k,
 * v, o, then the MLP's: gate (w1), up (w3), down (w2) for SwiGLU, up and down for GELU, so the odd ones are q, v,
 * and gate and down (SwiGLU) or up (GELU). SDPA saves its output and its fp32 log-sum-exp; eager attention's
 * `bmm` and softmax are not in the list. The MLP is counted at the width a token passes through (`mlpWidth`); a
 * mixture of experts runs its experts' matmuls grouped, not as `aten.mm`, so there this is an upper bound.
 */
function opSavedTerms(shape: LayerActivationShape): number {
  const { seq: s, microBatch: b, hidden: h, bytesPerElement: e, widths } = shape;
  const sb = s * b;
  const qv = e * sb * (widths.query + widths.value);
  const attention = shape.attention === 'sdpa' ? e * sb * widths.output + sdpaStatistics(shape) : 0;
  const mlp = e * sb * shape.mlpWidth + (shape.mlp === 'swiglu' ? e * sb * h : 0);
  return qv + attention + mlp;
}

/** FlashAttention and the memory-efficient kernel keep one fp32 log-sum-exp per row and head (Dao et al. 2022, arXiv 2205.14135 Alg. 2). */
function sdpaStatistics(shape: LayerActivationShape): number {
  return 4 * shape.heads * shape.seq * shape.microBatch;
}

/** Columns of one row of attention scores: s keys, plus gpt-oss's sink logit (modeling_gpt_oss.py eager_attention_forward concatenates it). */
function scoreColumns(shape: LayerActivationShape): number {
  return shape.seq + (shape.sinks ? 1 : 0);
}

/** Sum of MLA's latent widths (0 without MLA). */
function latentWidth(shape: LayerActivationShape): number {
  return shape.widths.latents.reduce((sum, width) => sum + width, 0);
}

/**
 * Korthikanti et al. 2022 §4.1, generalised to e bytes per element, GQA and explicit head widths (q, k, v and the
 * attention output at their own widths), SwiGLU, MoE (the MLP width a token passes through), MLA and no dropout.
 * llm-foundry's flash path keeps one tensor more: `flash_attn_fn` (llm-foundry 4952183
 * llmfoundry/models/layers/attention.py) unpads q, k and v, runs flash-attn's varlen kernel, which saves its own output
 * for backward (flash-attn 2.5.0, the version llm-foundry's setup.py pins: flash_attn_interface.py FlashAttnVarlenFunc
 * `save_for_backward(q, k, v, out_padded, softmax_lse, …)`), and pads that output back with `bert_padding.pad_input`, a new tensor, which the output projection
 * keeps as its input: two e-byte tensors at the attention output's width where Megatron's kernel output is the
 * projection's input itself. Its `torch` path (eager attention) keeps one, as Megatron does.
 */
function fusedLayerTerms(shape: LayerActivationShape): LayerTerms {
  const { seq: s, microBatch: b, hidden: h, heads: a, bytesPerElement: e, widths: w } = shape;
  const sb = s * b;
  const sbh = sb * h;
  const mask = shape.dropout ? 1 : 0;
  // A frozen Linear keeps no input: the QKV, output-projection, fc1 and fc2 inputs go (one tensor each).
  const weightInputs = shape.frozenWeights ? 0 : 1;
  // Two norm inputs (the residual stream: r, which is e in Megatron), the QKV-projection input and the fc1 input (e each,
  // none when frozen), two dropout masks (1 byte each); MLA's latents, whole on every rank (not split by head): each
  // norm's input, and the up projection's input unless frozen.
  const li = shape.linearInputBytes ?? e;
  const replicated =
    sbh * (2 * shape.residualBytes + 2 * weightInputs * li + 2 * mask) + (e + weightInputs * li) * sb * latentWidth(shape);
  // Q, K, V for QKᵀ and AV, the output-projection input; MLP: GELU input + output, or SwiGLU gate, silu(gate), up, product
  // (the GELU output and the SwiGLU product are the fc2 input, kept only when fc2 trains).
  const mlpTensors = shape.mlp === 'swiglu' ? 3 : 1;
  // flash-attn's own saved output beside the padded copy the projection keeps (llm-foundry's flash path only); it stays
  // when the projection is frozen, since the kernel's backward reads it.
  const repaddedOutput = shape.kernels === 'llm-foundry' && shape.attention === 'sdpa' ? e * sb * w.output : 0;
  const tensorParallel =
    e * sb * (w.query + w.key + w.value) +
    weightInputs * li * sb * w.output +
    repaddedOutput +
    (mlpTensors * e + weightInputs * li) * sb * shape.mlpWidth;
  // Softmax output (e), and with dropout its 1-byte mask and e-byte output; SDPA keeps only its statistics.
  const attentionCore =
    shape.attention === 'sdpa' ? sdpaStatistics(shape) : a * s * scoreColumns(shape) * b * (e + mask * (1 + e));
  return { replicated, tensorParallel, attentionCore };
}

/**
 * What autograd keeps for one Hugging Face decoder layer (transformers `modeling_gpt2.py`, `modeling_llama.py`,
 * `modeling_bert.py`, `modeling_deepseek_v3.py`), counted op by op with CUDA's 1-byte dropout masks. r is the residual
 * stream's bytes per element (fp32 under autocast), e the compute dtype's, and under autocast every Linear casts its fp32
 * input on its own (autocast caches only leaf weights: torch/csrc/autograd autocast_mode.cpp `cached_cast`).
 * - Norms. LayerNorm keeps its input (r) and fp32 mean and rstd (8 B per token); Llama's RMSNorm upcasts its
 *   input to fp32 and keeps it, the normalised tensor (r) and rstd (4 B per token).
 * - Attention. GPT-2's fused c_attn output holds Q, K and V (3e); Llama keeps Q and K, V after `repeat_kv`
 *   (the query heads' width under eager, their own under SDPA with `enable_gqa`), each at heads × head_dim or
 *   kv_heads × head_dim. MLA keeps each latent's RMSNorm (an fp32 upcast of the e-wide latent, the normalised latent,
 *   rstd) and the up projection's input, then per-head keys and values. Eager keeps the fp32 softmax (autocast runs
 *   softmax in fp32), its e-byte cast for A·V and, with dropout, a mask and the dropped copy; SDPA keeps its
 *   output and fp32 statistics. The output projection keeps its (transposed, contiguous) input.
 * - MLP. SwiGLU keeps gate, silu(gate), up and their product (4e per f). GPT-2's `gelu_new` keeps x (an fp32
 *   copy under autocast, `pow` runs in fp32), tanh(·) and 1 + tanh(·) in that dtype, 0.5·x in e, and the
 *   down projection's input; `F.gelu` keeps x and the down projection's input.
 * Checked against PyTorch 1.13 (tools/pytorch-harness/README.md § Per-block saved activations): GPT-2 fp32 with native
 * dropout 114·sbh + 9·as²b + 16·bs.
 */
function eagerLayerTerms(shape: LayerActivationShape): LayerTerms {
  const { seq: s, microBatch: b, hidden: h, heads: a, bytesPerElement: e, residualBytes: r, widths: w } = shape;
  const sb = s * b;
  const sbh = sb * h;
  const sbf = sb * shape.mlpWidth;
  const casts = r !== e;
  const mask = shape.dropout ? 1 : 0;
  const llama = shape.norm === 'rmsnorm';
  // A frozen Linear keeps no input and a frozen RMSNorm weight no normalised output (`self.weight * hidden_states`).
  const weightInputs = shape.frozenWeights ? 0 : 1;
  const normBytes = llama ? (4 + weightInputs * r) * sbh + 4 * sb : r * sbh + 8 * sb;
  // Inputs of the projections that read a norm output: Llama's q, k, v (MLA's q and kv down projections) and gate, up
  // each cast their own copy.
  const attentionReaders = w.latents.length > 0 ? 2 : 3;
  // Under Transformer Engine's FP8 every Linear quantizes and keeps its own 1-byte copy, whether or not autocast casts.
  const li = shape.linearInputBytes ?? e;
  const ownCopies = (llama && casts) || li !== e;
  const qkvInputs = weightInputs * (ownCopies && llama ? attentionReaders : 1) * li * sbh;
  const mlpInputs = weightInputs * (ownCopies && llama ? 2 : 1) * li * sbh;
  // Each MLA latent: the fp32 upcast, rstd, and unless frozen the normalised e-wide latent and the up projection's input.
  const latents = w.latents.reduce((sum, width) => sum + (4 + weightInputs * (e + li)) * sb * width + 4 * sb, 0);
  // repeat_kv widens k and v to the query heads (heads / kv heads = output / value) unless SDPA takes them grouped.
  const groups = w.output / w.value;
  const keysAndValues =
    llama && shape.attention === 'sdpa' ? w.key + w.value : llama ? w.key * groups + w.output : w.key + w.value;
  const qkv = e * sb * (w.query + keysAndValues);
  const sdpaOutput = shape.attention === 'sdpa' ? e * sb * w.output : 0;
  const outProjInput = weightInputs * li * sb * w.output;
  // The down projection's input (SwiGLU's product, GELU's output) is one e-byte tensor of the MLP's.
  const downInput = weightInputs * li * sbf;
  let mlp: number;
  if (shape.mlp === 'swiglu') mlp = 3 * e * sbf + downInput;
  else if (shape.pythonGelu) mlp = (casts ? 3 * 4 + e : 4 * e) * sbf + downInput;
  else mlp = e * sbf + downInput;
  const replicated = 2 * normBytes + 2 * mask * sbh + latents;
  const tensorParallel = qkvInputs + qkv + sdpaOutput + outProjInput + mlpInputs + mlp;
  // fp32 softmax output, then either its e-byte cast (kept by A·V; none in fp32) or, with dropout, mask and dropped copy.
  const perScore = shape.dropout ? 4 + 1 + e : 4 + (e === 4 ? 0 : e);
  const attentionCore = shape.attention === 'sdpa' ? sdpaStatistics(shape) : a * s * scoreColumns(shape) * b * perScore;
  return { replicated, tensorParallel, attentionCore };
}

/** How a recompute policy splits a stage's activations into kept tensors and a transient working set. */
export interface RecomputePlan {
  /** Bytes kept per layer for one micro-batch (reported as `activationsPerLayer`). */
  keptPerLayer: number;
  /** Bytes kept for all layers of the stage, one micro-batch (with the last layer's output where it keeps one). */
  keptForLayers: number;
  /** Transient bytes while one layer or checkpoint segment is recomputed in backward. */
  workingSet: number;
  /**
   * What is left of that working set while backward is inside the stage's first layer: under full recompute the
   * first segment's other layers have been passed and freed, so only the first layer's rebuilt activations remain.
   */
  firstLayerWorkingSet: number;
  /** Checkpoint segment length k actually used (full recompute), else 0. */
  segment: number;
}

/** Layers of a stage whose activations differ from the others': a mixture-of-experts model's dense layers. */
export interface OtherLayers {
  /** Bytes of one such layer. */
  layer: LayerActivationBytes;
  /** How many of the stage's layers are of this kind. */
  count: number;
}

/** No layer differs: every layer of the stage is alike. */
export const NO_OTHER_LAYERS: OtherLayers = {
  layer: { replicated: 0, tensorParallel: 0, attentionCore: 0, full: 0, input: 0, output: 0, opSaved: 0 },
  count: 0,
};

/**
 * Apply a recompute policy to `layers` layers with per-layer bytes `layer`, `other.count` of which hold `other.layer`
 * instead (DeepSeek's dense first layers). none: every layer keeps `full`, and the last one its `output`. selective:
 * drop the attention core, recompute it for one layer at a time (Korthikanti §5). op: keep the layer input and what
 * torchtitan's policy saves (`opSaved`), rebuild the rest one layer at a time. full with segments of k layers: keep
 * ceil(L/k) segment inputs and the last segment's output and, during backward, one segment's full activations with
 * its rebuilt output (Chen et al. 2016, arXiv 1604.06174, O(L/k + k)), counted at the larger kind. The segment's
 * first layer's input is counted once: the rebuilt layer saves the kept checkpoint itself (torch/utils/checkpoint.py
 * reruns the segment's forward on the checkpointed inputs), for a transformer layer and a plain-MLP block alike.
 * `keptPerLayer` is the larger kind's; the first-layer working set is the first layer's kind's (the dense layers come
 * first).
 */
export function planRecompute(
  layer: LayerActivationBytes,
  layers: number,
  recompute: Recompute,
  segment: number,
  other: OtherLayers = NO_OTHER_LAYERS,
): RecomputePlan {
  if (layers === 0) return { keptPerLayer: 0, keptForLayers: 0, workingSet: 0, firstLayerWorkingSet: 0, segment: 0 };
  const others = Math.min(other.count, layers);
  const alike = layers - others;
  // The larger of the two kinds' figures, among the kinds the stage holds.
  const larger = (mine: number, theirs: number) => Math.max(alike === 0 ? 0 : mine, others === 0 ? 0 : theirs);
  const first = others > 0 ? other.layer : layer;
  const { output } = layer;
  if (recompute === 'none') {
    return {
      keptPerLayer: larger(layer.full, other.layer.full),
      keptForLayers: layer.full * alike + other.layer.full * others + output,
      workingSet: 0,
      firstLayerWorkingSet: 0,
      segment: 0,
    };
  }
  if (recompute === 'selective') {
    const kept = layer.full - layer.attentionCore;
    const otherKept = other.layer.full - other.layer.attentionCore;
    return {
      keptPerLayer: larger(kept, otherKept),
      keptForLayers: kept * alike + otherKept * others + output,
      workingSet: larger(layer.attentionCore, other.layer.attentionCore),
      firstLayerWorkingSet: first.attentionCore,
      segment: 0,
    };
  }
  if (recompute === 'op') {
    // Each layer is its own checkpoint: backward rebuilds what the policy did not save, one layer at a time.
    const keptOf = (kind: LayerActivationBytes) => Math.min(kind.full, kind.input + kind.opSaved);
    const kept = keptOf(layer);
    const otherKept = keptOf(other.layer);
    return {
      keptPerLayer: larger(kept, otherKept),
      keptForLayers: kept * alike + otherKept * others + output,
      workingSet: larger(layer.full - kept, other.layer.full - otherKept) + output,
      firstLayerWorkingSet: first.full - keptOf(first) + output,
      segment: 0,
    };
  }
  const k = checkpointSegment(segment, layers);
  const checkpoints = ceilDiv(layers, k);
  const widest = larger(layer.full, other.layer.full);
  return {
    keptPerLayer: layer.input,
    keptForLayers: checkpoints * layer.input + output,
    workingSet: Math.max(0, k * widest + output - layer.input),
    firstLayerWorkingSet: Math.max(0, first.full + output - layer.input),
    segment: k,
  };
}

/** Layers per checkpoint segment actually used: the asked-for `segment`, at least 1 and at most the stage's `layers`. */
export function checkpointSegment(segment: number, layers: number): number {
  return Math.min(Math.max(1, segment), layers);
}

/** Default checkpoint segment for the plain MLP: round(√L), the √n rule of Chen et al. 2016 (arXiv 1604.06174). */
export function defaultMlpSegment(layers: number): number {
  return Math.max(1, Math.round(Math.sqrt(layers)));
}

/**
 * Bytes one plain-MLP block (Linear + ReLU) keeps: its input, one micro-batch × h tensor the Linear's weight gradient
 * reads, and its output, which ReLU's backward reads and which is the next block's input: L blocks keep L + 1
 * tensors, the batch itself first (tests/fixtures/pytorch/cpu-mlp-*, tools/pytorch-harness LabMlp). No sequence
 * dimension.
 */
export function mlpLayerActivationBytes(microBatch: number, hidden: number, bytesPerElement: number): LayerActivationBytes {
  const tensor = microBatch * hidden * bytesPerElement;
  // nn.Linear with a bias runs `addmm`, which torchtitan's op-level list does not name: nothing saved beside the input.
  return { replicated: tensor, tensorParallel: 0, attentionCore: 0, full: tensor, input: tensor, output: tensor, opSaved: 0 };
}

/** Inputs for the activations that live outside the layers. */
export interface OutsideActivationShape {
  /** Sequence length s (1 for mlp). */
  seq: number;
  /** Micro-batch size b. */
  microBatch: number;
  /** Hidden size h. */
  hidden: number;
  /** Bytes per element of the compute dtype e. */
  bytesPerElement: number;
  /** Bytes per element of the residual stream r (4 under autocast, else e). */
  residualBytes: number;
  /** Whether dropout follows the embedding. */
  dropout: boolean;
  /** Whether an embedding LayerNorm follows the embedding sum (BERT). */
  embeddingNorm: boolean;
  /** Whether a final norm precedes the head. */
  finalNorm: boolean;
  /** Whether the model is a transformer (has embedding and head inputs to store). */
  transformer: boolean;
  /** Tensor-parallel degree t (sequence parallelism splits h-wide tensors by it). */
  tp: number;
  /** Whether sequence parallelism shards h-wide tensors by t. */
  sp: boolean;
  /** Whether the output layer's weight is trained (false under LoRA unless `modules_to_save` names the head): only then is its input kept. */
  trainsHead: boolean;
}

/** Bytes outside the layers for one micro-batch: at the input (first stage) and at the output (last stage). */
export interface OutsideActivationBytes {
  /** Embedding dropout mask and embedding-norm input. */
  embedding: number;
  /** Final-norm input and head input (16-bit or fp32 per precision); what the loss keeps is loss.ts's. */
  headInputs: number;
}

/**
 * Activations outside the transformer layers, after Korthikanti et al. 2022 §4.3 (embedding dropout
 * mask, final norm and output-layer inputs); the loss's are loss.ts's.
 */
export function outsideActivationBytes(shape: OutsideActivationShape): OutsideActivationBytes {
  const { seq: s, microBatch: b, hidden: h, bytesPerElement: e, residualBytes: r, tp: t } = shape;
  const sbh = s * b * h;
  const hShard = (bytes: number) => (shape.sp ? ceilDiv(bytes, t) : bytes);
  if (!shape.transformer) return { embedding: 0, headInputs: 0 };
  const embedding = hShard((shape.dropout ? sbh : 0) + (shape.embeddingNorm ? r * sbh : 0));
  const headInputs = hShard((shape.finalNorm ? r * sbh : 0) + (shape.trainsHead ? e * sbh : 0));
  return { embedding, headInputs };
}
