/**
 * The distillation experiment's dataset: a seeded, synthetic classification task (pure, so the
 * build script and the browser generate identical examples, and nothing is downloaded).
 *
 * Inputs are 16 standard-normal features; the label is the argmax of a fixed random two-layer
 * ReLU network (the "oracle") applied to them. The oracle's decision regions are piecewise linear
 * with many facets, which a wide MLP learns from thousands of examples but a narrow one trained
 * on a few hundred does not: the setting in which soft targets help most (Hinton et al. 2015,
 * §6: a model trained on 3% of the data generalises far better from soft targets).
 */
import { createNormal, hashString } from '../random.ts';

/** Sizes of the task. */
export interface DistillationTask {
  /** Input features d. */
  readonly inputs: number;
  /** Classes C. */
  readonly classes: number;
  /** Hidden width of the oracle that labels the data. */
  readonly oracleHidden: number;
  /** Seed of the oracle and of every split. */
  readonly seed: number;
}

/** Which examples: the teacher's training set, the student's (small) one, or the held-out test set. */
export type DistillationSplit = 'teacher-train' | 'student-train' | 'test';

/** A split as the graphs take it. */
export interface LabelledExamples {
  /** Row-major [count, inputs] features. */
  readonly x: Float32Array;
  /** [count] class indices, as float32 like the MLP's label input (mlp.ts says why). */
  readonly labels: Float32Array;
  readonly count: number;
}

/**
 * The oracle's weights: d×k then k×C, He-scaled so its pre-activations stay O(1), and a class
 * offset that removes each class's mean score so the classes come out roughly balanced: a ReLU
 * of z ~ N(0, σ²) has mean σ/√(2π).
 */
function oracle(task: DistillationTask): { w1: Float64Array; w2: Float64Array; offset: Float64Array } {
  const { inputs: d, oracleHidden: k, classes: c } = task;
  const normal = createNormal(hashString(`${task.seed}:oracle`));
  const w1 = Float64Array.from({ length: d * k }, () => normal() * Math.sqrt(2 / d));
  const w2 = Float64Array.from({ length: k * c }, () => normal() * Math.sqrt(2 / k));
  const offset = new Float64Array(c);
  for (let j = 0; j < k; j++) {
    let variance = 0;
    for (let i = 0; i < d; i++) variance += (w1[i * k + j] ?? 0) ** 2;
    const mean = Math.sqrt(variance / (2 * Math.PI));
    for (let o = 0; o < c; o++) offset[o] = (offset[o] ?? 0) + mean * (w2[j * c + o] ?? 0);
  }
  return { w1, w2, offset };
}

/** `count` examples of `split`; the same arguments always give the same bytes. */
export function distillationExamples(task: DistillationTask, split: DistillationSplit, count: number): LabelledExamples {
  const { inputs: d, classes: c, oracleHidden: k } = task;
  const { w1, w2, offset } = oracle(task);
  const normal = createNormal(hashString(`${task.seed}:${split}`));
  const x = Float32Array.from({ length: count * d }, normal);
  const labels = new Float32Array(count);
  const hidden = new Float64Array(k);
  for (let n = 0; n < count; n++) {
    for (let j = 0; j < k; j++) {
      let sum = 0;
      for (let i = 0; i < d; i++) sum += (x[n * d + i] ?? 0) * (w1[i * k + j] ?? 0);
      hidden[j] = Math.max(0, sum);
    }
    let best = 0;
    let bestScore = -Infinity;
    for (let o = 0; o < c; o++) {
      let score = -(offset[o] ?? 0);
      for (let j = 0; j < k; j++) score += (hidden[j] ?? 0) * (w2[j * c + o] ?? 0);
      if (score > bestScore) [best, bestScore] = [o, score];
    }
    labels[n] = best;
  }
  return { x, labels, count };
}

/** Share of rows whose argmax of `logits` ([count, classes]) equals the label. */
export function accuracyOf(logits: ArrayLike<number>, labels: Float32Array, classes: number): number {
  let correct = 0;
  for (let n = 0; n < labels.length; n++) {
    let best = 0;
    for (let c = 1; c < classes; c++)
      if ((logits[n * classes + c] ?? -Infinity) > (logits[n * classes + best] ?? -Infinity)) best = c;
    if (best === labels[n]) correct += 1;
  }
  return labels.length > 0 ? correct / labels.length : 0;
}
