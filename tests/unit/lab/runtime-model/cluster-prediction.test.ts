import { describe, expect, it } from 'vitest';
import { itemiseClusterGaps, predictClusterSide } from '../../../../src/lab/experiments/cluster/runtime-prediction.ts';
import { clusterSideOf, measuredDevices } from './cluster-sides.ts';
import { loadLabSchedule } from './lab-graphs.ts';

const sides = [
  ['data-parallel', 'before'],
  ['data-parallel', 'after'],
  ['zero-sharding', 'before'],
  ['zero-sharding', 'after'],
  ['pipeline-parallel', 'before'],
  ['pipeline-parallel', 'after'],
] as const;

/** Measured ÷ "this runtime" for what the trace recorded: each device, or (before) the busiest one. */
async function ratios(id: (typeof sides)[number][0], side: 'before' | 'after', hidden?: number): Promise<number[]> {
  const predicted = await predictClusterSide(clusterSideOf(id, side, hidden).run, loadLabSchedule);
  const measured = measuredDevices(id, side, hidden);
  const compared = side === 'before' ? [Math.max(...predicted)] : predicted;
  expect(measured).toHaveLength(compared.length);
  return measured.map((bytes, rank) => bytes / (compared[rank] ?? Number.NaN));
}

describe('"this runtime" for the cluster experiments (each device’s own loop on the runtime model) against the recorded WebGPU traces (onnxruntime-web 1.30.0)', () => {
  it.each(sides)('%s, %s, software sizes: every device measured within 10 percent of its prediction', async (id, side) => {
    for (const ratio of await ratios(id, side)) {
      expect(ratio).toBeGreaterThanOrEqual(0.9);
      expect(ratio).toBeLessThanOrEqual(1.1);
    }
  });

  it.each(sides)('%s, %s, at width 256: every device measured within 10 percent of its prediction', async (id, side) => {
    for (const ratio of await ratios(id, side, 256)) {
      expect(ratio).toBeGreaterThanOrEqual(0.9);
      expect(ratio).toBeLessThanOrEqual(1.1);
    }
  });

  it.each(sides)(
    '%s, %s: each device’s gap items add up to its prediction minus the engine’s per-device peak',
    async (id, side) => {
      const { run, pytorchBytes } = clusterSideOf(id, side);
      const gaps = await itemiseClusterGaps(run, loadLabSchedule, pytorchBytes);
      expect(gaps.map((gap) => gap.runtime.peakBytes)).toEqual(await predictClusterSide(run, loadLabSchedule));
      for (const gap of gaps)
        expect(gap.items.reduce((sum, item) => sum + item.bytes, 0)).toBe(gap.runtime.peakBytes - pytorchBytes);
    },
  );

  it('the pipeline’s stages add each micro-batch’s gradients out of place (sum = a + b): a second gradient set; data parallel accumulates nothing and holds none', async () => {
    const pipeline = await itemiseClusterGaps(clusterSideOf('pipeline-parallel', 'after').run, loadLabSchedule, 0);
    for (const gap of pipeline) expect(gap.items.find((item) => item.cause === 'second-gradient-set')?.bytes).toBeGreaterThan(0);
    const dataParallel = await itemiseClusterGaps(clusterSideOf('data-parallel', 'after').run, loadLabSchedule, 0);
    for (const gap of dataParallel) expect(gap.items.find((item) => item.cause === 'second-gradient-set')?.bytes).toBe(0);
  });
});
