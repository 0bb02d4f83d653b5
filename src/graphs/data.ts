/**
 * Synthetic, learnable training batches from a seed (pure; usable in the browser).
 * - MLP: x ~ N(0, 1); the label is the argmax of x·P for a fixed random "teacher" P, as a float32 class index.
 * - Tiny GPT: byte windows of a short repeated text; labels are the next bytes.
 */
import { createNormal, createUniform, hashString } from './random.ts';

/** A batch as typed arrays, named like the graph inputs. */
export interface Batch {
  /** `x` (Float32Array, [batch, hidden]) or `tokens` (BigInt64Array, [batch, seq]). */
  readonly data: Float32Array | BigInt64Array;
  /** `labels`: class indices (Float32Array, [batch]) or next tokens (BigInt64Array, [batch, seq]). */
  readonly labels: Float32Array | BigInt64Array;
}

/** Sizes a batch needs. */
export type BatchShape =
  | { readonly arch: 'mlp'; readonly hidden: number; readonly classes: number }
  | { readonly arch: 'tiny-gpt'; readonly seq: number; readonly vocab: number };

const TEXT =
  'Out of memory? Count the bytes: weights, gradients, optimizer states and activations. ' +
  'Checkpointing trades compute for memory; mixed precision halves activations; ' +
  'micro-batches split the batch. ';

/** A batch of `batch` examples; the same (shape, batch, seed) always gives the same data. */
export function syntheticBatch(shape: BatchShape, batch: number, seed: number): Batch {
  if (shape.arch === 'mlp') {
    const normal = createNormal(hashString(`${seed}:x`));
    const teacher = createNormal(hashString('teacher'));
    const { hidden, classes } = shape;
    const p = Float64Array.from({ length: hidden * classes }, teacher);
    const data = Float32Array.from({ length: batch * hidden }, normal);
    // float32 class indices: what the MLP's graphs take (mlp.ts says why).
    const labels = new Float32Array(batch);
    for (let n = 0; n < batch; n++) {
      let best = 0;
      let bestScore = -Infinity;
      for (let c = 0; c < classes; c++) {
        let score = 0;
        for (let i = 0; i < hidden; i++) score += (data[n * hidden + i] ?? 0) * (p[i * classes + c] ?? 0);
        if (score > bestScore) [best, bestScore] = [c, score];
      }
      labels[n] = best;
    }
    return { data, labels };
  }
  const uniform = createUniform(hashString(`${seed}:tokens`));
  const { seq, vocab } = shape;
  const data = new BigInt64Array(batch * seq);
  const labels = new BigInt64Array(batch * seq);
  for (let n = 0; n < batch; n++) {
    const offset = Math.floor(uniform() * TEXT.length);
    for (let t = 0; t < seq; t++) {
      data[n * seq + t] = BigInt(TEXT.charCodeAt((offset + t) % TEXT.length) % vocab);
      labels[n * seq + t] = BigInt(TEXT.charCodeAt((offset + t + 1) % TEXT.length) % vocab);
    }
  }
  return { data, labels };
}
