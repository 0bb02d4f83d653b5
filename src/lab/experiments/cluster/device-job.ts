/**
 * What one device of a cluster experiment runs for its job: a pipeline stage, or a data-parallel
 * or ZeRO replica. The device worker (cluster.worker.ts) and "this runtime" (runtime-prediction.ts)
 * run the same loop.
 */
import type { DeviceRun } from '../../measure/cluster-device';
import type { ClusterJob, DeviceResult } from '../../measure/cluster-job';
import { runPipelineStage } from '../../measure/pipeline-stage';
import { runReplica } from '../../measure/replica';

/** Runs device `run`'s part of `job`. */
export function runDeviceJob(run: DeviceRun, job: ClusterJob): Promise<DeviceResult> {
  return job.kind === 'pipeline' ? runPipelineStage(run, job) : runReplica(run, job);
}
