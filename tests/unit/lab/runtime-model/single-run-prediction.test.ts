import { describe, expect, it } from 'vitest';
import { predictSingleRun } from '../../../../src/lab/experiments/single/runtime-prediction.ts';
import { placedExamplesBytes } from '../../../../src/lab/runtime-model/placed-examples-bytes.ts';
import { loadLabSchedule } from './lab-graphs.ts';
import { measuredPeak, sideOf } from './single-sides.ts';

/** The bar for "this runtime": measured ÷ predicted within 0.9–1.1. */
function expectAgreement(predictedBytes: number, measuredBytes: number): void {
  expect(measuredBytes / predictedBytes).toBeGreaterThanOrEqual(0.9);
  expect(measuredBytes / predictedBytes).toBeLessThanOrEqual(1.1);
}

describe('"this runtime" (the lab’s single run on the runtime model) against the recorded WebGPU traces (onnxruntime-web 1.30.0)', () => {
  const sides = [
    ['gradient-accumulation', 'before'],
    ['gradient-accumulation', 'after'],
    ['leak', 'before'],
    ['leak', 'after'],
    ['gradient-checkpointing', 'before'],
    ['gradient-checkpointing', 'after'],
    ['offload', 'before'],
    ['offload', 'after'],
  ] as const;

  it.each(sides)('%s, %s, software sizes: measured within 10 percent of the prediction', async (id, side) => {
    const predicted = await predictSingleRun(sideOf(id, side).spec, loadLabSchedule);
    expectAgreement(predicted, measuredPeak(id, side));
  });

  it.each(sides)('%s, %s, at width 256: measured within 10 percent of the prediction', async (id, side) => {
    const predicted = await predictSingleRun(sideOf(id, side, 256).spec, loadLabSchedule);
    expectAgreement(predicted, measuredPeak(id, side, 256));
  });

  it('out-of-place accumulation holds a second gradient set: one micro-batch alone holds less beside its examples', async () => {
    const { spec } = sideOf('gradient-accumulation', 'after');
    const oneMicroBatch = { ...spec, batch: spec.batch / spec.microBatches, microBatches: 1 };
    const aboveExamples = async (run: typeof spec): Promise<number> =>
      (await predictSingleRun(run, loadLabSchedule)) - placedExamplesBytes(run.model, run.batch, run.seed);
    expect(await aboveExamples(oneMicroBatch)).toBeLessThan(await aboveExamples(spec));
  });
});
