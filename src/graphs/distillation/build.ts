/**
 * Generates the distillation experiment's files (build time): trains the teacher, stores it in
 * fp32 and int8, and builds the student's distillation step and inference graphs, each with its
 * schedule file beside it (the lab's runtime model predicts the experiment from them).
 */
import type * as Ort from 'onnxruntime-web';
import type { GraphBuilder } from '../builder.ts';
import { DTYPE_BYTES } from '../dtype.ts';
import { scheduleBytes, type GeneratedFile } from '../factory.ts';
import { buildFrozenInferenceGraph, type WeightStorage } from '../frozen.ts';
import type { ManifestGraph, ManifestTensor } from '../manifest.ts';
import { createMlp } from '../mlp.ts';
import { allParameters } from '../model.ts';
import { parameterCount } from '../params.ts';
import { schedulePath } from '../schedule-file.ts';
import { serializeModel } from '../serialize.ts';
import { buildInferenceGraph, buildTrainStepGraph } from '../variants.ts';
import { accuracyOf, distillationExamples } from './dataset.ts';
import type { DistillationManifest, FrozenModelEntry } from './manifest.ts';
import {
  DISTILLATION_LOSS,
  DISTILLATION_SPLITS,
  DISTILLATION_TASK,
  MEASURED_BATCH,
  STUDENT_SPEC,
  STUDENT_TRAINING,
  TEACHER_SPEC,
  TEACHER_TRAINING,
} from './spec.ts';
import { trainWithSgd } from './train.ts';
import { LOGITS } from '../tensor-names.ts';

/** Folder of the experiment's files under public/models/. */
export const DISTILLATION_DIR = 'distillation';

/** What the build writes, and how long teacher training took (for the build log only). */
export interface GeneratedDistillation {
  readonly manifest: DistillationManifest;
  readonly files: readonly GeneratedFile[];
  readonly trainingMs: number;
}

function describe(b: GraphBuilder, file: string, role: ManifestGraph['role'], bytes: Uint8Array): ManifestGraph {
  const tensors = (names: readonly string[]): ManifestTensor[] => names.map((name) => ({ name, ...b.info(name) }));
  return { file, role, inputs: tensors(b.inputs), outputs: tensors(b.outputs), bytes: bytes.length };
}

/** Bytes of every initializer except small shape/axis constants: the stored weights. */
function storedWeightBytes(b: GraphBuilder): number {
  let bytes = 0;
  for (const c of b.constants.values()) if (!c.name.startsWith('const/')) bytes += c.values.length * DTYPE_BYTES[c.info.dtype];
  return bytes;
}

/** Trains the teacher and writes every graph of the experiment. */
export async function generateDistillation(ort: typeof Ort): Promise<GeneratedDistillation> {
  const teacher = createMlp(TEACHER_SPEC);
  const student = createMlp(STUDENT_SPEC);
  const test = distillationExamples(DISTILLATION_TASK, 'test', DISTILLATION_SPLITS.test);
  const started = performance.now();
  const weights = await trainWithSgd(
    ort,
    teacher,
    distillationExamples(DISTILLATION_TASK, 'teacher-train', DISTILLATION_SPLITS.teacherTrain),
    TEACHER_TRAINING,
  );
  const trainingMs = performance.now() - started;

  const files: GeneratedFile[] = [];
  const schedules: GeneratedFile[] = [];
  const emit = (b: GraphBuilder, name: string, role: ManifestGraph['role']): ManifestGraph => {
    const bytes = serializeModel(b, `distillation ${name}`);
    const path = `${DISTILLATION_DIR}/${name}.onnx`;
    files.push({ path, bytes });
    schedules.push({ path: schedulePath(path), bytes: scheduleBytes(b) });
    return describe(b, path, role, bytes);
  };
  const frozen = async (storage: WeightStorage): Promise<FrozenModelEntry> => {
    const b = buildFrozenInferenceGraph(teacher, weights, storage);
    const graph = emit(b, `teacher-${storage}`, 'inference');
    // Accuracy of the stored file itself, so the int8 rounding is included.
    const session = await ort.InferenceSession.create(files.at(-1)?.bytes ?? new Uint8Array(), { executionProviders: ['wasm'] });
    const logits = (await session.run({ x: new ort.Tensor('float32', test.x, [test.count, DISTILLATION_TASK.inputs]) }))[LOGITS]
      ?.data as Float32Array;
    await session.release();
    return {
      graph,
      weightBytes: storedWeightBytes(b),
      buildAccuracy: accuracyOf(logits, test.labels, DISTILLATION_TASK.classes),
    };
  };
  const fp32 = await frozen('fp32');
  const int8 = await frozen('int8');
  const parameters = allParameters(student);
  const manifest: DistillationManifest = {
    version: 1,
    task: DISTILLATION_TASK,
    splits: DISTILLATION_SPLITS,
    measuredBatch: MEASURED_BATCH,
    teacher: {
      spec: TEACHER_SPEC,
      parameterCount: parameterCount(allParameters(teacher)),
      training: TEACHER_TRAINING,
      fp32,
      int8,
    },
    student: {
      spec: STUDENT_SPEC,
      parameterCount: parameterCount(parameters),
      parameters,
      training: STUDENT_TRAINING,
      loss: DISTILLATION_LOSS,
      step: emit(buildTrainStepGraph(student, { sgd: true, distillation: true }), 'student-step', 'train-step'),
      inference: emit(buildInferenceGraph(student), 'student', 'inference'),
    },
  };
  return { manifest, files: [...files, ...schedules], trainingMs };
}
