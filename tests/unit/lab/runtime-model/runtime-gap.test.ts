import { describe, expect, it } from 'vitest';
import { SINGLE_EXPERIMENTS, type SingleExperimentId } from '../../../../src/lab/experiments/single/experiments.ts';
import { itemiseSingleRunGap, predictSingleRun } from '../../../../src/lab/experiments/single/runtime-prediction.ts';
import type { ItemisedGap } from '../../../../src/lab/runtime-model/runtime-gap.ts';
import { loadLabSchedule } from './lab-graphs.ts';
import { measuredPeak, sideOf, type Side } from './single-sides.ts';

/** The side's engine peak (PyTorch on CUDA) and its itemised gap, as the page computes them. */
async function gapOf(id: SingleExperimentId, side: Side, hidden?: number) {
  const { spec, pytorchBytes } = sideOf(id, side, hidden);
  return { spec, pytorchBytes, gap: await itemiseSingleRunGap(spec, loadLabSchedule, pytorchBytes) };
}

const byCause = (gap: ItemisedGap, cause: string): number => gap.items.find((item) => item.cause === cause)?.bytes ?? Number.NaN;

const modelledSides = Object.values(SINGLE_EXPERIMENTS).flatMap((experiment) =>
  (['before', 'after'] as const).filter((side) => experiment[side].runtimeModelled).map((side) => [experiment.id, side] as const),
);

describe('itemiseGap: "this runtime" against PyTorch on CUDA, rule by rule', () => {
  it.each(modelledSides)('%s, %s: the items add up to this runtime minus the engine peak', async (id, side) => {
    const { gap, pytorchBytes, spec } = await gapOf(id, side);
    const sum = gap.items.reduce((total, item) => total + item.bytes, 0);
    expect(sum).toBe(gap.runtime.peakBytes - pytorchBytes);
    expect(gap.runtime.peakBytes).toBe(await predictSingleRun(spec, loadLabSchedule));
  });

  it.each(modelledSides)('%s, %s: size classes and waiting for a flush each add bytes', async (id, side) => {
    const { gap } = await gapOf(id, side);
    expect(byCause(gap, 'size-classes')).toBeGreaterThan(0);
    expect(byCause(gap, 'reuse-after-flush')).toBeGreaterThanOrEqual(0);
  });

  it('only the micro-batch side holds a second gradient set', async () => {
    expect(byCause((await gapOf('gradient-accumulation', 'before')).gap, 'second-gradient-set')).toBe(0);
    expect(byCause((await gapOf('gradient-accumulation', 'after')).gap, 'second-gradient-set')).toBeGreaterThan(0);
  });

  it('width 256 (tests/fixtures/lab/traces/gradient-accumulation.h256.json): accumulation raises the measured peak, this runtime predicts the rise, PyTorch a drop', async () => {
    expect(measuredPeak('gradient-accumulation', 'after', 256)).toBeGreaterThan(
      measuredPeak('gradient-accumulation', 'before', 256),
    );
    const before = await gapOf('gradient-accumulation', 'before', 256);
    const after = await gapOf('gradient-accumulation', 'after', 256);
    expect(after.gap.runtime.peakBytes).toBeGreaterThan(before.gap.runtime.peakBytes);
    expect(after.pytorchBytes).toBeLessThan(before.pytorchBytes);
    // Without the second set (in-place accumulation), this runtime too would predict no rise.
    expect(after.gap.runtime.peakBytes - byCause(after.gap, 'second-gradient-set')).toBeLessThan(before.gap.runtime.peakBytes);
  });

  it('lesson 3’s figures (gradient-accumulation.mdx, width 256): measured 4,304,232 → 5,160,976 B in the trace, this runtime 4,550,072 → 5,177,504 B', async () => {
    expect([measuredPeak('gradient-accumulation', 'before', 256), measuredPeak('gradient-accumulation', 'after', 256)]).toEqual([
      4_304_232, 5_160_976,
    ]);
    const predicted = [
      (await gapOf('gradient-accumulation', 'before', 256)).gap.runtime.peakBytes,
      (await gapOf('gradient-accumulation', 'after', 256)).gap.runtime.peakBytes,
    ];
    expect(predicted).toEqual([4_550_072, 5_177_504]);
  });

  it('the lab places every micro-batch’s examples and labels: the same bytes however the batch is split', async () => {
    const before = byCause((await gapOf('gradient-accumulation', 'before')).gap, 'examples-and-labels');
    expect(before).toBeGreaterThan(0);
    expect(byCause((await gapOf('gradient-accumulation', 'after')).gap, 'examples-and-labels')).toBe(before);
  });
});
