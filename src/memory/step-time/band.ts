/**
 * The step-time model's error band, measured: the spread of predicted ÷ measured over the published runs
 * (published-runs.ts). Every printed step time carries it (format.ts formatStepTime, the CLI's table and `--json`).
 */

/**
 * The 10th and 90th percentiles (linear interpolation between ranks) of predicted ÷ measured over PUBLISHED_RUNS,
 * rounded outward to two decimals (p10 down, p90 up) so that the band is never narrower than the percentiles it
 * stands for: rounded to nearest, a ratio between the percentile and its rounding falls out of a band that should
 * hold it. tests/unit/memory/step-time.band.test.ts recomputes them from the runs.
 */
export const PREDICTED_OVER_MEASURED = { p10: 0.87, p90: 1.12 } as const;

/** Where the band comes from, one line. */
export const STEP_TIME_BAND_SOURCE =
  'predicted ÷ measured step over 20 published runs (llm-foundry MPT tables, torchtitan Llama 3.1 8B, BLOOM-176B): 10th–90th percentile';

/** A step time's band: the measured step, 8 times in 10, lies between `low` and `high` seconds. */
export interface StepTimeBand {
  /** Seconds: the prediction over the 90th-percentile ratio. */
  readonly low: number;
  /** Seconds: the prediction over the 10th-percentile ratio. */
  readonly high: number;
  /** Where the band comes from. */
  readonly source: string;
}

/** The band around a predicted step of `seconds`: the measured step is the prediction over a ratio inside the band. */
export function stepTimeBand(seconds: number): StepTimeBand {
  return {
    low: seconds / PREDICTED_OVER_MEASURED.p90,
    high: seconds / PREDICTED_OVER_MEASURED.p10,
    source: STEP_TIME_BAND_SOURCE,
  };
}
