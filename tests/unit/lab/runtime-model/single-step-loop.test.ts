import { describe, expect, it } from 'vitest';
import { LOSS, LOSS_SCALE } from '../../../../src/graphs/browser-safe.ts';
import { LEAK_STEPS, SINGLE_EXPERIMENTS } from '../../../../src/lab/experiments/single/experiments.ts';
import { DEFAULT_LAB_SETTINGS, SOFTWARE_ADAPTER_SETTINGS, type LabSettings } from '../../../../src/lab/experiments/settings.ts';
import { predictSingleStepLoop, type SingleStepLoop } from '../../../../src/lab/runtime-model/single-step-loop.ts';
import { trainStepSchedule } from './lab-graphs.ts';
import { traces } from './recorded-traces.ts';

/** The sizes an experiment starts at on a software adapter, where the traces were recorded. */
function softwareSettings(id: keyof typeof SINGLE_EXPERIMENTS): LabSettings {
  const experiment = SINGLE_EXPERIMENTS[id];
  return { ...DEFAULT_LAB_SETTINGS, ...experiment.defaults, ...(experiment.softwareDefaults ?? SOFTWARE_ADAPTER_SETTINGS) };
}

function measured(experiment: string, side: 'Before' | 'After'): number {
  const trace = traces.find((t) => t.experiment === experiment);
  const bytes = Number(trace?.data[`measured${side}Bytes`]);
  if (!Number.isFinite(bytes)) throw new Error(`no measured ${side} in the ${experiment} trace`);
  return bytes;
}

/** The bar for "this runtime": measured ÷ predicted within 0.9–1.1. */
function expectAgreement(predictedBytes: number, measuredBytes: number): void {
  expect(measuredBytes / predictedBytes).toBeGreaterThanOrEqual(0.9);
  expect(measuredBytes / predictedBytes).toBeLessThanOrEqual(1.1);
}

const noHostInputs: ReadonlySet<string> = new Set();

describe('"this runtime" for one-graph steps against the recorded WebGPU traces (onnxruntime-web 1.30.0)', () => {
  it('gradient accumulation, one batch: gradients read back, nothing accumulated', () => {
    const { hidden, layers, batch } = softwareSettings('gradient-accumulation');
    const predicted = predictSingleStepLoop({
      graph: trainStepSchedule(hidden, layers, false),
      batch,
      microBatches: 1,
      steps: 1,
      retainsResults: false,
      readBack: (name) => name === LOSS || name.startsWith('grad.'),
      hostInputs: noHostInputs,
    });
    expectAgreement(predicted.peakBytes, measured('gradient-accumulation', 'Before'));
  });

  it('gradient accumulation, micro-batches: each acc_out set is made before the last is freed', () => {
    const { hidden, layers, batch, microBatches } = softwareSettings('gradient-accumulation');
    const loop: SingleStepLoop = {
      graph: trainStepSchedule(hidden, layers, true),
      batch,
      microBatches,
      steps: 1,
      retainsResults: false,
      readBack: (name) => name === LOSS,
      hostInputs: new Set([LOSS_SCALE]),
    };
    const predicted = predictSingleStepLoop(loop);
    expectAgreement(predicted.peakBytes, measured('gradient-accumulation', 'After'));
    // The second gradient set is real: one micro-batch, with nothing to add to, holds less.
    expect(predictSingleStepLoop({ ...loop, batch: batch / microBatches, microBatches: 1 }).runtimeBytes).toBeLessThan(
      predicted.runtimeBytes,
    );
  });

  it.each([
    ['leaky', true, 'Before'],
    ['fixed', false, 'After'],
  ] as const)('the %s training loop, gradients kept on the GPU', (_, retainsResults, side) => {
    const { hidden, layers, batch } = softwareSettings('leak');
    const predicted = predictSingleStepLoop({
      graph: trainStepSchedule(hidden, layers, false),
      batch,
      microBatches: 1,
      steps: LEAK_STEPS,
      retainsResults,
      readBack: (name) => name === LOSS,
      hostInputs: noHostInputs,
    });
    expectAgreement(predicted.peakBytes, measured('leak', side));
  });
});
