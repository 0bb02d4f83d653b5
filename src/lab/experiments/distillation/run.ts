/**
 * Runs the distillation experiment from the page: picks the backend, downloads the runtime
 * (once per page), and measures the fp32 teacher (before), the student (after) and the int8
 * teacher (second after), next to the memory engine's predictions for the same models.
 */
import type { DistillationManifest, MlpSpec } from '../../../graphs/browser-safe';
import { loadModelsJson } from '../../page/manifest-loader';
import type { LabProgress, ProgressSide } from '../../page/progress';
import type { RunStage } from '../../measure/run-stage';
import type { Backend } from '../../measure/executor';
import type { BackendChoice } from '../../page/choose-backend';
import { LabRunError } from '../../page/lab-run-error';
import { startRun } from '../../page/start-run';
import { requestFromWorker } from '../../worker/channel';
import { loadGraphSchedule } from '../../page/schedule-loader';
import type { ItemisedGap } from '../../runtime-model/runtime-gap';
import { predictForwardBytes, predictWeightBytes, type StoredWeights } from './predict';
import { itemiseDistillationGap } from './runtime-prediction';
import { peakAbove } from '../../measure/measured-memory';
import type { DistillationJob, DistillationJobResult, StudentResult, TeacherResult } from '../../measure/distillation';
import type { DistillationRequest, DistillationResponse } from './protocol';
import { DISTILLATION_WORDS } from './words';

/** One measured model next to its prediction. */
export interface MeasuredModel<R> {
  readonly label: string;
  readonly parameterCount: number;
  readonly predictedBytes: number;
  /** The engine's weights line alone, to compare with what is held at rest. */
  readonly predictedWeightBytes: number;
  /**
   * "This runtime"'s prediction of the forward pass and its gap to `predictedBytes`, itemised;
   * null off WebGPU, where the runtime model does not apply.
   */
  readonly runtime: ItemisedGap | null;
  readonly result: R;
}

/** A finished run. */
export interface DistillationOutcome {
  readonly backend: Backend;
  /** Which backend ran and why, as data the page words. */
  readonly backendChoice: BackendChoice;
  readonly adapter: string | null;
  readonly batch: number;
  readonly teacher: MeasuredModel<TeacherResult>;
  readonly int8Teacher: MeasuredModel<TeacherResult>;
  readonly student: MeasuredModel<StudentResult>;
  /** Why this backend cannot show the memory saving, or null when it can. */
  readonly unmeasurable: string | null;
}

/** Bytes a model added over its fresh runtime: peak minus the count before it was loaded. */
export function measuredForwardBytes(result: { forward: { peakBytes: number; baselineBytes: number } }): number {
  return peakAbove(result.forward);
}

/** Runs `request` in a new worker, ended afterwards so the next request starts from a clean slate. */
function runWorker(request: DistillationRequest, onStage: (stage: RunStage) => void): Promise<DistillationResponse> {
  return requestFromWorker(
    new Worker(new URL('./distillation.worker.ts', import.meta.url), { type: 'module' }),
    request,
    onStage,
  );
}

/** Why `backend` cannot show the memory saving, or null when it can: said before Run and beside the results. */
export function distillationCaveat(backend: Backend): string | null {
  return backend === 'wasm' ? DISTILLATION_WORDS.wasmCaveat : null;
}

function pick<J extends DistillationJobResult['job']>(
  results: readonly DistillationJobResult[],
  job: J,
): Extract<DistillationJobResult, { job: J }> {
  const found = results.find((r) => r.job === job);
  if (!found) throw new Error(`the worker returned no ${job} result`);
  return found as Extract<DistillationJobResult, { job: J }>;
}

/** Runs the experiment end to end with the reader's measured batch. */
export async function runDistillation(batch: number, onProgress: (progress: LabProgress) => void): Promise<DistillationOutcome> {
  const { backend, backendChoice, runtime, modelsUrl } = await startRun({ needsF16: false }, onProgress);
  const loaded = await loadModelsJson<DistillationManifest>('distillation/manifest.json', 'the distillation manifest');
  if (!Number.isInteger(batch) || batch < 1 || batch > loaded.splits.test)
    throw new LabRunError('error', `The batch must be a whole number from 1 to ${loaded.splits.test} (the test set).`);
  const base = { backend, runtime, modelsUrl, manifest: loaded, batch };
  const stage = (side: ProgressSide) => (runStage: RunStage) => onProgress({ phase: 'run', sides: [side], stage: runStage });
  let results: DistillationJobResult[];
  let adapter: string | null = null;
  if (backend === 'webgpu') {
    // One worker: models one after another, each session released before the next is measured,
    // so later ones reuse the compiled shaders (minutes saved on software adapters).
    const all = await runWorker({ ...base, jobs: ['teacher-fp32', 'teacher-int8', 'student'] }, stage('distillation'));
    results = [...all.results];
    adapter = all.adapter;
  } else {
    // A worker each: a WebAssembly heap never shrinks and would hide the later models.
    results = [];
    for (const job of ['teacher-fp32', 'teacher-int8', 'student'] as DistillationJob[]) {
      const softTargets = results.find((r): r is TeacherResult => r.job === 'teacher-fp32')?.softTargets;
      const { results: one } = await runWorker({ ...base, jobs: [job], ...(softTargets ? { softTargets } : {}) }, stage(job));
      results.push(...one);
    }
  }
  const { teacher, student } = loaded;
  /** A job's figures beside its measurement; the schedules are fetched only now, on WebGPU. */
  const measured = async <J extends DistillationJob>(
    job: J,
    label: string,
    spec: MlpSpec,
    parameterCount: number,
    weights: StoredWeights,
  ): Promise<MeasuredModel<Extract<DistillationJobResult, { job: J }>>> => {
    const predictedBytes = predictForwardBytes(spec, weights, batch);
    return {
      label,
      parameterCount,
      predictedBytes,
      predictedWeightBytes: predictWeightBytes(spec, weights),
      runtime: backend === 'webgpu' ? await itemiseDistillationGap(loaded, job, batch, loadGraphSchedule, predictedBytes) : null,
      result: pick(results, job),
    };
  };
  return {
    backend,
    backendChoice,
    adapter,
    batch,
    teacher: await measured('teacher-fp32', DISTILLATION_WORDS.teacher, teacher.spec, teacher.parameterCount, 'fp32'),
    int8Teacher: await measured('teacher-int8', DISTILLATION_WORDS.int8Teacher, teacher.spec, teacher.parameterCount, 'int8'),
    student: await measured('student', DISTILLATION_WORDS.student, student.spec, student.parameterCount, 'fp32'),
    unmeasurable: distillationCaveat(backend),
  };
}
