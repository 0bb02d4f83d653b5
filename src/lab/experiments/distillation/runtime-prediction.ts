/**
 * "This runtime" for the distillation experiment: each of its jobs (measure/distillation.ts: the
 * fp32 teacher, the int8 teacher, the student) run on a fresh executor of the runtime model
 * (runtime-model/runtime-executor.ts), so the prediction follows the same session, forward passes
 * and read-backs as the measurement. A fresh executor per job, because onnxruntime-web destroys
 * its buffers when the last session is released and the page releases each model's sessions
 * before the next is measured. Pure: no WebGPU.
 */
import type { DistillationManifest } from '../../../graphs/browser-safe';
import { distillationRun, runDistillationJobs, type DistillationJob } from '../../measure/distillation';
import { peakAbove } from '../../measure/measured-memory';
import { createRuntimeExecutor, type ScheduleLoader } from '../../runtime-model/runtime-executor';
import { itemiseGap, type ItemisedGap } from '../../runtime-model/runtime-gap';
import { ONNXRUNTIME_RULES, type RuntimeRules } from '../../runtime-model/runtime-rules';

/**
 * "This runtime"'s forward-pass peak for `job` at `batch`, as the page reports a measured one:
 * bytes above the count before the model was loaded, at the busiest moment of its two forward
 * passes (no warm-up: its session is released before the first job).
 */
export async function predictDistillationJob(
  manifest: DistillationManifest,
  job: DistillationJob,
  batch: number,
  loadSchedule: ScheduleLoader,
  rules: RuntimeRules = ONNXRUNTIME_RULES,
): Promise<number> {
  const run = distillationRun(createRuntimeExecutor({ loadSchedule, rules }), manifest, batch);
  // The student trains on the fp32 teacher's logits; the model counts bytes, so zeros of their size do.
  const softTargets = new Float32Array(manifest.splits.studentTrain * manifest.task.classes);
  const [result] = await runDistillationJobs(run, [job], softTargets);
  if (!result) throw new Error(`the runtime model returned no ${job} result`);
  return peakAbove(result.forward);
}

/**
 * "This runtime"'s prediction for `job` and its gap to the engine's forward pass `pytorchBytes`,
 * itemised (runtime-gap.ts). The lab places no examples for a forward pass (each run uploads its
 * batch through the runtime's cache), and no gradients are added, so those items are zero.
 */
export function itemiseDistillationGap(
  manifest: DistillationManifest,
  job: DistillationJob,
  batch: number,
  loadSchedule: ScheduleLoader,
  pytorchBytes: number,
): Promise<ItemisedGap> {
  return itemiseGap((rules) => predictDistillationJob(manifest, job, batch, loadSchedule, rules), 0, pytorchBytes);
}
