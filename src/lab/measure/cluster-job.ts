/**
 * One device's part of a multi-device job, after a warm-up where the backend wants one
 * (warm-up.ts): a data-parallel or ZeRO replica, or a pipeline stage.
 */
import type { DeviceRun } from './cluster-device';
import type { ClusterJob, DeviceResult } from './cluster-jobs';
import { withKeyPrefix } from './comm';
import { runPipelineStage } from './pipeline-stage';
import { runReplica } from './replica';
import { warmsUp, warmUpBatch } from './warm-up';

function runJob(run: DeviceRun, job: ClusterJob): Promise<DeviceResult> {
  return job.kind === 'pipeline' ? runPipelineStage(run, job) : runReplica(run, job);
}

/**
 * Runs this device's job. The warm-up's messages carry keys of their own, so a device that
 * finishes it early cannot mix them up with the measured step's.
 */
export async function runClusterJob(run: DeviceRun, job: ClusterJob): Promise<DeviceResult> {
  if (warmsUp(run.exec.backend)) {
    const { exec } = run;
    const quiet = { ...exec, progress: (stage: string) => exec.progress(`compiling shaders (${stage})`) };
    const warmUp: DeviceRun = { exec: quiet, comm: withKeyPrefix(run.comm, 'warm-up/'), seed: run.seed, steps: 1 };
    await runJob(warmUp, { ...job, batch: warmUpBatch(job.kind === 'pipeline' ? job.microBatches : run.comm.size) });
  }
  return runJob(run, job);
}
