import { estimateMemory, type EstimateOptions, type ZeroStage } from '../../memory/index';

/** Data-parallel sizes the scaling chart walks: 1, 2, 4 … 1024 GPUs. */
export const SCALING_GPU_COUNTS = Array.from({ length: 11 }, (_, i) => 2 ** i);

/** Per-GPU bytes at one data-parallel size and ZeRO stage. */
export interface ScalingPoint {
  readonly gpus: number;
  readonly stage: ZeroStage;
  readonly bytes: number;
}

/**
 * Per-GPU memory of the reader's configuration as data parallelism grows from 1 to 1024 GPUs,
 * once per ZeRO stage (tensor and pipeline degrees kept): the curve of ZeRO's Figure 1.
 * Sizes the engine rejects (e.g. more GPUs than the batch allows) are left out.
 */
export function scalingCurve(options: EstimateOptions): ScalingPoint[] {
  const points: ScalingPoint[] = [];
  for (const stage of [0, 1, 2, 3] as const) {
    for (const gpus of SCALING_GPU_COUNTS) {
      const outcome = estimateMemory({ ...options, dp: gpus, zero: stage });
      if (outcome.ok) points.push({ gpus, stage, bytes: outcome.result.perGpu.total });
    }
  }
  return points;
}
