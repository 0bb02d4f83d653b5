/**
 * What the devices of a cluster experiment run and report: the jobs (data parallel, ZeRO,
 * pipeline), the tensors and collectives they exchange, and each device's result. Devices never
 * talk to each other directly; whoever hosts them routes point-to-point messages and computes
 * the collectives (experiments/cluster/collectives.ts), as a host-staged NCCL or Gloo would.
 */
import type { ManifestGraph, ManifestModel } from '../../graphs/browser-safe';
import type { Backend } from './executor';
import type { MeasuredMemory } from './measured-memory';
import type { StepTimes } from './step-times';

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

/** What every device of a cluster side runs (its share of it by rank). */
export type ClusterJob = DataParallelJob | ZeroJob | PipelineJob;

/** A collective every device joins with the same key. */
export type CollectiveOp =
  /** Every device gets the element-wise mean of everyone's tensors. */
  | { readonly op: 'all-reduce-mean' }
  /** Each device gets the mean of only the tensors it owns. */
  | { readonly op: 'reduce-scatter-mean'; readonly owners: Readonly<Record<string, number>> }
  /** Every device gets the union of what each contributed. */
  | { readonly op: 'all-gather' };

/** Device → host: join a collective, or send tensors to one device. */
export type CommMessage =
  | ({ readonly type: 'collective'; readonly rank: number; readonly key: string; readonly tensors: TensorSet } & CollectiveOp)
  | { readonly type: 'send'; readonly rank: number; readonly to: number; readonly key: string; readonly tensors: TensorSet };

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
  readonly memory: MeasuredMemory;
  /** Wall time of a step, the median of the timed steps, in milliseconds. */
  readonly stepMs: number;
  /** The timed steps' median, range and count. */
  readonly stepTimes: StepTimes;
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
