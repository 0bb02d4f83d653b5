/**
 * The step-time model against the published runs: for each, the engine's predicted step over the measured one. The
 * unit tests hold every ratio inside ±25 % (#31), the bench prints them, and band.ts' error band is their spread.
 */
import { estimateMemory } from '../estimate.ts';
import { PUBLISHED_RUNS, type PublishedRun } from './published-runs.ts';

/** One published run, the engine's answer for it, and the two steps compared. */
export interface RunComparison {
  /** The run. */
  readonly run: PublishedRun;
  /** The engine's step for the run's configuration, seconds. */
  readonly predictedStepSeconds: number;
  /** predicted ÷ measured. */
  readonly ratio: number;
  /** Whether the engine says the configuration fits its GPU with the free margin it advises. */
  readonly fits: boolean;
  /** Whether the peak fits the GPU's total, the margin aside: what a run that ran is judged by (estimate.ts fitsCard). */
  readonly fitsCard: boolean;
}

/** The engine's step for `run` against the measured one; throws if the engine refuses the run's options. */
export function compareWithRun(run: PublishedRun): RunComparison {
  const outcome = estimateMemory(run.options);
  if (!outcome.ok) throw new Error(`${run.id}: ${outcome.errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`);
  const predictedStepSeconds = outcome.result.stepTime?.totalSeconds ?? Number.NaN;
  return {
    run,
    predictedStepSeconds,
    ratio: predictedStepSeconds / run.measuredStepSeconds,
    fits: outcome.result.fits === true,
    fitsCard: outcome.result.fitsCard === true,
  };
}

/** Every published run compared, in PUBLISHED_RUNS' order. */
export function compareWithPublishedRuns(): RunComparison[] {
  return PUBLISHED_RUNS.map(compareWithRun);
}
