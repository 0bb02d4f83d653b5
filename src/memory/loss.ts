/**
 * What the cross-entropy loss holds for a moment on top of the fp32 log-softmax output it keeps for backward
 * (that one is `OutsideActivationBytes.logits`). For a large vocabulary this spike is often the step's peak.
 */
import type { Kernels } from './activations.ts';
import { ceilDiv } from './ceil-div.ts';

/** Inputs of the loss transients. */
export interface LossShape {
  /** Positions whose logits are computed: s·b for a language model, b for a classifier. */
  positions: number;
  /** Vocabulary (or class count) V. */
  vocab: number;
  /** Bytes per element of the logits as the head produces them (the compute dtype e). */
  logitBytes: number;
  /** Kernel family: Hugging Face's loss or Megatron's fused vocab-parallel cross-entropy. */
  kernels: Kernels;
  /** Tensor-parallel degree t (vocab-parallel logits are split by t). */
  tp: number;
}

/** Transient bytes at the two moments the loss is computed. */
export interface LossTransients {
  /** During the forward loss, beside the kept log-softmax output. */
  forward: number;
  /** At the start of backward, beside the kept log-softmax output. */
  backward: number;
}

/**
 * `eager`: Hugging Face's causal-LM loss (transformers `loss/loss_utils.py` `ForCausalLMLoss`) upcasts the
 * logits with `.float()` while the model output still holds them, then `cross_entropy` keeps its log-softmax
 * output; in backward, the gradient of that output and the logits' fp32 gradient (4 bytes each per element)
 * exist together. `fused`: Megatron-LM `tensor_parallel/cross_entropy.py` turns the fp32 logits into the softmax in
 * place and computes the gradient in place, so only the 16-bit logits and the 16-bit gradient exist beside it.
 */
export function lossTransientBytes(shape: LossShape): LossTransients {
  const elements = ceilDiv(shape.positions * shape.vocab, shape.tp);
  const e = shape.logitBytes;
  const upcast = e === 4 ? 0 : 4 * elements;
  if (shape.kernels === 'fused') return { forward: e === 4 ? 0 : e * elements, backward: e === 4 ? 0 : e * elements };
  return { forward: e * elements + upcast, backward: 8 * elements };
}
