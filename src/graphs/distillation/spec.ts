/**
 * Sizes and settings of the distillation experiment, shared by the build script (which trains
 * the teacher) and the browser (which trains the student). Pure data, browser-safe.
 *
 * Chosen so that the whole experiment runs in seconds on a software WebGPU adapter and the build
 * trains the teacher in a few seconds of WebAssembly, while (measured with these exact settings)
 * the teacher clearly beats a student trained on hard labels and soft targets clearly help.
 */
import type { MlpSpec } from '../mlp.ts';
import type { DistillationTask } from './dataset.ts';

/** The task: 16 features, 8 classes, labelled by a random ReLU network of width 32. */
export const DISTILLATION_TASK: DistillationTask = { inputs: 16, classes: 8, oracleHidden: 32, seed: 7 };

/** Examples per split. The student sees only 256 labelled examples, the teacher 8,192. */
export const DISTILLATION_SPLITS = { teacherTrain: 8192, studentTrain: 256, test: 2048 } as const;

/** Teacher: input layer 16→256, two 256-wide hidden blocks, head 256→8 (137,992 parameters). */
export const TEACHER_SPEC: MlpSpec = { inputs: 16, hidden: 256, layers: 2, classes: 8 };

/** Student: input layer 16→16, one 16-wide hidden block, head 16→8 (680 parameters). */
export const STUDENT_SPEC: MlpSpec = { inputs: 16, hidden: 16, layers: 1, classes: 8 };

/** Plain SGD settings of one training run. */
export interface SgdSchedule {
  /** Optimizer steps. */
  readonly steps: number;
  /** Examples per step (the student uses its whole training set every step). */
  readonly batch: number;
  /** Learning rate. */
  readonly lr: number;
  /** Seed of the initial weights (`initWeights`). */
  readonly seed: number;
}

/** The teacher's build-time training: 120 steps of 256 examples, about four epochs. */
export const TEACHER_TRAINING: SgdSchedule = { steps: 120, batch: 256, lr: 0.1, seed: 1 };

/** The student's in-browser training, run twice: with soft targets and with hard labels only. */
export const STUDENT_TRAINING: SgdSchedule = { steps: 60, batch: DISTILLATION_SPLITS.studentTrain, lr: 1, seed: 1 };

/**
 * Distillation loss settings: T = 4 and α = 0.9 (mostly soft targets). Hinton et al. 2015 (§2)
 * found a considerably lower weight on the hard term worked best; α = 0 is the hard-label run.
 */
export const DISTILLATION_LOSS = { temperature: 4, alpha: 0.9 } as const;

/**
 * Examples per measured forward pass. Small, as when serving a few requests at a time, so the
 * weights dominate the teacher's memory and int8 storage has something to save.
 */
export const MEASURED_BATCH = 64;
