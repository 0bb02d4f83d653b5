/** Optimizer state sizes (the "K" of the ZeRO paper) per precision. */
import { PRECISION_BYTES, type Precision } from './precision.ts';

/** Optimizer kind. */
export type OptimizerKind = 'sgd' | 'sgd-momentum' | 'adamw' | 'adamw-8bit';

/** Every optimizer kind. */
export const OPTIMIZERS: readonly OptimizerKind[] = ['sgd', 'sgd-momentum', 'adamw', 'adamw-8bit'];

/** Number of moment tensors each optimizer keeps per parameter. */
const MOMENTS: Readonly<Record<OptimizerKind, number>> = { 'sgd': 0, 'sgd-momentum': 1, 'adamw': 2, 'adamw-8bit': 2 };

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
