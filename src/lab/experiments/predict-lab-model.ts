/**
 * The memory engine's predictions for the lab's MLPs, as both experiment kinds set them next to
 * what they measure: a plain step, a streamed one, a leaky loop, and (for cluster sides) a
 * data-parallel, ZeRO or pipeline device.
 */
import type { ManifestModel } from '../../graphs/browser-safe';
import { estimateMemory, type EstimateOptions, type MemoryLine } from '../../memory/index';

/** How a lab run differs from a plain fp32 step, in the memory engine's vocabulary. */
export interface LabRunShape {
  /** Examples per optimizer step. */
  readonly batch: number;
  /** Micro-batches the step is split into (gradient accumulation). */
  readonly microBatches: number;
}

/**
 * The memory engine's prediction for a lab model: the same `estimateMemory` the calculators
 * and the CLI use, for the MLP the browser runs. It is the engine's peak (its busiest moment),
 * less the CUDA context and workspace, since a browser's WebGPU device has neither: the same
 * quantity as the measured peak, not the sum of the lines (which counts, say, the forward's
 * activations and the backward's gradients as if alive at once).
 */
export function predictLabBytes(model: ManifestModel, shape: LabRunShape, parallel: LabParallelism = {}): number {
  return gpuPeak({ ...labEstimateOptions(model, shape), ...parallel }).peakBytes;
}

/** The engine's busiest moment on one GPU without the overhead lines, and its GPU lines (overhead left out). */
function gpuPeak(options: EstimateOptions): { readonly peakBytes: number; readonly lines: MemoryLine[] } {
  const outcome = estimateMemory(options);
  if (!outcome.ok) throw new Error(outcome.errors.map((e) => `${e.field}: ${e.message}`).join('; '));
  const { timeline, lines } = outcome.result;
  return {
    peakBytes: Math.max(0, ...timeline.map((moment) => moment.bytes - moment.byCategory.overhead)),
    lines: lines.filter((line) => line.device === 'gpu' && line.category !== 'overhead'),
  };
}

/**
 * Gathered units a streamed step holds on the GPU at once: the running graph's weights and the
 * next graph's, prefetched while it runs (`planWeightStream`). FSDP's
 * `BackwardPrefetch.BACKWARD_PRE` does the same and "at the peak ... holds the current set of
 * parameters, next set of parameters, and current set of gradients" (PyTorch FSDP API docs,
 * `torch.distributed.fsdp.BackwardPrefetch`).
 */
export const STREAMED_UNITS_ON_GPU = 2;

/**
 * The prediction for a step whose weights are streamed from host memory and whose gradients go
 * back to it: the engine's peak under parameter offload (`offload: 'optimizer+params'`, ZeRO
 * stage 3 on one GPU: weights, gradients and optimizer states on the host, one gathered unit on
 * the GPU), plus one more gathered unit for the prefetch, alive through the whole step. The engine counts one unit (sources.ts
 * `zero3-working-set`: "a prefetching FSDP run holds about two blocks; we show one"); the lab's
 * schedule holds two, so the prediction for it does too.
 */
export function predictStreamedBytes(
  model: ManifestModel,
  shape: LabRunShape,
  unitsOnGpu: number = STREAMED_UNITS_ON_GPU,
): number {
  const { peakBytes, lines } = gpuPeak({ ...labEstimateOptions(model, shape), zero: 3, offload: 'optimizer+params' });
  const gathered = lines.find((line) => line.id === 'weights-gathered')?.bytes ?? 0;
  return peakBytes + Math.max(0, unitsOnGpu - 1) * gathered;
}

/**
 * How a cluster run differs, in the engine's terms: data-parallel degree, ZeRO stage,
 * pipeline stages, and the optimizer whose state is sharded. `batch` is then per device (the
 * micro-batch each device runs), as the engine's per-GPU figures assume.
 */
export type LabParallelism = Partial<Pick<EstimateOptions, 'dp' | 'zero' | 'pp' | 'optimizer'>>;

/**
 * The prediction for a training loop that keeps every step's gradients alive: one step's peak
 * plus, for each earlier step, the gradients the engine counts (`perGpu.gradients`).
 */
export function predictLeakyLoopBytes(model: ManifestModel, shape: LabRunShape, steps: number): number {
  const outcome = estimateMemory(labEstimateOptions(model, shape));
  if (!outcome.ok) throw new Error(outcome.errors.map((e) => `${e.field}: ${e.message}`).join('; '));
  return predictLabBytes(model, shape) + Math.max(0, steps - 1) * outcome.result.perGpu.gradients;
}

/** The `estimate` options (and so the CLI flags) that describe a lab model's step. */
export function labEstimateOptions(model: ManifestModel, { batch, microBatches }: LabRunShape): EstimateOptions {
  const { variant, shapes } = model;
  if (model.arch !== 'mlp') throw new Error(`no prediction for ${model.arch} lab models yet`);
  return {
    arch: 'mlp',
    hidden: shapes.hidden,
    layers: shapes.layers,
    vocab: shapes.classes ?? 0,
    mode: 'train',
    // The lab's step loops are plain PyTorch's: no trainer's defaults (stacks.ts) decide anything for them.
    stack: 'pytorch',
    // The lab's 16-bit graphs take fp32 master weights and return fp32 gradients: autocast.
    precision: variant.precision === 'fp16' ? 'amp-fp16' : 'fp32',
    // No optimizer runs in these steps; plain SGD keeps no state, so it adds nothing.
    optimizer: 'sgd',
    microBatch: batch / microBatches,
    gradAccum: microBatches,
    ...(variant.activations.kind === 'recompute'
      ? { recompute: 'full' as const, checkpointEvery: variant.activations.segmentLayers }
      : { recompute: 'none' as const }),
  };
}
