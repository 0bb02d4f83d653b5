/// <reference lib="webworker" />
/**
 * Measures the distillation experiment's models (measure/distillation.ts) in a fresh runtime.
 */
import type { DistillationRequest, DistillationResponse } from './protocol';
import { distillationRun, runDistillationJobs } from '../../measure/distillation';
import { postProgress, serveRequests } from '../../worker/channel';
import { startMeasuredRuntime } from '../../worker/measured-runtime';

serveRequests(async (request: DistillationRequest): Promise<DistillationResponse> => {
  postProgress({ kind: 'starting-runtime' });
  const exec = await startMeasuredRuntime({
    ...request,
    warmUpFile: request.manifest.student.inference.file,
    progress: (stage) => postProgress(stage),
  });
  const results = await runDistillationJobs(
    distillationRun(exec, request.manifest, request.batch),
    request.jobs,
    request.softTargets,
  );
  return { results, adapter: exec.store.adapter };
});
