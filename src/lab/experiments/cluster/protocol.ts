/**
 * Messages between the page and the "virtual GPUs" (devices) of a cluster experiment: one Web Worker
 * per device, each with its own WebGPU device (or WebAssembly heap) and memory tracker. What the
 * devices run and exchange is in measure/cluster-job.ts.
 */
import type { ClusterJob, CommMessage, DeviceResult } from '../../measure/cluster-job';
import type { Backend } from '../../measure/executor';
import type { RunStage } from '../../measure/run-stage';
import type { FailureKind } from '../../results/classify-failure';
import type { LabRuntime } from '../../page/runtime-loader';

/** Page → device: what to run. */
export interface ClusterStart {
  readonly type: 'start';
  readonly rank: number;
  readonly size: number;
  readonly backend: Backend;
  /** The compiled onnxruntime-web module (see `loadRuntime`). */
  readonly runtime: LabRuntime;
  readonly modelsUrl: string;
  readonly seed: number;
  /** Steps measured, after the warm-up. */
  readonly steps: number;
  /** Steps timed in all, the measured ones included: the same on every device (measure/cluster-device.ts). */
  readonly timedSteps: number;
  readonly job: ClusterJob;
}

/** Device → page messages. */
export type ClusterMessage =
  | {
      readonly type: 'progress';
      readonly rank: number;
      readonly stage: RunStage;
      readonly step?: number;
      readonly bytes?: number;
    }
  | CommMessage
  | { readonly type: 'result'; readonly result: DeviceResult }
  | { readonly type: 'error'; readonly rank: number; readonly kind: FailureKind; readonly message: string };
