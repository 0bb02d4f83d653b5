/** Variants must compute the same gradients as the plain training step (or close, for fp16). */
import { describe, expect, test } from 'vitest';
import type { DemoModel, VariantSpec } from '../../../src/graphs/catalog.ts';
import { generateModel } from '../../../src/graphs/factory.ts';
import { allParameters, type LayeredModel } from '../../../src/graphs/model.ts';
import { buildInferenceGraph, buildTrainStepGraph } from '../../../src/graphs/variants.ts';
import { CASES } from './fixtures.ts';
import { createBytesRunner, createRunner, maxRelativeError, normRelativeError, type Values } from './helpers.ts';

const BATCH = 8;

function demoOf(model: LayeredModel): DemoModel {
  return { family: 'test', model, shapes: { hidden: 8, layers: model.layers, batch: BATCH }, variants: [] };
}

/** Runs a segmented variant's graphs in manifest order, passing tensors by name. */
async function runSegmented(
  model: LayeredModel,
  variant: VariantSpec,
  feeds: Record<string, Values>,
): Promise<Record<string, Float64Array>> {
  const { entry, files } = generateModel(demoOf(model), variant);
  const store: Record<string, Values> = { ...feeds };
  for (const [i, graph] of entry.graphs.entries()) {
    const bytes = files[i]?.bytes ?? new Uint8Array();
    const run = await createBytesRunner(bytes, graph.inputs, { batch: BATCH });
    const out = await run(store);
    for (const o of graph.outputs) expect(out.types[o.name], `${graph.file} ${o.name}`).toBe(o.dtype);
    Object.assign(store, out.values);
  }
  return Object.fromEntries(Object.entries(store).filter((e): e is [string, Float64Array] => e[1] instanceof Float64Array));
}

describe.each(CASES)('$label', ({ model, feeds, weights }) => {
  const params = allParameters(model);
  const batch = feeds(BATCH);
  const base = { ...weights(), [model.data.name]: batch.data, labels: batch.labels };
  const plain = async (): Promise<Record<string, Float64Array>> =>
    (await (await createRunner(buildTrainStepGraph(model), { batch: BATCH }))(base)).values;

  test('recompute(k) gives the same loss and gradients as keeping all activations', { timeout: 30_000 }, async () => {
    const reference = await plain();
    for (const k of [1, 2]) {
      const out = (await (await createRunner(buildTrainStepGraph(model, { recompute: k }), { batch: BATCH }))(base)).values;
      expect(out['loss']).toEqual(reference['loss']);
      for (const p of params)
        expect(maxRelativeError(out[`grad.${p.name}`] ?? [], reference[`grad.${p.name}`] ?? []), `${p.name} k=${k}`).toBeLessThan(
          1e-5,
        );
    }
  });

  test('k accumulated micro-batches with loss_scale 1/k equal one full batch', { timeout: 30_000 }, async () => {
    const reference = await plain();
    const k = 4;
    const micro = BATCH / k;
    const run = await createRunner(buildTrainStepGraph(model, { accumulate: true }), { batch: micro });
    const rowsOf = (values: Values, rows: number): number => values.length / rows;
    let acc: Record<string, Float64Array> = Object.fromEntries(
      params.map((p) => [`acc_in.${p.name}`, new Float64Array(p.shape.reduce((a, d) => a * d, 1))]),
    );
    let loss = 0;
    for (let m = 0; m < k; m++) {
      const slice = <T extends Values>(values: T, rows: number): T => {
        const width = rowsOf(values, rows);
        return values.slice(m * micro * width, (m + 1) * micro * width) as T;
      };
      const out = (
        await run({
          ...base,
          [model.data.name]: slice(batch.data, BATCH),
          labels: slice(batch.labels, BATCH),
          loss_scale: [1 / k],
          ...acc,
        })
      ).values;
      loss += out['loss']?.[0] ?? NaN;
      acc = Object.fromEntries(params.map((p) => [`acc_in.${p.name}`, out[`acc_out.${p.name}`] ?? new Float64Array()]));
    }
    expect(loss).toBeCloseTo(reference['loss']?.[0] ?? NaN, 5);
    for (const p of params)
      expect(normRelativeError(acc[`acc_in.${p.name}`] ?? [], reference[`grad.${p.name}`] ?? []), p.name).toBeLessThan(1e-4);
  });

  test.each([
    { activations: 'recompute' as const, segmentLayers: 2 },
    { activations: 'keep' as const, segmentLayers: 2 },
    { activations: 'keep' as const, segmentLayers: 1 },
  ])(
    'segmented $activations (segments of $segmentLayers) chains to the single-graph gradients',
    { timeout: 30_000 },
    async ({ activations, segmentLayers }) => {
      const reference = await plain();
      const out = await runSegmented(
        model,
        { key: 'seg', precision: 'fp32', form: 'segmented', activations, segmentLayers },
        base,
      );
      expect(out['loss']?.[0]).toBeCloseTo(reference['loss']?.[0] ?? NaN, 6);
      for (const p of params)
        expect(maxRelativeError(out[`grad.${p.name}`] ?? [], reference[`grad.${p.name}`] ?? []), p.name).toBeLessThan(1e-5);
    },
  );

  test(
    'fp16 (AMP-style) gradients are close to fp32, with fp16 activations and fp32 gradients',
    { timeout: 30_000 },
    async () => {
      const reference = await plain();
      const graph = buildTrainStepGraph(model, { precision: 'fp16' });
      for (let l = 1; l <= model.layers; l++) expect(graph.info(`act${l}`).dtype).toBe('float16');
      expect(graph.info('logits').dtype).toBe('float16');
      // Optimisations off: otherwise ORT may fuse the fp16 casts away on the CPU and the test
      // would compare fp32 with fp32.
      const run = await createRunner(graph, { batch: BATCH }, { graphOptimizationLevel: 'disabled' });
      const { values: out, types } = await run(base);
      expect(out['loss']?.[0]).toBeCloseTo(reference['loss']?.[0] ?? NaN, 2);
      for (const p of params) {
        expect(types[`grad.${p.name}`]).toBe('float32');
        expect(normRelativeError(out[`grad.${p.name}`] ?? [], reference[`grad.${p.name}`] ?? []), p.name).toBeLessThan(3e-2);
      }
      const segmented = await runSegmented(
        model,
        { key: 'seg', precision: 'fp16', form: 'segmented', activations: 'keep', segmentLayers: 2 },
        base,
      );
      for (const p of params)
        expect(normRelativeError(segmented[`grad.${p.name}`] ?? [], reference[`grad.${p.name}`] ?? []), p.name).toBeLessThan(
          3e-2,
        );
    },
  );

  test('the SGD variant outputs p − lr·grad, and inference logits give the training loss', { timeout: 30_000 }, async () => {
    const reference = await plain();
    const out = (await (await createRunner(buildTrainStepGraph(model, { sgd: true }), { batch: BATCH }))({ ...base, lr: [0.5] }))
      .values;
    for (const p of params) {
      const expected = Float64Array.from(
        base[p.name] as Float32Array,
        (v, i) => v - 0.5 * (reference[`grad.${p.name}`]?.[i] ?? NaN),
      );
      expect(maxRelativeError(out[`next.${p.name}`] ?? [], expected, 1e-3), p.name).toBeLessThan(1e-5);
    }
    const logits =
      (await (await createRunner(buildInferenceGraph(model), { batch: BATCH }))(base)).values['logits'] ?? new Float64Array();
    const classes = logits.length / batch.labels.length;
    let loss = 0;
    batch.labels.forEach((label, row) => {
      const z = logits.subarray(row * classes, (row + 1) * classes);
      const max = Math.max(...z);
      const logSum = Math.log(z.reduce((s, v) => s + Math.exp(v - max), 0)) + max;
      loss += logSum - (z[Number(label)] ?? NaN);
    });
    expect(loss / batch.labels.length).toBeCloseTo(reference['loss']?.[0] ?? NaN, 5);
  });
});
