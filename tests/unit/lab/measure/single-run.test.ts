/**
 * A single run (measure/single-run.ts) computes the same training step whichever way the step is
 * split, and streams exactly the weights it plans to: what each single experiment shows in
 * memory, proven here in numbers.
 */
import { describe, expect, test } from 'vitest';
import { gradName, LOSS_SCALE } from '../../../../src/graphs/tensor-names.ts';
import { createMemoryTracker } from '../../../../src/lab/measure/memory-tracker.ts';
import { measureSingleRun } from '../../../../src/lab/measure/single-run.ts';
import { deviceTrafficExecutor } from './device-traffic.ts';
import { countingUploadStore, nodeExecutor } from './node-executor.ts';
import { BATCH, expectSameGradients, files, models, oneDeviceStep, spec } from './step-fixtures.ts';

describe('a single run computes one training step, however it is split', () => {
  test('k micro-batches give the same gradients and loss as the whole batch', async () => {
    const whole = await oneDeviceStep();
    const accumulated = await measureSingleRun(nodeExecutor(files), spec(models.accumulate, { microBatches: 4 }));
    expectSameGradients(accumulated.gradients, whole.gradients);
    expect(accumulated.loss).toBeCloseTo(whole.loss, 5);
  });

  test('recomputing activations gives the same gradients as keeping them (one graph, and segmented)', async () => {
    const whole = await oneDeviceStep();
    expectSameGradients((await measureSingleRun(nodeExecutor(files), spec(models.recompute))).gradients, whole.gradients);
    const segmentedKeep = await measureSingleRun(nodeExecutor(files), spec(models.segmentedKeep));
    const segmentedRecompute = await measureSingleRun(nodeExecutor(files), spec(models.segmentedRecompute));
    expectSameGradients(segmentedKeep.gradients, whole.gradients);
    expectSameGradients(segmentedRecompute.gradients, segmentedKeep.gradients);
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

describe('what a single run moves between host and device', () => {
  test('places the weights, each micro-batch and one zeroed gradient set once per run: more steps upload nothing more', async () => {
    const model = models.accumulate;
    const weightBytes = model.parameters.reduce((sum, p) => sum + 4 * p.shape.reduce((a, b) => a * b, 1), 0);
    // Features and float32 class labels (one per example).
    const exampleBytes = 4 * BATCH * model.shapes.hidden + 4 * BATCH;
    const placed = [];
    for (const steps of [1, 3]) {
      const { exec, traffic } = deviceTrafficExecutor(files);
      await measureSingleRun(exec, spec(model, { microBatches: 2, steps }));
      placed.push(traffic.placedBytes);
      // What runs still read from the host is the 1/k loss scale, a scalar: no features, labels
      // (int64 labels sent the loss's one-hot to the CPU) or zeroed acc_in.* on any run.
      expect(new Set(traffic.hostFeeds.map((feed) => feed.input))).toEqual(new Set([LOSS_SCALE]));
      expect(traffic.hostFeeds.every((feed) => feed.bytes === 4)).toBe(true);
    }
    expect(placed).toEqual([2 * weightBytes + exampleBytes, 2 * weightBytes + exampleBytes]);
  });
});
