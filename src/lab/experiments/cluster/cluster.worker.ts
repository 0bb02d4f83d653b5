/**
 * One device of a cluster experiment: a fresh WebGPU device (or WebAssembly heap) and
 * onnxruntime-web instance with its own memory count, running its part of the job (a
 * data-parallel or ZeRO replica, or a pipeline stage) and talking to the other devices through
 * the page.
 */
import type { ClusterJob, DeliveryMessage, DeviceResult } from '../../measure/cluster-job';
import type { DeviceRun } from '../../measure/cluster-device';
import type { RunStage } from '../../measure/run-stage';
import { createComm, withKeyPrefix, type Comm } from '../../measure/comm';
import { classifyFailure } from '../../results/classify-failure';
import { onPageMessage, postToPage } from '../../worker/channel';
import { startMeasuredRuntime } from '../../worker/measured-runtime';
import { warmsUp, warmUpBatch } from '../warm-up';
import { runDeviceJob } from './device-job';
import type { ClusterMessage, ClusterStart } from './protocol';

/**
 * Runs this device's job after a warm-up where the backend wants one (warm-up.ts). The
 * warm-up's messages carry keys of their own, so a device that finishes it early cannot mix
 * them up with the measured step's.
 */
async function runWarmJob(run: DeviceRun, job: ClusterJob): Promise<DeviceResult> {
  if (warmsUp(run.exec.backend)) {
    const { exec } = run;
    const quiet = { ...exec, progress: (stage: RunStage) => exec.progress({ kind: 'warm-up', stage }) };
    const warmUp: DeviceRun = { exec: quiet, comm: withKeyPrefix(run.comm, 'warm-up/'), seed: run.seed, steps: 1 };
    await runDeviceJob(warmUp, { ...job, batch: warmUpBatch(job.kind === 'pipeline' ? job.microBatches : run.comm.size) });
  }
  return runDeviceJob(run, job);
}

const post = (message: ClusterMessage): void => postToPage(message);
let comm: Comm | undefined;

onPageMessage((message: ClusterStart | DeliveryMessage) => {
  if (message.type === 'deliver') {
    comm?.deliver(message);
    return;
  }
  const { rank } = message;
  const link = createComm(rank, message.size, post);
  comm = link;
  const progress = (stage: RunStage, sample?: { step: number; bytes: number }): void =>
    post({ type: 'progress', rank, stage, ...sample });
  progress({ kind: 'starting-runtime' });
  startMeasuredRuntime({ ...message, warmUpFile: message.job.model.graphs[0]?.file, progress })
    .then((exec) =>
      runWarmJob({ exec, comm: link, seed: message.seed, steps: message.steps, timedSteps: message.timedSteps }, message.job),
    )
    .then(
      (result) => post({ type: 'result', result }),
      (error: unknown) => {
        const text = error instanceof Error ? error.message : String(error);
        post({ type: 'error', rank, kind: classifyFailure(text), message: text });
      },
    );
});
