/**
 * The knowledge-distillation loss of Hinton, Vinyals and Dean (arXiv 1503.02531, §2):
 *
 *   L = α · T² · KL(p_T ‖ q_T) + (1 − α) · CE(y, q_1),   mean over the batch,
 *
 * where p_T = softmax(teacher logits / T) and q_T = softmax(student logits / T). The T² keeps the
 * soft term's gradients, which scale as 1/T², on the same footing as the hard term's whatever
 * the temperature (§2). α = 0 is plain hard-label training with the same graph.
 *
 * The soft term is written with generic ops so the autodiff differentiates it (and the unit
 * tests check it against finite differences); the hard term reuses the fused cross-entropy.
 */
import type { GraphBuilder } from './builder.ts';
import type { FloatDType } from './dtype.ts';
import { labelCount, softmaxCrossEntropy } from './loss.ts';
import * as op from './ops.ts';
import { ALPHA, LOSS, TEACHER_LOGITS, TEMPERATURE } from './tensor-names.ts';

/** Graph inputs the distillation loss reads besides the student's logits and the labels. */
export interface DistillationInputs {
  /** Teacher logits, [batch, classes], in the loss dtype. */
  readonly teacherLogits: string;
  /** Temperature T > 0, a scalar. */
  readonly temperature: string;
  /** Weight α ∈ [0, 1] of the soft term, a scalar. */
  readonly alpha: string;
}

/** Input names of the distillation step graph. */
export const DISTILLATION_INPUT_NAMES = { teacherLogits: TEACHER_LOGITS, temperature: TEMPERATURE, alpha: ALPHA } as const;

/** Declares the teacher logits, T and α as graph inputs. */
export function declareDistillationInputs(
  b: GraphBuilder,
  logitsShape: readonly (number | string)[],
  dtype: FloatDType,
): DistillationInputs {
  return {
    teacherLogits: b.input(DISTILLATION_INPUT_NAMES.teacherLogits, dtype, logitsShape),
    temperature: b.input(DISTILLATION_INPUT_NAMES.temperature, dtype, []),
    alpha: b.input(DISTILLATION_INPUT_NAMES.alpha, dtype, []),
  };
}

/** Emits the loss on the student's `logits` (master dtype); returns the scalar named `loss`. */
export function distillationLoss(
  b: GraphBuilder,
  logits: string,
  labels: string,
  { teacherLogits, temperature, alpha }: DistillationInputs,
): string {
  return b.scoped('distill', () => {
    const logQ = op.logSoftmax(b, op.div(b, logits, temperature));
    const logP = op.logSoftmax(b, op.div(b, teacherLogits, temperature));
    // KL(p ‖ q) = Σ p·(log p − log q); only the −Σ p·log q part depends on the student.
    const kl = op.reduceSum(b, op.mul(b, op.exp(b, logP), op.sub(b, logP, logQ)), undefined, false);
    const count = labelCount(b, labels, logits);
    const soft = op.mul(b, op.mul(b, op.div(b, kl, count), op.mul(b, temperature, temperature)), alpha);
    const hard = softmaxCrossEntropy(b, logits, labels, op.sub(b, b.scalarLike(1, alpha), alpha), 'hard_loss');
    return op.add(b, soft, hard, LOSS);
  });
}
