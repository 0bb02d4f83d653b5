/**
 * The distillation experiment's measurements: the teacher's forward pass in fp32 and in int8
 * (weights inside the .onnx files), the student's, and two trainings of the student, with soft
 * targets and with hard labels only. Each model's session is released before the next is
 * measured, because onnxruntime-web frees a session's GPU buffers only when the last session
 * goes (as src/lab/worker/variant.worker.ts does between variants, for the same reason).
 */
import {
  accuracyOf,
  ALPHA,
  distillationExamples,
  FEATURES,
  initWeights,
  isNext,
  LABELS,
  LEARNING_RATE,
  LOGITS,
  LOSS,
  nextName,
  TEACHER_LOGITS,
  TEMPERATURE,
  type DistillationManifest,
  type LabelledExamples,
} from '../../graphs/browser-safe';
import type { Executor, Session, Tensor, Tensors } from './executor';
import type { MeasuredMemory } from './measured-memory';

/** What one job measures: a teacher (fp32 or int8) forward pass, or the student's. */
export type DistillationJob = 'teacher-fp32' | 'teacher-int8' | 'student';

/** Memory and time of one model's measured forward pass. */
export interface ForwardMeasurement extends MeasuredMemory {
  /** Wall time of the second (warm) forward pass, milliseconds. */
  readonly forwardMs: number;
}

/** A teacher job's result. */
export interface TeacherResult {
  readonly job: 'teacher-fp32' | 'teacher-int8';
  readonly forward: ForwardMeasurement;
  /** Test-set accuracy of this stored model. */
  readonly accuracy: number;
  /** Logits on the student's training set (fp32 teacher only): the soft targets. */
  readonly softTargets?: Float32Array;
}

/** One training run of the student. */
export interface StudentRun {
  /** Weight of the soft term: 0 for hard labels only. */
  readonly alpha: number;
  readonly finalLoss: number;
  readonly accuracy: number;
  readonly trainMs: number;
}

/** The student job's result. */
export interface StudentResult {
  readonly job: 'student';
  readonly forward: ForwardMeasurement;
  readonly distilled: StudentRun;
  readonly hardOnly: StudentRun;
}

/** Either job's result. */
export type DistillationJobResult = TeacherResult | StudentResult;

/** What every job of a run shares: the executor, the manifest, the measured batch and the test set. */
export interface DistillationRun {
  readonly exec: Executor;
  readonly manifest: DistillationManifest;
  /** Examples in the measured forward pass. */
  readonly batch: number;
  readonly test: LabelledExamples;
}

/** A run's shared parts, with the test set generated from the manifest's task. */
export function distillationRun(exec: Executor, manifest: DistillationManifest, batch: number): DistillationRun {
  return { exec, manifest, batch, test: distillationExamples(manifest.task, 'test', manifest.splits.test) };
}

/** Runs `jobs` in order; the student trains on the fp32 teacher's soft targets (given, or made by an earlier job). */
export async function runDistillationJobs(
  run: DistillationRun,
  jobs: readonly DistillationJob[],
  softTargets?: Float32Array,
): Promise<DistillationJobResult[]> {
  const results: DistillationJobResult[] = [];
  let targets = softTargets;
  for (const job of jobs) {
    if (job === 'student') {
      if (!targets) throw new Error('the student needs the fp32 teacher’s soft targets first');
      results.push(await runStudent(run, targets));
    } else {
      const result = await runTeacher(run, job);
      targets ??= result.softTargets;
      results.push(result);
    }
  }
  return results;
}

/** The first `count` rows of a split. */
function firstRows(examples: LabelledExamples, count: number): LabelledExamples {
  const width = examples.x.length / examples.count;
  return { x: examples.x.slice(0, count * width), labels: examples.labels.slice(0, count), count };
}

/** Logits of a forward pass, read back to the host. */
export async function logitsOf(
  exec: Executor,
  session: Session,
  weights: Readonly<Tensors>,
  examples: LabelledExamples,
): Promise<Float32Array> {
  const x = exec.host({ data: examples.x, dims: [examples.count, examples.x.length / examples.count] });
  const outputs = await exec.run(session, { ...weights, [FEATURES]: x });
  const logits = outputs[LOGITS];
  if (!logits) throw new Error('the model returned no logits');
  const values = await exec.read(logits);
  for (const tensor of Object.values(outputs)) tensor.dispose();
  return values;
}

/**
 * Loads a model (`open`) and runs its forward pass on the measured batch twice (the first compiles
 * shaders), counting memory from before the load.
 */
async function measureForward(
  run: DistillationRun,
  job: DistillationJob,
  open: () => Promise<{ session: Session; weights: Tensors }>,
): Promise<{ session: Session; weights: Tensors; forward: ForwardMeasurement }> {
  const { exec } = run;
  const batch = firstRows(run.test, run.batch);
  exec.progress({ kind: 'forward-loading', job });
  const measurement = exec.meter.start(job);
  const { session, weights } = await open();
  const atRestBytes = measurement.counted();
  exec.progress({ kind: 'forward-pass', job, compiling: exec.store.onDevice });
  await logitsOf(exec, session, weights, batch);
  const started = exec.now();
  await logitsOf(exec, session, weights, batch);
  const forwardMs = exec.now() - started;
  const memory = measurement.finish(atRestBytes, measurement.counted());
  return { session, weights, forward: { ...memory, forwardMs } };
}

/** The student's training set, on which the teacher's logits are the soft targets. */
function studentSet(manifest: DistillationManifest): LabelledExamples {
  return distillationExamples(manifest.task, 'student-train', manifest.splits.studentTrain);
}

/** Measures a stored teacher's forward pass and test accuracy; the fp32 one also makes the soft targets. */
async function runTeacher(run: DistillationRun, job: 'teacher-fp32' | 'teacher-int8'): Promise<TeacherResult> {
  const { exec, manifest } = run;
  const entry = job === 'teacher-fp32' ? manifest.teacher.fp32 : manifest.teacher.int8;
  // The weights are initializers inside the file: onnxruntime-web places them at session creation.
  const { session, forward } = await measureForward(run, job, async () => ({
    session: await exec.open(entry.graph),
    weights: {},
  }));
  exec.progress({ kind: 'test-accuracy', job });
  const accuracy = accuracyOf(await logitsOf(exec, session, {}, run.test), run.test.labels, manifest.task.classes);
  const softTargets = job === 'teacher-fp32' ? await logitsOf(exec, session, {}, studentSet(manifest)) : undefined;
  await session.release();
  return { job, forward, accuracy, ...(softTargets ? { softTargets } : {}) };
}

/** The student's initial weights from its training seed, placed where the model runs. */
function initialWeights(run: DistillationRun): Tensors {
  const { parameters, training } = run.manifest.student;
  const values = initWeights(parameters, training.seed);
  return Object.fromEntries(
    parameters.map((p) => [p.name, run.exec.store.place({ data: values[p.name] ?? new Float32Array(), dims: p.shape })]),
  );
}

/** The student's part of the manifest. */
export type StudentEntry = DistillationManifest['student'];

/**
 * One SGD step of the student's distillation graph: `data` (x, labels, teacher_logits) and
 * `weights` in, the loss and the updated weights (`next.*`) out, with soft-target weight `alpha`
 * (Hinton et al. 2015, arXiv 1503.02531, §2; the loss is built in graphs/distillation-loss.ts).
 */
export function studentStep(
  exec: Executor,
  step: Session,
  student: StudentEntry,
  data: Readonly<Tensors>,
  weights: Readonly<Tensors>,
  alpha: number,
): Promise<Tensors> {
  return exec.run(step, {
    ...data,
    ...weights,
    [TEMPERATURE]: exec.scalar(student.loss.temperature),
    [ALPHA]: exec.scalar(alpha),
    [LEARNING_RATE]: exec.scalar(student.training.lr),
  });
}

/**
 * Trains the student from its initial weights with the SGD step graph for the manifest's steps,
 * with soft-target weight `alpha` (`targets` names it in the progress line), and returns its final
 * loss and test accuracy.
 */
export async function trainStudent(
  run: DistillationRun,
  step: Session,
  inference: Session,
  softTargets: Float32Array,
  alpha: number,
  targets: 'soft' | 'hard',
): Promise<StudentRun> {
  const { exec, manifest } = run;
  const { student, task } = manifest;
  const examples = studentSet(manifest);
  // Data, labels and soft targets are uploaded once and reused by every step, like the weights.
  const fixed: Tensors = {
    [FEATURES]: exec.store.place({ data: examples.x, dims: [examples.count, task.inputs] }),
    [LABELS]: exec.store.place({ data: examples.labels, dims: [examples.count] }),
    [TEACHER_LOGITS]: exec.store.place({ data: softTargets, dims: [examples.count, task.classes] }),
  };
  let weights = initialWeights(run);
  let finalLoss = Number.NaN;
  const started = exec.now();
  for (let s = 0; s < student.training.steps; s++) {
    if (s % 20 === 0) exec.progress({ kind: 'training', targets, step: s + 1, steps: student.training.steps });
    const out = await studentStep(exec, step, student, fixed, weights, alpha);
    // The loss stays on the GPU and is read back only after the last step: a read-back per step
    // would make every step wait for the GPU (slow on software adapters).
    if (s === student.training.steps - 1) {
      const loss = out[LOSS];
      finalLoss = loss ? ((await exec.read(loss))[0] ?? Number.NaN) : Number.NaN;
      if (!Number.isFinite(finalLoss))
        throw new Error(`student training diverged (final loss ${finalLoss}); the experiment's settings are broken`);
    }
    out[LOSS]?.dispose();
    for (const tensor of Object.values(weights)) tensor.dispose();
    weights = Object.fromEntries(student.parameters.map((p) => [p.name, out[nextName(p.name)] as Tensor]));
  }
  const trainMs = exec.now() - started;
  const accuracy = accuracyOf(await logitsOf(exec, inference, weights, run.test), run.test.labels, task.classes);
  for (const tensor of [...Object.values(weights), ...Object.values(fixed)]) tensor.dispose();
  return { alpha, finalLoss, accuracy, trainMs };
}

/** Measures the student's forward pass, then trains it with soft targets and with hard labels only. */
async function runStudent(run: DistillationRun, softTargets: Float32Array): Promise<StudentResult> {
  const { exec, manifest } = run;
  const { student } = manifest;
  // Measured first, before training grows the WebAssembly heap; memory does not depend on the values.
  const {
    session: inference,
    weights: untrained,
    forward,
  } = await measureForward(run, 'student', async () => ({
    session: await exec.open(student.inference),
    weights: initialWeights(run),
  }));
  for (const tensor of Object.values(untrained)) tensor.dispose();
  const step = await exec.open(student.step, (name) => isNext(name) || name === LOSS);
  const distilled = await trainStudent(run, step, inference, softTargets, student.loss.alpha, 'soft');
  const hardOnly = await trainStudent(run, step, inference, softTargets, 0, 'hard');
  await step.release();
  await inference.release();
  return { job: 'student', forward, distilled, hardOnly };
}
