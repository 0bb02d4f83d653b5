/**
 * Standard and lossy training numerics (issue #31 item 4). Pretraining runs keep an fp32 copy of the weights and
 * 32-bit Adam moments: Micikevicius et al. 2018, "Mixed Precision Training" (arXiv 1710.03740 §3.1), keep the fp32
 * master copy because updates smaller than a 16-bit weight's spacing are lost when added to it; Megatron-LM
 * (Narayanan et al. 2021, arXiv 2104.04473 §5) and BLOOM (arXiv 2211.05100 §3.5.1) train so. Pure 16-bit weights round
 * every update to 16 bits (Zamirai et al. 2020, arXiv 2010.06192, need stochastic rounding or Kahan summation to match
 * fp32), and 8-bit AdamW quantizes the moments block-wise (Dettmers et al. 2022, arXiv 2110.02861): both change what
 * the training computes. Pretraining searches them only when the reader allows it (`--allow-lossy`); fine-tuning always
 * may, and every plan that uses them is labelled.
 */
import type { EstimateOptions, Precision } from '../memory/index.ts';
import type { PlanRequest } from './request.ts';

/** Precisions without an fp32 copy of the weights: every update is rounded to the 16-bit weights. */
export const LOSSY_PRECISIONS: readonly Precision[] = ['bf16'];

/** Optimizers whose states are kept in fewer than 32 bits. */
export const LOSSY_OPTIMIZERS: readonly string[] = ['adamw-8bit'];

/** Whether a request's search includes the lossy precisions and optimizers. */
export function searchesLossyNumerics(request: Pick<PlanRequest, 'task' | 'allowLossy'>): boolean {
  return request.task === 'finetune' || request.allowLossy;
}

/** Whether options change the training numerics: pure 16-bit weights or an 8-bit optimizer. */
export function changesNumerics(options: Pick<EstimateOptions, 'precision' | 'optimizer'>): boolean {
  return (
    (options.precision !== undefined && LOSSY_PRECISIONS.includes(options.precision)) ||
    (options.optimizer !== undefined && LOSSY_OPTIMIZERS.includes(options.optimizer))
  );
}
