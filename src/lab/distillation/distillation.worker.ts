/// <reference lib="webworker" />
/**
 * Measures the distillation experiment's models in a fresh runtime: the teacher's forward pass
 * in fp32 and in int8 (weights inside the .onnx files), and the student's; and trains the student
 * twice, with soft targets and with hard labels only. Each model's session is released before the
 * next is measured, because onnxruntime-web frees a session's GPU buffers only when the last
 * session goes (ONNXRUNTIME-WEB.md).
 */
import { accuracyOf, distillationExamples, type LabelledExamples } from '../../graphs/distillation/dataset';
import type { DistillationManifest } from '../../graphs/distillation/manifest';
import { initWeights } from '../../graphs/init';
import type { MemoryTracker } from '../memory-tracker';
import type { WasmHeapProbe } from '../wasm-heap';
import { cpuTensor, createSession, fetchGraph, placeWeight, startMeasuredRuntime, type Ort, type Session, type Tensor, type WorkerDevice } from '../worker-gpu';
import { postProgress, serveRequests } from '../worker-channel';
import type { DistillationJobResult, DistillationRequest, ForwardMeasurement, StudentResult, StudentRun, TeacherResult } from './protocol';

serveRequests(run);

/** What every job shares. */
interface Context {
  readonly ort: Ort;
  readonly gpu: WorkerDevice;
  readonly tracker: MemoryTracker;
  readonly heap: WasmHeapProbe | undefined;
  readonly request: DistillationRequest;
  readonly test: LabelledExamples;
}

async function run(request: DistillationRequest): Promise<{ results: DistillationJobResult[]; adapter: string | null }> {
  const { manifest } = request;
  postProgress('Starting onnxruntime-web');
  const { ort, gpu, tracker, heap } = await startMeasuredRuntime(request.backend, request.runtime, request.modelsUrl, manifest.student.inference.file);
  const context: Context = { ort, gpu, tracker, heap, request, test: distillationExamples(manifest.task, 'test', manifest.splits.test) };
  const results: DistillationJobResult[] = [];
  let softTargets = request.softTargets;
  for (const job of request.jobs) {
    if (job === 'student') {
      if (!softTargets) throw new Error('the student needs the fp32 teacher’s soft targets first');
      results.push(await runStudent(context, softTargets));
    } else {
      const result = await runTeacher(context, job);
      softTargets ??= result.softTargets;
      results.push(result);
    }
  }
  return { results, adapter: gpu.adapter };
}

/** The first `count` rows of a split. */
function firstRows(examples: LabelledExamples, count: number): LabelledExamples {
  const width = examples.x.length / examples.count;
  return { x: examples.x.slice(0, count * width), labels: examples.labels.slice(0, count), count };
}

function inputTensor(ort: Ort, examples: LabelledExamples): Tensor {
  return cpuTensor(ort, { data: examples.x, dims: [examples.count, examples.x.length / examples.count] });
}

/** Logits of a forward pass, read back to the CPU. */
async function logitsOf(context: Context, session: Session, weights: Readonly<Record<string, Tensor>>, examples: LabelledExamples): Promise<Float32Array> {
  const outputs = await context.gpu.guard(session.run({ ...weights, x: inputTensor(context.ort, examples) }));
  const logits = outputs['logits'];
  if (!logits) throw new Error('the model returned no logits');
  const values = Float32Array.from((await logits.getData()) as Float32Array);
  for (const tensor of Object.values(outputs)) tensor.dispose();
  return values;
}

/**
 * Loads a model (`open`) and runs its forward pass on the measured batch twice (the first compiles
 * shaders), counting memory from before the load: a phase of the GPU-buffer tracker on WebGPU,
 * the heap's high-water mark on WASM.
 */
async function measureForward(
  context: Context,
  label: string,
  open: () => Promise<{ session: Session; weights: Record<string, Tensor> }>,
): Promise<{ session: Session; weights: Record<string, Tensor>; forward: ForwardMeasurement }> {
  const { tracker, heap, request } = context;
  const counted = (): number => heap?.bytes() ?? tracker.snapshot().liveBytes;
  const batch = firstRows(context.test, request.batch);
  postProgress(`${label}: loading`);
  const baselineBytes = counted();
  tracker.beginPhase(label);
  const { session, weights } = await open();
  const atRestBytes = counted();
  postProgress(`${label}: forward pass${request.backend === 'webgpu' ? ' (compiling shaders)' : ''}`);
  await logitsOf(context, session, weights, batch);
  const started = performance.now();
  await logitsOf(context, session, weights, batch);
  const forwardMs = performance.now() - started;
  const peakBytes = heap ? heap.bytes() : (tracker.snapshot().phases.at(-1)?.peakBytes ?? counted());
  tracker.endPhase();
  return { session, weights, forward: { kind: heap ? 'wasm-heap' : 'webgpu-buffers', baselineBytes, atRestBytes, peakBytes, forwardMs } };
}

async function runTeacher(context: Context, job: 'teacher-fp32' | 'teacher-int8'): Promise<TeacherResult> {
  const { manifest, modelsUrl } = context.request;
  const entry = job === 'teacher-fp32' ? manifest.teacher.fp32 : manifest.teacher.int8;
  const bytes = await fetchGraph(modelsUrl, entry.graph.file);
  const label = job === 'teacher-fp32' ? 'Teacher (fp32)' : 'Teacher (int8)';
  // The weights are initializers inside the file: onnxruntime-web places them at session creation.
  const { session, forward } = await measureForward(context, label, async () => ({ session: await createSession(context.ort, context.gpu, bytes), weights: {} }));
  postProgress(`${label}: test accuracy`);
  const accuracy = accuracyOf(await logitsOf(context, session, {}, context.test), context.test.labels, manifest.task.classes);
  const softTargets = job === 'teacher-fp32' ? await logitsOf(context, session, {}, studentSet(manifest)) : undefined;
  await session.release();
  return { job, forward, accuracy, ...(softTargets ? { softTargets } : {}) };
}

function studentSet(manifest: DistillationManifest): LabelledExamples {
  return distillationExamples(manifest.task, 'student-train', manifest.splits.studentTrain);
}

function initialWeights(context: Context): Record<string, Tensor> {
  const { parameters, training } = context.request.manifest.student;
  const values = initWeights(parameters, training.seed);
  return Object.fromEntries(parameters.map((p) => [p.name, placeWeight(context.ort, context.gpu, { data: values[p.name] ?? new Float32Array(), dims: p.shape })]));
}

async function runStudent(context: Context, softTargets: Float32Array): Promise<StudentResult> {
  const { ort, gpu, request } = context;
  const { student, task } = request.manifest;
  // Measured first, before training grows the WebAssembly heap; memory does not depend on the values.
  const inferenceBytes = await fetchGraph(request.modelsUrl, student.inference.file);
  const { session: inference, weights: untrained, forward } = await measureForward(context, 'Student', async () => ({
    session: await createSession(ort, gpu, inferenceBytes),
    weights: initialWeights(context),
  }));
  for (const tensor of Object.values(untrained)) tensor.dispose();

  const outputs = student.step.outputs.map((o) => o.name);
  const step = await createSession(ort, gpu, await fetchGraph(request.modelsUrl, student.step.file), (name) => name.startsWith('next.') || name === 'loss', outputs);
  const examples = studentSet(request.manifest);
  const scalar = (value: number): Tensor => new ort.Tensor('float32', Float32Array.of(value), []);
  const train = async (alpha: number, label: string): Promise<StudentRun> => {
    // Data and soft targets are uploaded once and reused by every step, like the weights.
    const fixed: Record<string, Tensor> = {
      x: placeWeight(ort, gpu, { data: examples.x, dims: [examples.count, task.inputs] }),
      teacher_logits: placeWeight(ort, gpu, { data: softTargets, dims: [examples.count, task.classes] }),
    };
    let weights = initialWeights(context);
    let finalLoss = Number.NaN;
    const started = performance.now();
    for (let s = 0; s < student.training.steps; s++) {
      if (s % 20 === 0) postProgress(`Training the student ${label}: step ${s + 1} of ${student.training.steps}`);
      const out = await gpu.guard(
        step.run({
          ...fixed,
          ...weights,
          labels: cpuTensor(ort, { data: examples.labels, dims: [examples.count] }),
          temperature: scalar(student.loss.temperature),
          alpha: scalar(alpha),
          lr: scalar(student.training.lr),
        }),
      );
      // The loss stays on the GPU and is read back only after the last step: a read-back per step
      // would make every step wait for the GPU (slow on software adapters).
      if (s === student.training.steps - 1) {
        finalLoss = Number(((await out['loss']?.getData()) as Float32Array | undefined)?.[0] ?? Number.NaN);
        if (!Number.isFinite(finalLoss)) throw new Error(`student training diverged (final loss ${finalLoss}); the experiment's settings are broken`);
      }
      out['loss']?.dispose();
      for (const tensor of Object.values(weights)) tensor.dispose();
      weights = Object.fromEntries(student.parameters.map((p) => [p.name, out[`next.${p.name}`] as Tensor]));
    }
    const trainMs = performance.now() - started;
    const accuracy = accuracyOf(await logitsOf(context, inference, weights, context.test), context.test.labels, task.classes);
    for (const tensor of [...Object.values(weights), ...Object.values(fixed)]) tensor.dispose();
    return { alpha, finalLoss, accuracy, trainMs };
  };
  const distilled = await train(student.loss.alpha, 'with soft targets');
  const hardOnly = await train(0, 'on hard labels only');
  await step.release();
  await inference.release();
  return { job: 'student', forward, distilled, hardOnly };
}
