import { describe, expect, it } from 'vitest';
import { DEFAULT_LAB_SETTINGS, SOFTWARE_ADAPTER_SETTINGS, type LabSettings } from '../../../../src/lab/experiments/settings.ts';
import {
  findSingleModel,
  SINGLE_EXPERIMENTS,
  type SingleExperimentId,
} from '../../../../src/lab/experiments/single/experiments.ts';
import { singleStepLoop } from '../../../../src/lab/experiments/single/runtime-loop.ts';
import { predictSingleStepLoop, type SingleStepLoop } from '../../../../src/lab/runtime-model/single-step-loop.ts';
import { labGraphs, labManifest } from './lab-graphs.ts';
import { traces } from './recorded-traces.ts';

type Side = 'before' | 'after';

/** The sizes an experiment starts at on a software adapter, where the traces were recorded. */
function softwareSettings(id: SingleExperimentId): LabSettings {
  const experiment = SINGLE_EXPERIMENTS[id];
  return { ...DEFAULT_LAB_SETTINGS, ...experiment.defaults, ...(experiment.softwareDefaults ?? SOFTWARE_ADAPTER_SETTINGS) };
}

/** The step loop single.worker.ts runs for one side on WebGPU at `settings`. */
function stepLoopOf(id: SingleExperimentId, side: Side, settings: LabSettings): SingleStepLoop {
  const experiment = SINGLE_EXPERIMENTS[id];
  const model = findSingleModel(labManifest, experiment[side], settings, 'webgpu');
  return singleStepLoop(experiment, experiment[side], model, labGraphs(model.id), settings);
}

/** The measured peak of one side, recorded at the software sizes or at width `hidden`. */
function measured(id: SingleExperimentId, side: Side, hidden?: number): number {
  const trace = traces.find((t) => t.experiment === id && t.hidden === hidden);
  const bytes = Number(trace?.data[side === 'before' ? 'measuredBeforeBytes' : 'measuredAfterBytes']);
  if (!Number.isFinite(bytes)) throw new Error(`no measured ${side} bytes in the ${id} trace`);
  return bytes;
}

/** The bar for "this runtime": measured ÷ predicted within 0.9–1.1. */
function expectAgreement(predictedBytes: number, measuredBytes: number): void {
  expect(measuredBytes / predictedBytes).toBeGreaterThanOrEqual(0.9);
  expect(measuredBytes / predictedBytes).toBeLessThanOrEqual(1.1);
}

describe('"this runtime" against the recorded WebGPU traces (onnxruntime-web 1.30.0, software sizes)', () => {
  const sides = [
    ['gradient-accumulation', 'before'],
    ['gradient-accumulation', 'after'],
    ['leak', 'before'],
    ['leak', 'after'],
    ['gradient-checkpointing', 'before'],
    ['gradient-checkpointing', 'after'],
    ['offload', 'before'],
  ] as const;

  it.each(sides)('%s, %s: measured within 10 percent of the prediction', (id, side) => {
    const predicted = predictSingleStepLoop(stepLoopOf(id, side, softwareSettings(id)));
    expectAgreement(predicted.peakBytes, measured(id, side));
  });

  it.each(sides)('%s, %s, at width 256: measured within 10 percent of the prediction', (id, side) => {
    const settings = { ...softwareSettings(id), hidden: 256 };
    const predicted = predictSingleStepLoop(stepLoopOf(id, side, settings));
    expectAgreement(predicted.peakBytes, measured(id, side, 256));
  });

  it('out-of-place accumulation holds a second gradient set: one micro-batch alone holds less', () => {
    const settings = softwareSettings('gradient-accumulation');
    const loop = stepLoopOf('gradient-accumulation', 'after', settings);
    const oneMicroBatch = { ...loop, batch: loop.batch / loop.microBatches, microBatches: 1 };
    expect(predictSingleStepLoop(oneMicroBatch).runtimeBytes).toBeLessThan(predictSingleStepLoop(loop).runtimeBytes);
  });
});
