/**
 * Messages between the page and the "virtual GPUs" of a multi-device experiment: one Web Worker
 * per device, each with its own WebGPU device (or WebAssembly heap) and memory tracker. Devices
 * never talk to each other directly; the page routes point-to-point messages and computes the
 * collectives (collectives.ts), as a host-staged NCCL or Gloo would.
 */
import type { ManifestGraph, ManifestModel } from '../../graphs/manifest';
import type { Backend, FailureKind, MeasuredMemory } from '../protocol';
import type { LabRuntime } from '../runtime';

/** Named flat fp32 tensors, as they travel between devices. */
export type TensorSet = Readonly<Record<string, Float32Array>>;

/** Every device trains on its own slice of the batch; gradients are averaged after each bucket. */
export interface DataParallelJob {
  readonly kind: 'data-parallel';
  readonly model: ManifestModel;
  /** The global batch; each device takes batch / devices examples. */
  readonly batch: number;
}

/**
 * Data parallel with Adam, optionally sharded ZeRO-style (Rajbhandari et al. 2019): stage 0
 * replicates gradients and optimizer state on every device; stage 2 keeps only the device's
 * shard of both, reduce-scattering each gradient bucket and all-gathering updated weights.
 */
export interface ZeroJob {
  readonly kind: 'zero';
  readonly model: ManifestModel;
  readonly batch: number;
  readonly stage: 0 | 2;
  readonly learningRate: number;
  readonly adam: ManifestGraph;
}

/** A pipeline stage: a slice of the layers, micro-batches handed along on a 1F1B schedule. */
export interface PipelineJob {
  readonly kind: 'pipeline';
  /** A segmented model whose ranges are the stages, one per device. */
  readonly model: ManifestModel;
  readonly batch: number;
  readonly microBatches: number;
  readonly accumulate: ManifestGraph;
}

export type ClusterJob = DataParallelJob | ZeroJob | PipelineJob;

/** Page → device: what to run. */
export interface DeviceStart {
  readonly type: 'start';
  readonly rank: number;
  readonly size: number;
  readonly backend: Backend;
  /** The compiled onnxruntime-web module (see `loadRuntime`). */
  readonly runtime: LabRuntime;
  readonly modelsUrl: string;
  readonly seed: number;
  readonly steps: number;
  readonly job: ClusterJob;
}

/** A collective every device joins with the same key. */
export type CollectiveOp =
  /** Every device gets the element-wise mean of everyone's tensors. */
  | { readonly op: 'all-reduce-mean' }
  /** Each device gets the mean of only the tensors it owns. */
  | { readonly op: 'reduce-scatter-mean'; readonly owners: Readonly<Record<string, number>> }
  /** Every device gets the union of what each contributed. */
  | { readonly op: 'all-gather' };

/** Device → page messages. */
export type DeviceMessage =
  | { readonly type: 'progress'; readonly rank: number; readonly stage: string; readonly step?: number; readonly bytes?: number }
  | ({ readonly type: 'collective'; readonly rank: number; readonly key: string; readonly tensors: TensorSet } & CollectiveOp)
  | { readonly type: 'send'; readonly rank: number; readonly to: number; readonly key: string; readonly tensors: TensorSet }
  | { readonly type: 'result'; readonly result: DeviceResult }
  | { readonly type: 'error'; readonly rank: number; readonly kind: FailureKind; readonly message: string };

/** Page → device, after `start`: the outcome of a collective, or a message another device sent. */
export type DeliveryMessage = { readonly type: 'deliver'; readonly key: string; readonly tensors: TensorSet };

/** One span of compute on a device, for the pipeline timeline (epoch milliseconds). */
export interface ComputeSpan {
  readonly rank: number;
  readonly kind: 'forward' | 'backward';
  readonly micro: number;
  readonly start: number;
  readonly end: number;
}

/** What one device measured. */
export interface DeviceResult {
  readonly rank: number;
  readonly backend: Backend;
  readonly adapter: string | null;
  /** With `heldBytes`: counted bytes after the last step (what stays between steps). */
  readonly memory: MeasuredMemory & { readonly heldBytes: number };
  readonly stepMs: number;
  readonly loadMs: number;
  /** This device's loss (the mean over its examples; for a pipeline, the last stage's). */
  readonly loss: number;
  /**
   * What the experiment compares with its one-device reference: averaged gradients (data
   * parallel), the weights after the optimizer step (ZeRO), this stage's gradients (pipeline).
   */
  readonly tensors: TensorSet;
  /** Compute spans of the last step (pipeline). */
  readonly spans: readonly ComputeSpan[];
}
