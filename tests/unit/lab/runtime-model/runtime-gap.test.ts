import { describe, expect, it } from 'vitest';
import { DEFAULT_LAB_SETTINGS, SOFTWARE_ADAPTER_SETTINGS, type LabSettings } from '../../../../src/lab/experiments/settings.ts';
import {
  findSingleModel,
  predictSideBytes,
  SINGLE_EXPERIMENTS,
  type SingleExperimentId,
} from '../../../../src/lab/experiments/single/experiments.ts';
import { singleStepLoop } from '../../../../src/lab/experiments/single/runtime-loop.ts';
import { measuredSteps } from '../../../../src/lab/experiments/warm-up.ts';
import { itemiseGap } from '../../../../src/lab/runtime-model/runtime-gap.ts';
import { predictSingleStepLoop } from '../../../../src/lab/runtime-model/single-step-loop.ts';
import { labGraphs, labManifest } from './lab-graphs.ts';
import { traces } from './recorded-traces.ts';

type Side = 'before' | 'after';

/** An experiment's software-adapter sizes (where the traces were recorded), at width `hidden` if given. */
function settingsOf(id: SingleExperimentId, hidden?: number): LabSettings {
  const experiment = SINGLE_EXPERIMENTS[id];
  return {
    ...DEFAULT_LAB_SETTINGS,
    ...experiment.defaults,
    ...(experiment.softwareDefaults ?? SOFTWARE_ADAPTER_SETTINGS),
    ...(hidden ? { hidden } : {}),
  };
}

/** The side's step loop, its engine peak (PyTorch on CUDA) and its itemised gap, as the page computes them. */
function gapOf(id: SingleExperimentId, side: Side, hidden?: number) {
  const experiment = SINGLE_EXPERIMENTS[id];
  const settings = settingsOf(id, hidden);
  const model = findSingleModel(labManifest, experiment[side], settings, 'webgpu');
  const loop = singleStepLoop(experiment, experiment[side], model, labGraphs(model.id), settings);
  const pytorchBytes = predictSideBytes(experiment[side], model, settings, experiment.steps ?? measuredSteps('webgpu'));
  return { loop, pytorchBytes, gap: itemiseGap(loop, pytorchBytes) };
}

/** A side's measured peak in a recorded trace (tests/fixtures/lab/traces/). */
function measured(id: SingleExperimentId, side: Side, hidden?: number): number {
  const trace = traces.find((t) => t.experiment === id && t.hidden === hidden);
  return Number(trace?.data[side === 'before' ? 'measuredBeforeBytes' : 'measuredAfterBytes']);
}

const byCause = (gap: ReturnType<typeof itemiseGap>, cause: string): number =>
  gap.items.find((item) => item.cause === cause)?.bytes ?? Number.NaN;

const modelledSides = Object.values(SINGLE_EXPERIMENTS).flatMap((experiment) =>
  (['before', 'after'] as const).filter((side) => experiment[side].runtimeModelled).map((side) => [experiment.id, side] as const),
);

describe('itemiseGap: "this runtime" against PyTorch on CUDA, rule by rule', () => {
  it.each(modelledSides)('%s, %s: the items add up to this runtime minus the engine peak', (id, side) => {
    const { gap, pytorchBytes } = gapOf(id, side);
    const sum = gap.items.reduce((total, item) => total + item.bytes, 0);
    expect(sum).toBe(gap.runtime.peakBytes - pytorchBytes);
    expect(gap.runtime).toEqual(predictSingleStepLoop(gapOf(id, side).loop));
  });

  it.each(modelledSides)('%s, %s: size classes and waiting for a flush each add bytes', (id, side) => {
    const { gap } = gapOf(id, side);
    expect(byCause(gap, 'size-classes')).toBeGreaterThan(0);
    expect(byCause(gap, 'reuse-after-flush')).toBeGreaterThanOrEqual(0);
  });

  it('only the micro-batch side holds a second gradient set', () => {
    expect(byCause(gapOf('gradient-accumulation', 'before').gap, 'second-gradient-set')).toBe(0);
    expect(byCause(gapOf('gradient-accumulation', 'after').gap, 'second-gradient-set')).toBeGreaterThan(0);
  });

  it('width 256 (tests/fixtures/lab/traces/gradient-accumulation.h256.json): accumulation raises the measured peak, this runtime predicts the rise, PyTorch a drop', () => {
    expect(measured('gradient-accumulation', 'after', 256)).toBeGreaterThan(measured('gradient-accumulation', 'before', 256));
    const before = gapOf('gradient-accumulation', 'before', 256);
    const after = gapOf('gradient-accumulation', 'after', 256);
    expect(after.gap.runtime.peakBytes).toBeGreaterThan(before.gap.runtime.peakBytes);
    expect(after.pytorchBytes).toBeLessThan(before.pytorchBytes);
    // Without the second set (in-place accumulation), this runtime too would predict no rise.
    expect(after.gap.runtime.peakBytes - byCause(after.gap, 'second-gradient-set')).toBeLessThan(before.gap.runtime.peakBytes);
  });

  it('lesson 3’s figures (03-gradient-accumulation.mdx, width 256): measured 4,304,232 → 5,160,976 B in the trace, this runtime 4,550,072 → 5,177,504 B', () => {
    expect([measured('gradient-accumulation', 'before', 256), measured('gradient-accumulation', 'after', 256)]).toEqual([
      4_304_232, 5_160_976,
    ]);
    const predicted = (['before', 'after'] as const).map(
      (side) => gapOf('gradient-accumulation', side, 256).gap.runtime.peakBytes,
    );
    expect(predicted).toEqual([4_550_072, 5_177_504]);
  });

  it('the lab places every micro-batch’s examples and labels: the same bytes however the batch is split', () => {
    const before = byCause(gapOf('gradient-accumulation', 'before').gap, 'examples-and-labels');
    expect(before).toBeGreaterThan(0);
    expect(byCause(gapOf('gradient-accumulation', 'after').gap, 'examples-and-labels')).toBe(before);
  });
});
