/** Messages between a single-device experiment's page code and its variant worker. */
import type { VariantSpec } from '../../measure/variant';
import type { Backend } from '../../protocol';
import type { LabRuntime } from '../../runtime';

/**
 * Page → worker: run variants one after another in one fresh runtime. Each variant's sessions
 * are released before the next starts (onnxruntime-web frees its buffers only when the last
 * session goes), and each is measured from the live bytes at its own start.
 */
export interface VariantRequest {
  readonly backend: Backend;
  /** The compiled onnxruntime-web module (see `loadRuntime`). */
  readonly runtime: LabRuntime;
  /** URL of the folder that holds the manifest's graph files (ends with `/`). */
  readonly modelsUrl: string;
  readonly variants: readonly VariantSpec[];
}

/** Bytes held after one step of one variant (the request's `variant`-th), for live plots. */
export interface StepSample {
  readonly variant: number;
  readonly step: number;
  readonly bytes: number;
}
