/** Messages between a single experiment's page code and its worker (single.worker.ts). */
import type { SingleRunSpec } from '../../measure/single-run';
import type { Backend } from '../../measure/executor';
import type { LabRuntime } from '../../page/runtime-loader';

/**
 * Page → worker: run the sides one after another in one fresh runtime. Each side's sessions
 * are released before the next starts (onnxruntime-web frees its buffers only when the last
 * session goes), and each is measured from the live bytes at its own start.
 */
export interface SingleRequest {
  readonly backend: Backend;
  /** The compiled onnxruntime-web module (see `loadRuntime`). */
  readonly runtime: LabRuntime;
  /** URL of the folder that holds the manifest's graph files (ends with `/`). */
  readonly modelsUrl: string;
  /** What each side runs, in order. */
  readonly sides: readonly SingleRunSpec[];
}

/** Bytes held after one step of one side (the request's `side`-th), for live plots. */
export interface StepSample {
  readonly side: number;
  readonly step: number;
  readonly bytes: number;
}
