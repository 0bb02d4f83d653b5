/**
 * The distillation pieces: Hinton et al.'s loss and its hand-built backward (against finite
 * differences, finite-differences.ts), int8 weight storage, and the synthetic task.
 */
import { describe, expect, test } from 'vitest';
import { accuracyOf, distillationExamples } from '../../../src/graphs/distillation/dataset.ts';
import { buildFrozenInferenceGraph } from '../../../src/graphs/frozen.ts';
import { initWeights } from '../../../src/graphs/init.ts';
import { createMlp } from '../../../src/graphs/mlp.ts';
import { allParameters } from '../../../src/graphs/model.ts';
import { dequantizeSymmetricInt8, quantizeSymmetricInt8 } from '../../../src/graphs/quantize.ts';
import { createNormal } from '../../../src/graphs/random.ts';
import { buildInferenceGraph, buildTrainStepGraph } from '../../../src/graphs/variants.ts';
import { expectGradientsMatchFiniteDifferences } from './finite-differences.ts';
import { createRunner, maxRelativeError } from './helpers.ts';

const BATCH = 5;
const student = createMlp({ inputs: 6, hidden: 8, layers: 2, classes: 4 });
const params = allParameters(student);
const task = { inputs: 6, classes: 4, oracleHidden: 8, seed: 3 };
const data = distillationExamples(task, 'student-train', BATCH);
const normal = createNormal(11);
const teacherLogits = Float64Array.from({ length: BATCH * 4 }, () => 3 * normal());
const weights = (): Record<string, Float64Array> => {
  const w = initWeights(params, 5);
  let i = 0;
  // Non-zero biases so every gradient path is exercised.
  return Object.fromEntries(Object.entries(w).map(([k, v]) => [k, Float64Array.from(v, (x) => x + 0.05 * Math.sin(++i))]));
};

/** The loss computed directly in float64 from the logits, for the forward check. */
function referenceLoss(logits: Float64Array, temperature: number, alpha: number): number {
  const c = 4;
  let soft = 0;
  let hard = 0;
  const logSoftmax = (row: Float64Array, t: number): number[] => {
    const z = [...row].map((v) => v / t);
    const max = Math.max(...z);
    const lse = Math.log(z.reduce((s, v) => s + Math.exp(v - max), 0)) + max;
    return z.map((v) => v - lse);
  };
  for (let n = 0; n < BATCH; n++) {
    const s = logits.subarray(n * c, (n + 1) * c);
    const t = teacherLogits.subarray(n * c, (n + 1) * c);
    const logQ = logSoftmax(s, temperature);
    const logP = logSoftmax(t, temperature);
    soft += logP.reduce((sum, lp, i) => sum + Math.exp(lp) * (lp - (logQ[i] ?? 0)), 0);
    hard -= logSoftmax(s, 1)[Number(data.labels[n])] ?? NaN;
  }
  return (alpha * temperature ** 2 * soft + (1 - alpha) * hard) / BATCH;
}

describe('distillation loss (Hinton et al. 2015)', () => {
  const dims = { batch: BATCH };
  const feeds = (temperature: number, alpha: number) => ({
    ...weights(),
    x: data.x,
    labels: data.labels,
    teacher_logits: teacherLogits,
    temperature: [temperature],
    alpha: [alpha],
  });

  test('the step graph computes α·T²·KL(p_T‖q_T) + (1−α)·CE on the student logits', async () => {
    const step = await createRunner(buildTrainStepGraph(student, { precision: 'fp64', distillation: true }), dims);
    const forward = await createRunner(buildInferenceGraph(student, { precision: 'fp64' }), dims);
    for (const [temperature, alpha] of [
      [4, 0.9],
      [1, 0.5],
      [2.5, 0],
    ] as const) {
      const logits = (await forward(feeds(temperature, alpha))).values['logits'] ?? new Float64Array();
      const loss = (await step(feeds(temperature, alpha))).values['loss']?.[0] ?? NaN;
      expect(loss).toBeCloseTo(referenceLoss(logits, temperature, alpha), 10);
    }
  });

  test('fp32 and fp64 gradients match central finite differences', { timeout: 60_000 }, async () => {
    const run64 = await createRunner(buildTrainStepGraph(student, { precision: 'fp64', distillation: true }), dims);
    const run32 = await createRunner(buildTrainStepGraph(student, { distillation: true }), dims);
    await expectGradientsMatchFiniteDifferences(run64, run32, feeds(4, 0.7), params);
  });

  test('α = 0 gives exactly the plain cross-entropy step', async () => {
    const distilled = (await (await createRunner(buildTrainStepGraph(student, { distillation: true }), dims))(feeds(4, 0)))
      .values;
    const plain = (await (await createRunner(buildTrainStepGraph(student), dims))(feeds(4, 0))).values;
    expect(distilled['loss']?.[0]).toBeCloseTo(plain['loss']?.[0] ?? NaN, 6);
    for (const p of params)
      expect(maxRelativeError(distilled[`grad.${p.name}`] ?? [], plain[`grad.${p.name}`] ?? [], 1e-4), p.name).toBeLessThan(1e-5);
  });
});

describe('int8 weight storage', () => {
  test('quantizeSymmetricInt8 rounds each weight to within half a step of its column scale', () => {
    const values = Float32Array.from({ length: 12 }, (_, i) => Math.sin(i) * (1 + (i % 3)));
    values[2] = 0;
    values[5] = 0;
    values[8] = 0;
    values[11] = 0; // column 2 all zero
    const q = quantizeSymmetricInt8(values, [4, 3]);
    const back = dequantizeSymmetricInt8(q);
    values.forEach((v, i) => expect(Math.abs((back[i] ?? NaN) - v)).toBeLessThanOrEqual((q.scales[i % 3] ?? 0) / 2 + 1e-7));
    expect(Math.max(...Array.from(q.quantized, Math.abs))).toBe(127);
    expect(q.scales[2]).toBe(1);
  });

  test('an int8 frozen model dequantizes inside the graph and stays close to fp32', async () => {
    const model = createMlp({ inputs: 6, hidden: 32, layers: 2, classes: 4 });
    const trained = initWeights(allParameters(model), 9);
    const x = distillationExamples(task, 'test', 64);
    const fp32 = await createRunner(buildFrozenInferenceGraph(model, trained, 'fp32'), { batch: 64 });
    const int8Graph = buildFrozenInferenceGraph(model, trained, 'int8');
    expect(int8Graph.nodes.filter((n) => n.opType === 'DequantizeLinear')).toHaveLength(4);
    expect([...int8Graph.constants.values()].filter((c) => c.info.dtype === 'int8').map((c) => c.name)).toEqual([
      'in.w.int8',
      'w0.int8',
      'w1.int8',
      'head.w.int8',
    ]);
    const int8 = await createRunner(int8Graph, { batch: 64 });
    const a = (await fp32({ x: x.x })).values['logits'] ?? new Float64Array();
    const b = (await int8({ x: x.x })).values['logits'] ?? new Float64Array();
    const scale = Math.max(...a.map(Math.abs));
    expect(Math.max(...a.map((v, i) => Math.abs(v - (b[i] ?? NaN)))) / scale).toBeLessThan(0.03);
    expect(a).not.toEqual(b);
  });
});

describe('distillation task', () => {
  test('distillationExamples is deterministic, labels every class, and splits differ', () => {
    const full = { inputs: 16, classes: 8, oracleHidden: 32, seed: 7 };
    const a = distillationExamples(full, 'test', 2048);
    expect(distillationExamples(full, 'test', 2048)).toEqual(a);
    expect(distillationExamples(full, 'student-train', 8).x).not.toEqual(a.x.slice(0, 8 * 16));
    const counts = new Array<number>(8).fill(0);
    for (const label of a.labels) counts[Number(label)] = (counts[Number(label)] ?? 0) + 1;
    // Balanced by the oracle's class offsets: every class holds at least 4% of the examples.
    for (const c of counts) expect(c).toBeGreaterThan(0.04 * 2048);
  });

  test('accuracyOf counts argmax hits', () => {
    expect(accuracyOf([0, 1, 5, 2, 3, 3], Float32Array.of(1, 0, 1), 2)).toBeCloseTo(2 / 3); // a tie picks the first class
  });
});
