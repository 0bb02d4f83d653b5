/**
 * Data-parallel and ZeRO replicas (measure/replica.ts) on a local cluster compute what one
 * device computes: the averaged gradients equal the whole batch's, and sharding Adam's state
 * (ZeRO-2) leaves the updated weights those of the unsharded run (ZeRO-0).
 */
import { describe, expect, test } from 'vitest';
import { LABELS } from '../../../../src/graphs/tensor-names.ts';
import { weightFeeds } from '../../../../src/lab/measure/feeds.ts';
import { runReplica } from '../../../../src/lab/measure/replica.ts';
import { normRelativeError } from '../../graphs/helpers.ts';
import { deviceTrafficExecutor, floatUploads, type DeviceTraffic } from './device-traffic.ts';
import { localNodeCluster } from './node-executor.ts';
import { adam, BATCH, clusterTensors, expectSameGradients, files, models, oneDeviceStep, SEED } from './step-fixtures.ts';

describe('runReplica(run, job)', () => {
  test('data-parallel gradients (2 and 4 replicas, bucketed all-reduce) equal one-device gradients', async () => {
    const whole = await oneDeviceStep();
    for (const size of [2, 4]) {
      const devices = localNodeCluster(files, size, SEED, 1);
      const averaged = await clusterTensors(
        devices.map((run) => runReplica(run, { kind: 'data-parallel', model: models.segmentedKeep, batch: BATCH })),
      );
      expectSameGradients(averaged, whole.gradients);
    }
  });

  test('ZeRO-2 weights equal ZeRO-0 weights after two Adam steps, and differ from the initial weights', async () => {
    const job = (stage: 0 | 2) =>
      ({ kind: 'zero', model: models.segmentedKeep, batch: BATCH, stage, learningRate: 1e-2, adam }) as const;
    const zero0 = await clusterTensors(localNodeCluster(files, 2, SEED, 2).map((run) => runReplica(run, job(0))));
    const zero2 = await clusterTensors(localNodeCluster(files, 2, SEED, 2).map((run) => runReplica(run, job(2))));
    expectSameGradients(zero2, zero0);
    const initial = weightFeeds(models.segmentedKeep, SEED);
    for (const [name, feed] of Object.entries(initial))
      expect(normRelativeError(zero0[name] ?? [], feed.data as Float32Array), name).toBeGreaterThan(1e-3);
  });

  test('the averaged gradient lands in the device tensor Adam reads: no run uploads it again', async () => {
    const model = models.segmentedKeep;
    const gradientBytes = model.parameters.reduce((sum, p) => sum + 4 * p.shape.reduce((a, b) => a * b, 1), 0);
    const traffics: DeviceTraffic[] = [];
    const executor = () => {
      const { exec, traffic } = deviceTrafficExecutor(files);
      traffics.push(traffic);
      return exec;
    };
    const steps = 2;
    const job = { kind: 'zero', model, batch: BATCH, stage: 0, learningRate: 1e-2, adam } as const;
    await Promise.all(localNodeCluster(files, 2, SEED, steps, executor).map((run) => runReplica(run, job)));
    expect(traffics).toHaveLength(2);
    for (const traffic of traffics) {
      expect(floatUploads(traffic)).toEqual([]);
      expect(traffic.hostFeeds.filter((feed) => feed.input === LABELS)).toEqual([]);
      // Each step's buckets go down once for the all-reduce and their mean comes back once;
      // after the last step the updated weights are read for the comparison.
      expect(traffic.overwrittenBytes).toBe(steps * gradientBytes);
      expect(traffic.downloadedBytes).toBe(steps * gradientBytes + gradientBytes);
    }
  });
});
