/** Softmax cross-entropy with class-index labels (float32 or int64), as a composite with a fused gradient. */
import type { GraphBuilder } from './builder.ts';
import * as op from './ops.ts';
import { LOSS } from './tensor-names.ts';

/** The labels as one-hot rows over `like`'s last dimension (the classes), in `dtype` (default: `like`'s). */
function oneHot(b: GraphBuilder, labels: string, like: string, dtype = b.info(like).dtype): string {
  const classes = b.info(like).shape.at(-1);
  if (typeof classes !== 'number') throw new Error('cross-entropy: class count must be fixed');
  // The class indices in the labels' own type, so Equal compares like with like.
  const range = b.constant([...Array(classes).keys()], b.info(labels).dtype, [classes]);
  return op.cast(b, op.equal(b, op.unsqueeze(b, labels, [-1]), range), dtype);
}

/**
 * How many labels there are, as a scalar of `like`'s type: the sum of their one-hot rows over
 * `like`'s classes (every label is a class index, so each row adds exactly 1; summed in float32,
 * exact up to 2^24). Not `Size(labels)`: onnxruntime runs shape ops on its CPU provider ("ORT
 * explicitly assigns shape related ops to CPU", its session log says), so the labels would be
 * copied back from the GPU on every run, a download that also flushes the GPU's pending work.
 */
export function labelCount(b: GraphBuilder, labels: string, like: string): string {
  const count = op.reduceSum(b, oneHot(b, labels, like, 'float32'), undefined, false);
  return b.info(like).dtype === 'float32' ? count : op.cast(b, count, b.info(like).dtype);
}

/**
 * Log-softmax over the last axis spelled out, x − m − log Σ exp(x − m) with m each row's largest
 * logit (for stability), so that onnxruntime-web runs it on the GPU: its WebGPU provider has no
 * LogSoftmax kernel (its session log places LogSoftmax on the CPU provider and adds a copy to the
 * host before the logits), which read the logits back and uploaded the log-probabilities on every run.
 */
function logSoftmaxOnGpu(b: GraphBuilder, x: string, name: string): string {
  const shifted = op.sub(b, x, op.reduceMaxLastAxis(b, x));
  return op.sub(b, shifted, op.log(b, op.reduceSum(b, op.exp(b, shifted), [-1], true)), name);
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
  const [loss] = b.composite(
    inputs,
    () => {
      logProbs = logSoftmaxOnGpu(b, logits, 'logprobs');
      const picked = op.reduceSum(b, op.mul(b, oneHot(b, labels, logits), logProbs), undefined, false);
      const mean = op.div(b, op.neg(b, picked), labelCount(b, labels, logits));
      return [scale === undefined ? op.identity(b, mean, name) : op.mul(b, mean, scale, name)] as const;
    },
    (g, [dLoss]) => {
      if (dLoss === undefined) return [undefined, undefined, undefined];
      let coef = op.div(g, dLoss, labelCount(g, labels, logits));
      if (scale !== undefined) coef = op.mul(g, coef, scale);
      const probs = op.exp(g, logProbs);
      return [op.mul(g, op.sub(g, probs, oneHot(g, labels, logits)), coef), undefined, undefined];
    },
  );
  return loss;
}
