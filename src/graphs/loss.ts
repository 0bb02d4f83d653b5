/** Softmax cross-entropy with class-index labels (float32 or int64), as a composite with a fused gradient. */
import type { GraphBuilder } from './builder.ts';
import * as op from './ops.ts';
import { LOSS } from './tensor-names.ts';

function oneHot(b: GraphBuilder, labels: string, like: string): string {
  const classes = b.info(like).shape.at(-1);
  if (typeof classes !== 'number') throw new Error('cross-entropy: class count must be fixed');
  // The class indices in the labels' own type, so Equal compares like with like.
  const range = b.constant([...Array(classes).keys()], b.info(labels).dtype, [classes]);
  return op.cast(b, op.equal(b, op.unsqueeze(b, labels, [-1]), range), b.info(like).dtype);
}

/**
 * Mean over all labels of −log softmax(logits)[label], times `scale` when given (1/k for
 * one of k micro-batches, so k accumulated steps equal one full-batch step). The result is named
 * `name` (default `loss`).
 *
 * The gradient is written by hand, (softmax − onehot)·scale/count, so the backward keeps only
 * the log-probabilities (one logits-sized tensor, like a framework's fused kernel); the generic
 * rules would also keep the one-hot matrix alive. Returns the scalar loss name.
 */
export function softmaxCrossEntropy(b: GraphBuilder, logits: string, labels: string, scale?: string, name = LOSS): string {
  const inputs = scale === undefined ? [logits, labels] : [logits, labels, scale];
  let logProbs = '';
  const count = (): string => op.cast(b, op.sizeOf(b, labels), b.info(logits).dtype);
  const [loss] = b.composite(
    inputs,
    () => {
      logProbs = op.logSoftmax(b, logits, 'logprobs');
      const picked = op.reduceSum(b, op.mul(b, oneHot(b, labels, logits), logProbs), undefined, false);
      const mean = op.div(b, op.neg(b, picked), count());
      return [scale === undefined ? op.identity(b, mean, name) : op.mul(b, mean, scale, name)] as const;
    },
    (g, [dLoss]) => {
      if (dLoss === undefined) return [undefined, undefined, undefined];
      let coef = op.div(g, dLoss, count());
      if (scale !== undefined) coef = op.mul(g, coef, scale);
      const probs = op.exp(g, logProbs);
      return [op.mul(g, op.sub(g, probs, oneHot(g, labels, logits)), coef), undefined, undefined];
    },
  );
  return loss;
}
