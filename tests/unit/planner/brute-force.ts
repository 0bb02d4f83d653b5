/**
 * The reference the planner is held to: every combination of every dimension, every micro-batch
 * included, estimated by the engine with no pruning at all.
 */
import { estimateMemory, getGpuPreset, type EstimateOptions, type EstimateResult } from '../../../src/memory/index.ts';
import { DIMENSIONS, PLANNER_WORDS, planKey, type PlanRequest, type SearchContext } from '../../../src/planner/index.ts';
import { formatEstimateFlags } from '../../../src/memory/index.ts';

/** One estimated configuration. */
export interface BruteConfig {
  readonly options: EstimateOptions;
  readonly result: EstimateResult;
  /** Fits the GPU with the margin and the host limit. */
  readonly fits: boolean;
  /** Key of its combination without the micro-batch. */
  readonly combination: string;
}

/** Every valid configuration on the reader's GPUs, estimated. */
export function bruteForce(request: PlanRequest, gpuId = request.gpu, gpus = request.gpus): BruteConfig[] {
  const gpu = getGpuPreset(gpuId);
  const probe = estimateMemory({ ...request.base, gpu: gpuId, seq: request.seq });
  if (gpu === undefined || !probe.ok || probe.result.model === null) throw new Error('bad request');
  const ctx: SearchContext = { request, gpu, gpus, model: probe.result.model, words: PLANNER_WORDS };
  const out: BruteConfig[] = [];
  const walk = (depth: number, options: EstimateOptions, combination: EstimateOptions) => {
    const dimension = DIMENSIONS[depth];
    if (dimension === undefined) {
      if (DIMENSIONS.some((d) => (d.rule?.(options, ctx) ?? null) !== null)) return;
      const outcome = estimateMemory(options);
      if (!outcome.ok) return;
      const hostOk = request.maxHostBytes === null || outcome.result.perCpu.total * gpus <= request.maxHostBytes;
      out.push({
        options,
        result: outcome.result,
        fits: outcome.result.fits === true && hostOk,
        combination: planKey(formatEstimateFlags(combination)),
      });
      return;
    }
    for (const value of dimension.choices(ctx, options)) {
      const next = { ...options, ...value.patch };
      walk(depth + 1, next, dimension.search === 'monotone' ? combination : { ...combination, ...value.patch });
    }
  };
  walk(0, { ...request.base, gpu: gpuId, seq: request.seq }, { gpu: gpuId });
  return out;
}

/** Per combination, the fastest fitting configuration (ties: the larger micro-batch). */
export function bestPerCombination(configs: readonly BruteConfig[]): Map<string, BruteConfig> {
  const best = new Map<string, BruteConfig>();
  for (const config of configs) {
    if (!config.fits) continue;
    const current = best.get(config.combination);
    const seconds = config.result.stepTime?.totalSeconds ?? Infinity;
    const currentSeconds = current?.result.stepTime?.totalSeconds ?? Infinity;
    if (
      current === undefined ||
      seconds < currentSeconds ||
      (seconds === currentSeconds && (config.options.microBatch ?? 1) > (current.options.microBatch ?? 1))
    ) {
      best.set(config.combination, config);
    }
  }
  return best;
}
