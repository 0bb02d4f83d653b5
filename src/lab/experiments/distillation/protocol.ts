/** Messages between the distillation experiment's page code and its worker. */
import type { DistillationManifest } from '../../../graphs/browser-safe';
import type { DistillationJob, DistillationJobResult } from '../../measure/distillation';
import type { Backend } from '../../measure/executor';
import type { LabRuntime } from '../../page/runtime-loader';

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

/** What the worker answers a request with. */
export interface DistillationResponse {
  readonly results: readonly DistillationJobResult[];
  readonly adapter: string | null;
}
