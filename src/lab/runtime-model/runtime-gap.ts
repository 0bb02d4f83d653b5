/**
 * The gap between "this runtime" and the memory engine's peak (PyTorch on CUDA), itemised by
 * switching the runtime's rules off one at a time and predicting again: each item is what one
 * rule adds to the peak, given the rules already switched off before it. What is left once all
 * are off, less the lab's examples and labels (every micro-batch's, placed before the first
 * step), is how the lab's graphs differ from the engine's account of a PyTorch step, not
 * itemised here (what one graph keeps to its end; what the engine counts that the run reads
 * back to the host). Pure.
 */
import { ONNXRUNTIME_RULES, type RuntimeRules } from './runtime-rules';

/** A named cause of the gap, in the order it is switched off. */
export type GapCause = 'second-gradient-set' | 'size-classes' | 'reuse-after-flush' | 'examples-and-labels' | 'rest';

/** One item of the gap: bytes "this runtime" holds above (or, when negative, below) the next rule switched off. */
export interface GapItem {
  readonly cause: GapCause;
  readonly bytes: number;
}

/** "This runtime"'s prediction of one side (or one device of it). */
export interface RuntimePrediction {
  /** The modelled peak: the lab's buffers and the runtime's, at their busiest moment. */
  readonly peakBytes: number;
  /** Of the lab's buffers, the examples and labels it places before the first step. */
  readonly examplesBytes: number;
}

/** "This runtime"'s prediction and its gap to the engine's peak, item by item; the items sum to the gap. */
export interface ItemisedGap {
  readonly runtime: RuntimePrediction;
  readonly items: readonly GapItem[];
}

/**
 * Itemises `runtime peak − pytorchPeakBytes` for a side whose modelled peak under some rules is
 * `predictPeak(rules)` and whose lab places `examplesBytes` of examples and labels.
 */
export async function itemiseGap(
  predictPeak: (rules: RuntimeRules) => Promise<number>,
  examplesBytes: number,
  pytorchPeakBytes: number,
): Promise<ItemisedGap> {
  const inPlace = { ...ONNXRUNTIME_RULES, outOfPlaceAccumulation: false };
  const exactSizes = { ...inPlace, sizeClasses: false };
  const freedAtOnce = { ...exactSizes, reuseAfterFlush: false };
  const peaks: number[] = [];
  // One after another: each prediction replays the whole loop, and they share nothing.
  for (const rules of [ONNXRUNTIME_RULES, inPlace, exactSizes, freedAtOnce]) peaks.push(await predictPeak(rules));
  const causes = ['second-gradient-set', 'size-classes', 'reuse-after-flush'] as const;
  const items: GapItem[] = causes.map((cause, index) => ({ cause, bytes: (peaks[index] ?? 0) - (peaks[index + 1] ?? 0) }));
  // The lab places every micro-batch's examples and labels before the first step, at their exact sizes.
  items.push({ cause: 'examples-and-labels', bytes: examplesBytes });
  items.push({ cause: 'rest', bytes: (peaks.at(-1) ?? 0) - examplesBytes - pytorchPeakBytes });
  return { runtime: { peakBytes: peaks[0] ?? 0, examplesBytes }, items };
}
