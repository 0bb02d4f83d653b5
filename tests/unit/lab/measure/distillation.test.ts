/**
 * The distillation experiment's measuring loop in Node: the student's SGD step, fed the way the
 * browser feeds it, follows the gradient of its own loss (checked against finite differences),
 * and a whole run of jobs returns what the page reads.
 */
import { describe, expect, test } from 'vitest';
import type { GraphBuilder } from '../../../../src/graphs/builder.ts';
import { distillationExamples } from '../../../../src/graphs/distillation/dataset.ts';
import type { DistillationManifest } from '../../../../src/graphs/distillation/manifest.ts';
import {
  DISTILLATION_LOSS,
  DISTILLATION_SPLITS,
  DISTILLATION_TASK,
  MEASURED_BATCH,
  STUDENT_SPEC,
  STUDENT_TRAINING,
  TEACHER_SPEC,
  TEACHER_TRAINING,
} from '../../../../src/graphs/distillation/spec.ts';
import { generateUtility } from '../../../../src/graphs/factory.ts';
import { buildFrozenInferenceGraph } from '../../../../src/graphs/frozen.ts';
import { initWeights } from '../../../../src/graphs/init.ts';
import { createMlp } from '../../../../src/graphs/mlp.ts';
import { allParameters } from '../../../../src/graphs/model.ts';
import { LOSS, nextName, TEACHER_LOGITS, FEATURES, LABELS, LEARNING_RATE } from '../../../../src/graphs/tensor-names.ts';
import { buildInferenceGraph, buildTrainStepGraph } from '../../../../src/graphs/variants.ts';
import {
  distillationRun,
  runDistillationJobs,
  studentStep,
  type StudentEntry,
  type StudentResult,
  type TeacherResult,
} from '../../../../src/lab/measure/distillation.ts';
import type { Tensors } from '../../../../src/lab/measure/executor.ts';
import type { RunStage } from '../../../../src/lab/measure/run-stage.ts';
import { deviceTrafficExecutor } from './device-traffic.ts';
import { nodeExecutor, type GraphFiles } from './node-executor.ts';

const files: GraphFiles = new Map();
const emit = (name: string, b: GraphBuilder) => {
  const { graph, file } = generateUtility(name, b);
  files.set(file.path, file.bytes);
  return graph;
};

const teacherModel = createMlp(TEACHER_SPEC);
const studentModel = createMlp(STUDENT_SPEC);
const parameters = allParameters(studentModel);
/** lr = 1 as in the site's schedule, and a few steps, so the test stays fast. */
const student: StudentEntry = {
  spec: STUDENT_SPEC,
  parameterCount: parameters.reduce((n, p) => n + p.shape.reduce((a, b) => a * b, 1), 0),
  parameters,
  training: { ...STUDENT_TRAINING, steps: 3 },
  loss: DISTILLATION_LOSS,
  step: emit('student-step', buildTrainStepGraph(studentModel, { sgd: true, distillation: true })),
  inference: emit('student', buildInferenceGraph(studentModel)),
};

describe('the student’s distillation step', () => {
  test('moves each weight by −lr × the finite-difference gradient of its loss (Hinton et al. 2015, §2)', async () => {
    const exec = nodeExecutor(files);
    const step = await exec.open(student.step);
    const examples = distillationExamples(DISTILLATION_TASK, 'student-train', 32);
    // Soft targets of a different network, so the soft term has a gradient.
    const teacherLogits = Float32Array.from({ length: 32 * DISTILLATION_TASK.classes }, (_, i) => Math.sin(i * 0.7) * 3);
    const data: Tensors = {
      [FEATURES]: exec.host({ data: examples.x, dims: [32, DISTILLATION_TASK.inputs] }),
      [LABELS]: exec.host({ data: examples.labels, dims: [32] }),
      [TEACHER_LOGITS]: exec.host({ data: teacherLogits, dims: [32, DISTILLATION_TASK.classes] }),
    };
    const initial = initWeights(parameters, 3);
    const weightsWith = (name: string, index: number, delta: number): Tensors =>
      Object.fromEntries(
        parameters.map((p) => {
          const values = Float32Array.from(initial[p.name] ?? []);
          if (p.name === name) values[index] = (values[index] ?? 0) + delta;
          return [p.name, exec.host({ data: values, dims: p.shape })];
        }),
      );
    const lossAt = async (name: string, index: number, delta: number): Promise<number> =>
      (
        await exec.read(
          (await studentStep(exec, step, student, data, weightsWith(name, index, delta), student.loss.alpha))[LOSS]!,
        )
      )[0] ?? NaN;

    const out = await studentStep(exec, step, student, data, weightsWith('', 0, 0), student.loss.alpha);
    const eps = 1e-2;
    let checked = 0;
    for (const p of parameters) {
      const before = initial[p.name] ?? new Float32Array();
      const after = await exec.read(out[nextName(p.name)]!);
      for (const index of [0, Math.floor(before.length / 2), before.length - 1]) {
        const gradient = ((before[index] ?? 0) - (after[index] ?? 0)) / student.training.lr;
        const finiteDifference = ((await lossAt(p.name, index, eps)) - (await lossAt(p.name, index, -eps))) / (2 * eps);
        expect(Math.abs(gradient - finiteDifference), `${p.name}[${index}]`).toBeLessThan(
          2e-3 + 2e-2 * Math.abs(finiteDifference),
        );
        checked += 1;
      }
    }
    expect(checked).toBe(parameters.length * 3);
  }, 60_000);
});

describe('a distillation run', () => {
  // An untrained teacher: the run's plumbing, not the teacher's quality, is under test here.
  const teacherWeights = initWeights(allParameters(teacherModel), TEACHER_TRAINING.seed);
  const frozen = (storage: 'fp32' | 'int8') => ({
    graph: emit(`teacher-${storage}`, buildFrozenInferenceGraph(teacherModel, teacherWeights, storage)),
    weightBytes: 0,
    buildAccuracy: 0,
  });
  const manifest: DistillationManifest = {
    version: 1,
    task: DISTILLATION_TASK,
    splits: DISTILLATION_SPLITS,
    measuredBatch: MEASURED_BATCH,
    teacher: { spec: TEACHER_SPEC, parameterCount: 0, training: TEACHER_TRAINING, fp32: frozen('fp32'), int8: frozen('int8') },
    student,
  };

  test('measures both teachers and the student, training it with soft targets and with hard labels', async () => {
    const stages: RunStage[] = [];
    const exec = { ...nodeExecutor(files), progress: (stage: RunStage) => stages.push(stage) };
    const results = await runDistillationJobs(distillationRun(exec, manifest, MEASURED_BATCH), [
      'teacher-fp32',
      'teacher-int8',
      'student',
    ]);
    const [fp32, int8, trained] = results as [TeacherResult, TeacherResult, StudentResult];
    expect(fp32.softTargets?.length).toBe(DISTILLATION_SPLITS.studentTrain * DISTILLATION_TASK.classes);
    expect(int8.softTargets).toBeUndefined();
    for (const r of [fp32, int8]) expect(r.accuracy).toBeGreaterThanOrEqual(0);
    expect(trained.distilled.alpha).toBe(DISTILLATION_LOSS.alpha);
    expect(trained.hardOnly.alpha).toBe(0);
    for (const run of [trained.distilled, trained.hardOnly]) expect(Number.isFinite(run.finalLoss)).toBe(true);
    // Different soft-target weights train different students.
    expect(trained.distilled.finalLoss).not.toBe(trained.hardOnly.finalLoss);
    expect(stages).toContainEqual({ kind: 'test-accuracy', job: 'teacher-int8' });
    expect(stages.flatMap((s) => (s.kind === 'training' ? [s.targets] : []))).toContain('hard');
  }, 60_000);

  test('the student trains on examples, labels and soft targets placed once: no step reads them from the host', async () => {
    const { exec, traffic } = deviceTrafficExecutor(files);
    await runDistillationJobs(distillationRun(exec, manifest, MEASURED_BATCH), ['teacher-fp32', 'student']);
    const trainingFeeds = traffic.hostFeeds.filter((feed) => [LABELS, TEACHER_LOGITS].includes(feed.input));
    expect(trainingFeeds).toEqual([]);
    // Two trainings of `steps` steps each ran: the check saw the runs it speaks for.
    expect(traffic.hostFeeds.filter((feed) => feed.input === LEARNING_RATE)).toHaveLength(2 * student.training.steps);
  }, 60_000);

  test('refuses to train the student without soft targets', async () => {
    await expect(runDistillationJobs(distillationRun(nodeExecutor(files), manifest, 8), ['student'])).rejects.toThrow(
      /soft targets/,
    );
  });
});
