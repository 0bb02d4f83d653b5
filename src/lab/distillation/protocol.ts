/** Messages between the distillation experiment's page code and its worker. */
import type { DistillationManifest } from '../../graphs/distillation/manifest';
import type { Backend, MemoryKind } from '../protocol';
import type { LabRuntime } from '../runtime';

/** What one worker does: measure a teacher (fp32 or int8) forward pass, or the student's. */
export type DistillationJob = 'teacher-fp32' | 'teacher-int8' | 'student';

/** Page → worker: run `jobs` in order in one fresh runtime (one job per worker on WASM). */
export interface DistillationRequest {
  readonly backend: Backend;
  /** The compiled onnxruntime-web module (see `loadRuntime`). */
  readonly runtime: LabRuntime;
  /** URL of public/models/ (ends with `/`). */
  readonly modelsUrl: string;
  readonly manifest: DistillationManifest;
  readonly jobs: readonly DistillationJob[];
  /** Examples in the measured forward pass. */
  readonly batch: number;
  /** The fp32 teacher's logits on the student's training set, when an earlier worker made them. */
  readonly softTargets?: Float32Array;
}

/** Memory and time of one model's measured forward pass. */
export interface ForwardMeasurement {
  readonly kind: MemoryKind;
  /** Counted bytes before the model was loaded. */
  readonly baselineBytes: number;
  /** Counted bytes once the session (and any fed weights) were in place, before running. */
  readonly atRestBytes: number;
  /** Highest counted bytes while loading and running the forward pass twice. */
  readonly peakBytes: number;
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

export type DistillationJobResult = TeacherResult | StudentResult;

/** What the worker answers a request with. */
export interface DistillationResponse {
  readonly results: readonly DistillationJobResult[];
  readonly adapter: string | null;
}
