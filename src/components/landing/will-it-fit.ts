import {
  estimateMemory,
  LINE_CATEGORIES,
  type EstimateResult,
  type LineCategory,
  type ModelConfig,
  type Mode,
} from '../../memory';

/** The parts of one GPU's memory a verdict may name as the largest. */
export type MemoryPart = LineCategory;

/** The answer to "will it fit?", in bytes, for one model on one GPU with the engine's defaults. */
export interface FitVerdict {
  readonly result: EstimateResult;
  /** Whether the total plus the recommended free margin fits. */
  readonly fits: boolean;
  /** Bytes to spare (fits) or missing (does not), never negative. */
  readonly marginBytes: number;
  /** The largest part at the step's peak, its bytes and its share of the peak. */
  readonly largest: { readonly part: MemoryPart; readonly bytes: number; readonly share: number };
}

/**
 * Whether `model` (a preset id, or a shape read from a config.json) fits on `gpu` with every other setting at the
 * engine's default (one GPU, the model's full context): `estimateMemory`'s own verdict, plus the part that dominates.
 * Null when the engine refuses the combination.
 */
export function willItFit(model: string | ModelConfig, gpu: string, mode: Mode): FitVerdict | null {
  const outcome = estimateMemory({ ...(typeof model === 'string' ? { model } : { modelConfig: model }), gpu, mode });
  if (!outcome.ok || outcome.result.fits === null) return null;
  const { result } = outcome;
  const peak = result.timeline.find((m) => m.moment === result.peakMoment);
  const [part, bytes] = LINE_CATEGORIES.map((p) => [p, peak?.byCategory[p] ?? 0] as const).reduce((a, b) =>
    b[1] > a[1] ? b : a,
  );
  return {
    result,
    fits: result.fits === true,
    marginBytes: (result.fits ? result.spare : result.shortfall) ?? 0,
    largest: { part, bytes, share: result.perGpu.total > 0 ? bytes / result.perGpu.total : 0 },
  };
}
