/** Optimizer state sizes (the "K" of the ZeRO paper) per precision. */
import { PRECISION_BYTES, type Precision } from './precision.ts';

/** Optimizer kind. */
export type OptimizerKind = 'sgd' | 'sgd-momentum' | 'adamw' | 'adamw-8bit';

/** Every optimizer kind. */
export const OPTIMIZERS: readonly OptimizerKind[] = ['sgd', 'sgd-momentum', 'adamw', 'adamw-8bit'];

/** Number of moment tensors each optimizer keeps per parameter. */
const MOMENTS: Readonly<Record<OptimizerKind, number>> = { sgd: 0, 'sgd-momentum': 1, adamw: 2, 'adamw-8bit': 2 };

/** How many moment tensors `optimizer` keeps per parameter (SGD none, momentum one, Adam two). */
export function momentCount(optimizer: OptimizerKind): number {
  return MOMENTS[optimizer];
}

/** Bytes per parameter the optimizer's states take, split into master weights and moments. */
export interface OptimizerBytes {
  /** fp32 master weights kept by the optimizer (mixed precision only), bytes per parameter. */
  master: number;
  /** Moment tensors (momentum, variance), bytes per parameter. */
  moments: number;
  /** master + moments: the ZeRO paper's K. */
  total: number;
}

/**
 * Optimizer bytes per parameter.
 * Adam keeps m and v (2 × 4 bytes; arXiv 1412.6980); mixed precision adds a 4-byte fp32 master copy,
 * so K = 12 (arXiv 1910.02054 §3.1). bitsandbytes 8-bit Adam stores m and v in 1 byte each
 * (arXiv 2110.02861); its block-wise absmax scales (one fp32 per 2048 values) are left out.
 * SGD with momentum keeps one buffer (PyTorch torch.optim.SGD).
 */
export function optimizerBytesPerParam(optimizer: OptimizerKind, precision: Precision): OptimizerBytes {
  const regime = PRECISION_BYTES[precision];
  const momentBytes = optimizer === 'adamw-8bit' ? 1 : regime.momentBytes;
  const moments = MOMENTS[optimizer] * momentBytes;
  const master = regime.masterWeights ? 4 : 0;
  return { master, moments, total: master + moments };
}

/** PyTorch optimizer implementation (torch.optim `foreach=` / `fused=` arguments). */
export type OptimizerImpl = 'foreach' | 'fused' | 'for-loop';

/** Every optimizer implementation. */
export const OPTIMIZER_IMPLS: readonly OptimizerImpl[] = ['foreach', 'fused', 'for-loop'];

/** Inputs of the optimizer step's temporaries. */
export interface OptimizerStepShape {
  optimizer: OptimizerKind;
  impl: OptimizerImpl;
  /** Parameters whose states this GPU updates (its optimizer shard). */
  params: number;
  /** Largest single parameter tensor among them, elements. */
  largestTensor: number;
  /** Bytes per element of the moments. */
  momentBytes: number;
}

/**
 * Bytes the optimizer step allocates beyond the states it updates in place.
 * AdamW `foreach` (torch/optim/adamw.py `_multi_tensor_adamw`) computes `exp_avg_sq_sqrt = torch._foreach_sqrt(v)`,
 * a second copy of v for every parameter at once; `for-loop` (`_single_tensor_adamw`) builds
 * `denom = (v.sqrt() / bias_correction2_sqrt)` one parameter at a time (two temporaries of its size at the
 * division); `fused` (`_fused_adamw`) runs one kernel per tensor group with none. SGD with momentum and
 * bitsandbytes 8-bit AdamW update in place.
 */
export function optimizerStepTemporaryBytes(shape: OptimizerStepShape): number {
  if (shape.optimizer !== 'adamw') return 0;
  if (shape.impl === 'fused') return 0;
  if (shape.impl === 'foreach') return shape.params * shape.momentBytes;
  return 2 * Math.min(shape.largestTensor, shape.params) * shape.momentBytes;
}
