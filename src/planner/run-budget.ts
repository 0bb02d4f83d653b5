/**
 * A token budget (issue #31 item 7): how long the whole run takes and what it costs, when the reader says how many
 * tokens it trains (`--train-tokens N`). The run is whole optimizer steps, each the predicted step time, so the run's
 * time carries the step's measured error band (src/memory/step-time/band.ts) scaled by the step count.
 */
import { formatSeconds, stepTimeBand } from '../memory/index.ts';
import { costOf, formatCost, PRICE_TIERS, type GpuPrices, type PriceTier } from './prices.ts';
import { runLineWords } from './messages.ts';

/** A predicted amount and the band the measured one falls in, 8 times in 10. */
export interface BandedAmount {
  /** The prediction. */
  readonly value: number;
  /** Low end of the band. */
  readonly low: number;
  /** High end of the band. */
  readonly high: number;
}

/** The whole run of a token budget on one plan. */
export interface RunBudget {
  /** Optimizer steps: the budget over the tokens a step trains, rounded up (a run takes whole steps). */
  readonly steps: number;
  /** Wall-clock seconds of the run: steps × step time, with the step's band times the steps. */
  readonly seconds: BandedAmount;
  /** GPU-hours: the run's hours × its GPUs (the value; the band scales with `seconds`'). */
  readonly gpuHours: BandedAmount;
  /** The run's cost in each price tier (GPU-hours × price), or null when the GPU has no price. */
  readonly cost: Readonly<Record<PriceTier, BandedAmount>> | null;
}

/** What one run's budget is computed from. */
export interface RunBudgetInput {
  /** Tokens the run trains (`--train-tokens`). */
  readonly trainTokens: number;
  /**
   * Real tokens one optimizer step trains over all GPUs: the engine's `stepTime.trainedTokens` (per data-parallel rank)
   * × the data-parallel degree where it is known, else global batch × sequence.
   */
  readonly tokensPerStep: number;
  /** The predicted step, seconds. */
  readonly stepSeconds: number;
  /** GPUs the run holds. */
  readonly gpus: number;
  /** The GPU's prices per GPU-hour, or undefined without one. */
  readonly prices: GpuPrices | undefined;
}

/** Optimizer steps that train `tokens` at `tokensPerStep` each: whole steps, so the last partial one counts. */
export function stepsFor(tokens: number, tokensPerStep: number): number {
  return Math.ceil(tokens / tokensPerStep);
}

/**
 * The run's steps, wall-clock time, GPU-hours and cost, each with its band (the step's band: the prediction over the
 * 90th and 10th percentile of predicted ÷ measured).
 * @example runBudget({ trainTokens: 1e9, tokensPerStep: 1e6, stepSeconds: 2, gpus: 8, prices: undefined }).seconds.value // 2000
 */
export function runBudget({ trainTokens, tokensPerStep, stepSeconds, gpus, prices }: RunBudgetInput): RunBudget {
  const steps = stepsFor(trainTokens, tokensPerStep);
  const band = stepTimeBand(stepSeconds);
  const seconds = { value: steps * stepSeconds, low: steps * band.low, high: steps * band.high };
  const hours = (s: number) => (s / 3600) * gpus;
  const gpuHours = { value: hours(seconds.value), low: hours(seconds.low), high: hours(seconds.high) };
  const cost =
    prices === undefined
      ? null
      : (Object.fromEntries(
          PRICE_TIERS.map((tier) => [
            tier,
            {
              value: costOf(seconds.value, gpus, prices[tier]),
              low: costOf(seconds.low, gpus, prices[tier]),
              high: costOf(seconds.high, gpus, prices[tier]),
            },
          ]),
        ) as Record<PriceTier, BandedAmount>);
  return { steps, seconds, gpuHours, cost };
}

/**
 * A run's length for people: the step's units up to two hours ("95.0 min"), then hours up to two days ("31.5 h"), then
 * days ("12.3 days"): a run of weeks in minutes is a number nobody reads.
 */
export function formatRunTime(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 7200) return formatSeconds(seconds);
  const hours = seconds / 3600;
  return hours < 48 ? `${hours.toFixed(1)} h` : `${(hours / 24).toFixed(1)} days`;
}

/** An amount and its band, "12.3 days (11.1–15.4 days)" style: `format` prints each of the three. */
export function formatBanded(amount: BandedAmount, format: (value: number) => string): string {
  return `${format(amount.value)} (${format(amount.low)}–${format(amount.high)})`;
}

/** The run's time and, in `tier` where the GPU has a price, its cost, each with its band: one line for a table. */
export function runBudgetText(run: RunBudget, tier: PriceTier): string {
  const time = formatBanded(run.seconds, formatRunTime);
  return run.cost === null ? time : `${time}, ${formatBanded(run.cost[tier], formatCost)}`;
}

/**
 * The whole run on one line, as `plan` prints its best plan's, `estimate` its configuration's and the page a plan's
 * details: "152,588 steps · 9.1 h (8.2 h–11.3 h) · 73 (65–91) GPU-hours · 290.32 (261.55–362.90) on-demand".
 */
export function runBudgetLine(run: RunBudget, tier: PriceTier, words: typeof runLineWords = runLineWords): string {
  const hours = formatBanded(run.gpuHours, (h) => h.toFixed(h < 10 ? 2 : 0));
  const cost = run.cost === null ? words.noPrice : words.cost(formatBanded(run.cost[tier], formatCost), words.tiers[tier]);
  return words.line(run.steps, formatBanded(run.seconds, formatRunTime), hours, cost);
}
