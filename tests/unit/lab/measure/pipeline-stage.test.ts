/**
 * Pipeline stages (measure/pipeline-stage.ts) on a local cluster, on a 1F1B schedule, compute
 * what one device computes.
 */
import { describe, expect, test } from 'vitest';
import { LABELS } from '../../../../src/graphs/tensor-names.ts';
import { runPipelineStage } from '../../../../src/lab/measure/pipeline-stage.ts';
import { deviceTrafficExecutor, floatUploads, type DeviceTraffic } from './device-traffic.ts';
import { localNodeCluster } from './node-executor.ts';
import { accumulate, BATCH, expectSameGradients, files, models, oneDeviceStep, SEED } from './step-fixtures.ts';

describe('runPipelineStage(run, job)', () => {
  test('1F1B pipeline gradients (2 stages, 4 micro-batches) equal one-device gradients', async () => {
    const whole = await oneDeviceStep();
    const devices = localNodeCluster(files, 2, SEED, 1);
    const job = { kind: 'pipeline', model: models.stages2, batch: BATCH, microBatches: 4, accumulate } as const;
    const results = await Promise.all(devices.map((run) => runPipelineStage(run, job)));
    expectSameGradients(Object.assign({}, ...results.map((r) => r.tensors)) as Record<string, Float32Array>, whole.gradients);
    // The last stage reports the mean of its micro-batches' losses: the whole batch's loss.
    expect(results[1]?.loss).toBeCloseTo(whole.loss, 5);
  });

  test('the activation a stage sends stays on its device for its backward; the features and labels are placed once', async () => {
    const traffics: DeviceTraffic[] = [];
    const executor = () => {
      const { exec, traffic } = deviceTrafficExecutor(files);
      traffics.push(traffic);
      return exec;
    };
    const job = { kind: 'pipeline', model: models.stages2, batch: BATCH, microBatches: 4, accumulate } as const;
    await Promise.all(localNodeCluster(files, 2, SEED, 2, executor).map((run) => runPipelineStage(run, job)));
    for (const traffic of traffics) {
      expect(floatUploads(traffic)).toEqual([]);
      // Labels too: placed with the features, never a host feed (int64 ones sent the loss's one-hot to the CPU).
      expect(traffic.hostFeeds.filter((feed) => feed.input === LABELS)).toEqual([]);
    }
  });
});
