/**
 * A run's step time as several timed steps give it: one step's wall time in a browser moves by tens of percent from
 * one step to the next (other tabs, the GPU process, a software adapter's threads), so a single step cannot tell two
 * variants apart. The median is what the page reports, the range is the noise a difference must exceed.
 */

/** The step times of one run. */
export interface StepTimes {
  /** The median of the timed steps, in milliseconds. */
  readonly medianMs: number;
  /** The fastest and slowest timed step, in milliseconds. */
  readonly minMs: number;
  readonly maxMs: number;
  /** How many steps were timed. */
  readonly count: number;
}

/** The median and range of `stepMs` (at least one step). */
export function summariseStepTimes(stepMs: readonly number[]): StepTimes {
  if (stepMs.length === 0) throw new Error('summariseStepTimes needs at least one timed step');
  const sorted = [...stepMs].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const medianMs = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { medianMs, minMs: sorted[0]!, maxMs: sorted[sorted.length - 1]!, count: sorted.length };
}

/** Whether `a` and `b` differ by more than their noise: their ranges do not overlap. */
export function stepTimesDiffer(a: StepTimes, b: StepTimes): boolean {
  return a.maxMs < b.minMs || b.maxMs < a.minMs;
}
