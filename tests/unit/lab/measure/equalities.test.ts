/**
 * The measuring core's step loops, run in Node on onnxruntime's WASM backend, compute the same
 * training step whichever way the step is split: what each browser experiment shows in memory,
 * proven here in numbers.
 */
import { describe, expect, test } from 'vitest';
import { gradName } from '../../../../src/graphs/tensor-names.ts';
import { weightFeeds } from '../../../../src/lab/measure/feeds.ts';
import { runPipelineStage } from '../../../../src/lab/measure/pipeline-stage.ts';
import { runReplica } from '../../../../src/lab/measure/replica.ts';
import { measureSingleRun, type SingleRunResult, type SingleRunSpec } from '../../../../src/lab/measure/single-run.ts';
import { createMemoryTracker } from '../../../../src/lab/measure/memory-tracker.ts';
import { normRelativeError } from '../../graphs/helpers.ts';
import {
  countingUploadStore,
  localCluster,
  nodeExecutor,
  SMALL_VARIANTS,
  smallModel,
  utilities,
  type GraphFiles,
} from './node-executor.ts';

const SEED = 42;
const BATCH = 8;
/** fp32 sums in a different order (micro-batches, devices) differ in the last bits only. */
const TOLERANCE = 1e-5;

const files: GraphFiles = new Map();
const models = Object.fromEntries(
  Object.entries(SMALL_VARIANTS).map(([name, variant]) => [name, smallModel(files, variant)]),
) as Record<keyof typeof SMALL_VARIANTS, ReturnType<typeof smallModel>>;
const { adam, accumulate } = utilities(files);

function spec(model: SingleRunSpec['model'], extra: Partial<SingleRunSpec> = {}): SingleRunSpec {
  return { model, batch: BATCH, microBatches: 1, seed: SEED, steps: 1, ...extra };
}

/** Every parameter's gradient in `a` matches `reference`'s. */
function expectSameGradients(a: Readonly<Record<string, Float32Array>>, reference: Readonly<Record<string, Float32Array>>): void {
  const names = Object.keys(reference);
  expect(names.length).toBeGreaterThan(0);
  expect(Object.keys(a).sort()).toEqual([...names].sort());
  for (const name of names) expect(normRelativeError(a[name] ?? [], reference[name] ?? []), name).toBeLessThan(TOLERANCE);
}

/** The union of what every device of a cluster side returned. */
async function clusterTensors(
  runs: Promise<{ tensors: Readonly<Record<string, Float32Array>> }>[],
): Promise<Record<string, Float32Array>> {
  return Object.assign({}, ...(await Promise.all(runs)).map((r) => r.tensors)) as Record<string, Float32Array>;
}

describe('the measuring core computes one training step, however it is split', () => {
  let reference: SingleRunResult;
  const single = async (): Promise<SingleRunResult> =>
    (reference ??= await measureSingleRun(nodeExecutor(files), spec(models.keep)));

  test('k micro-batches give the same gradients and loss as the whole batch', async () => {
    const whole = await single();
    const accumulated = await measureSingleRun(nodeExecutor(files), spec(models.accumulate, { microBatches: 4 }));
    expectSameGradients(accumulated.gradients, whole.gradients);
    expect(accumulated.loss).toBeCloseTo(whole.loss, 5);
  });

  test('recomputing activations gives the same gradients as keeping them (one graph, and segmented)', async () => {
    const whole = await single();
    expectSameGradients((await measureSingleRun(nodeExecutor(files), spec(models.recompute))).gradients, whole.gradients);
    const segmentedKeep = await measureSingleRun(nodeExecutor(files), spec(models.segmentedKeep));
    const segmentedRecompute = await measureSingleRun(nodeExecutor(files), spec(models.segmentedRecompute));
    expectSameGradients(segmentedKeep.gradients, whole.gradients);
    expectSameGradients(segmentedRecompute.gradients, segmentedKeep.gradients);
  });

  test('data-parallel gradients (2 and 4 replicas, bucketed all-reduce) equal one-device gradients', async () => {
    const whole = await single();
    for (const size of [2, 4]) {
      const devices = localCluster(files, size, SEED, 1);
      const averaged = await clusterTensors(
        devices.map((run) => runReplica(run, { kind: 'data-parallel', model: models.segmentedKeep, batch: BATCH })),
      );
      expectSameGradients(averaged, whole.gradients);
    }
  });

  test('1F1B pipeline gradients (2 stages, 4 micro-batches) equal one-device gradients', async () => {
    const whole = await single();
    const devices = localCluster(files, 2, SEED, 1);
    const job = { kind: 'pipeline', model: models.stages2, batch: BATCH, microBatches: 4, accumulate } as const;
    const results = await Promise.all(devices.map((run) => runPipelineStage(run, job)));
    expectSameGradients(Object.assign({}, ...results.map((r) => r.tensors)) as Record<string, Float32Array>, whole.gradients);
    // The last stage reports the mean of its micro-batches' losses: the whole batch's loss.
    expect(results[1]?.loss).toBeCloseTo(whole.loss, 5);
  });

  test('ZeRO-2 weights equal ZeRO-0 weights after two Adam steps, and differ from the initial weights', async () => {
    const job = (stage: 0 | 2) =>
      ({ kind: 'zero', model: models.segmentedKeep, batch: BATCH, stage, learningRate: 1e-2, adam }) as const;
    const zero0 = await clusterTensors(localCluster(files, 2, SEED, 2).map((run) => runReplica(run, job(0))));
    const zero2 = await clusterTensors(localCluster(files, 2, SEED, 2).map((run) => runReplica(run, job(2))));
    expectSameGradients(zero2, zero0);
    const initial = weightFeeds(models.segmentedKeep, SEED);
    for (const [name, feed] of Object.entries(initial))
      expect(normRelativeError(zero0[name] ?? [], feed.data as Float32Array), name).toBeGreaterThan(1e-3);
  });
});

describe('weight streaming (parameter offload)', () => {
  test('uploads exactly the bytes its plan reads, layer by layer, and computes the resident gradients', async () => {
    const model = models.layerwise;
    const tracker = createMemoryTracker();
    const store = countingUploadStore(tracker);
    const streamed = await measureSingleRun(nodeExecutor(files, store, tracker), spec(model, { weights: 'streamed', steps: 2 }));
    const resident = await measureSingleRun(nodeExecutor(files), spec(model));
    expectSameGradients(streamed.gradients, resident.gradients);

    // Independently of the plan: each graph needs the parameters among its inputs, and a weight
    // already on the device for the graph just before is not uploaded again.
    const bytes = new Map(model.parameters.map((p) => [p.name, 4 * p.shape.reduce((a, b) => a * b, 1)]));
    let expected = 0;
    let previous = new Set<string>();
    for (const graph of model.graphs) {
      const needed = new Set(graph.inputs.map((i) => i.name).filter((name) => bytes.has(name)));
      for (const name of needed) if (!previous.has(name)) expected += bytes.get(name) ?? 0;
      previous = needed;
    }
    const total = [...bytes.values()].reduce((a, b) => a + b, 0);
    expect(expected).toBeGreaterThan(total); // forward and backward each upload the layers they read
    expect(streamed.transfer.uploadedBytes).toBe(expected);
    // What the store was really asked to upload over both steps matches, step for step.
    expect(store.uploads.reduce((a, b) => a + b, 0)).toBe(2 * expected);
    // Every upload was freed: nothing stays on the device after the run.
    expect(tracker.snapshot().liveBytes).toBe(0);
    // Never all the weights at once: at most two graphs' weights (the one running and the prefetch).
    expect(streamed.memory.peakBytes).toBeLessThan(total);
    expect(streamed.memory.peakBytes).toBeGreaterThan(0);
  });

  test('is refused without a device, with the reason', async () => {
    await expect(measureSingleRun(nodeExecutor(files), spec(models.layerwise, { weights: 'streamed' }))).rejects.toThrow(
      /needs a WebGPU device/,
    );
  });
});

test('gradient names the core reads are the ones the graphs write', () => {
  for (const p of models.keep.parameters) expect(models.keep.graphs[0]?.outputs.map((o) => o.name)).toContain(gradName(p.name));
});
