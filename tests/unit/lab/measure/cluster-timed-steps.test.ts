/**
 * Cluster devices time extra steps after their measurement (measure/cluster-device.ts): every device
 * runs them, so the collectives and point-to-point messages stay matched and the run ends, and they
 * change neither the memory figures nor the tensors compared with the one-device reference.
 */
import { describe, expect, test } from 'vitest';
import type { ClusterExperimentId } from '../../../../src/lab/experiments/cluster/experiments.ts';
import { runDeviceJob } from '../../../../src/lab/experiments/cluster/device-job.ts';
import { localCluster } from '../../../../src/lab/experiments/cluster/local-cluster.ts';
import type { ClusterJob, DeviceResult } from '../../../../src/lab/measure/cluster-job.ts';
import { createRuntimeExecutor } from '../../../../src/lab/runtime-model/runtime-executor.ts';
import { clusterSideOf } from '../runtime-model/cluster-sides.ts';
import { loadLabSchedule } from '../runtime-model/lab-graphs.ts';
import { localNodeCluster } from './node-executor.ts';
import { accumulate, adam, BATCH, files, models, SEED } from './step-fixtures.ts';

const DEVICES = 2;
const TIMED_STEPS = 4;

/** One job of each kind on the small MLP; ZeRO-2 moves the weights at every step, so a late read would show. */
const JOBS: readonly (readonly [string, ClusterJob])[] = [
  ['data parallel', { kind: 'data-parallel', model: models.segmentedKeep, batch: BATCH }],
  ['ZeRO-2', { kind: 'zero', model: models.segmentedKeep, batch: BATCH, stage: 2, learningRate: 1e-2, adam }],
  ['pipeline, 4 micro-batches', { kind: 'pipeline', model: models.stages2, batch: BATCH, microBatches: 4, accumulate }],
];

/** Every device of `job` on a local cluster, measuring `steps` and timing `timedSteps` in all when given. */
function runCluster(job: ClusterJob, steps: number, timedSteps?: number): Promise<DeviceResult[]> {
  const runs = localNodeCluster(files, DEVICES, SEED, steps).map((run) =>
    timedSteps === undefined ? run : { ...run, timedSteps },
  );
  return Promise.all(runs.map((run) => runDeviceJob(run, job)));
}

/** A device's memory figures without the timeline, whose times differ from run to run. */
const memoryFigures = ({ memory: { timeline: _timeline, ...figures } }: DeviceResult) => figures;

describe('cluster devices time extra steps after measuring', () => {
  test.each(JOBS)(
    '%s: every device times the same number of steps, and reports the measured steps’ tensors and loss',
    async (_, job) => {
      const alone = await runCluster(job, 1);
      const timed = await runCluster(job, 1, TIMED_STEPS);
      for (const [rank, device] of timed.entries()) {
        const reference = alone[rank]!;
        expect(reference.stepTimes.count).toBe(1);
        expect(device.stepTimes.count).toBe(TIMED_STEPS);
        expect(device.stepTimes.minMs).toBeLessThanOrEqual(device.stepTimes.medianMs);
        expect(device.stepTimes.medianMs).toBeLessThanOrEqual(device.stepTimes.maxMs);
        expect(device.stepMs).toBe(device.stepTimes.medianMs);
        // Same inputs, same summation order: the compared tensors are bit for bit those of the measured step.
        expect(Object.keys(device.tensors).length).toBeGreaterThan(0);
        expect(device.tensors).toEqual(reference.tensors);
        expect(device.loss).toBe(reference.loss);
      }
    },
  );

  test('measured steps count towards the timed ones: two measured of three timed runs one extra step', async () => {
    const job = JOBS[0]![1];
    for (const device of await runCluster(job, 2, 3)) expect(device.stepTimes.count).toBe(3);
    for (const device of await runCluster(job, 2, 1)) expect(device.stepTimes.count).toBe(2);
  });

  test.each(['data-parallel', 'zero-sharding', 'pipeline-parallel'] as const satisfies readonly ClusterExperimentId[])(
    '%s on WebGPU’s buffers (the runtime model): every device’s memory figures are those of its measured step alone',
    async (id) => {
      const { job, devices, steps } = clusterSideOf(id, 'after').run;
      const run = (timedSteps?: number) =>
        Promise.all(
          localCluster(devices, SEED, steps, () => createRuntimeExecutor({ loadSchedule: loadLabSchedule })).map((device) =>
            runDeviceJob(timedSteps === undefined ? device : { ...device, timedSteps }, job),
          ),
        );
      const alone = await run();
      const timed = await run(TIMED_STEPS);
      expect(timed.map((device) => device.stepTimes.count)).toEqual(Array<number>(devices).fill(TIMED_STEPS));
      expect(timed.map(memoryFigures)).toEqual(alone.map(memoryFigures));
      for (const device of alone) expect(device.memory.peakBytes).toBeGreaterThan(device.memory.baselineBytes);
    },
  );
});
