/**
 * Which micro-batch a combination takes: of the splits of its per-replica batch into micro-batch × accumulation, the
 * fastest that fits, found with as few estimates as the engine's shape of memory and time allows.
 */
import type { EstimateOptions, EstimateTotals } from '../memory/index.ts';
import type { Choice } from './dimensions.ts';

/** One estimated micro-batch of a combination. */
export interface Evaluation {
  /** The engine's numbers (estimateTotals: the search reads no lines). */
  readonly totals: EstimateTotals;
  /** Host RAM on the machine (all GPU processes), bytes. */
  readonly hostBytes: number;
  readonly fitsGpu: boolean;
  readonly fitsHost: boolean;
}

/** An estimate, or the engine's errors in one line. */
export type Estimated = Evaluation | { readonly errors: string };

/** The micro-batch taken (an index into the values), an invalid combination, or none that fits. */
export type MicroBatchChoice =
  | { readonly kind: 'plan'; readonly index: number }
  | { readonly kind: 'invalid'; readonly errors: string }
  | { readonly kind: 'nothing-fits' };

/** Which fitting micro-batch is fastest, without estimating them all. */
export type MicroBatchPreference = 'largest' | 'smallest' | 'any';

/**
 * How the engine's step time moves with the micro-batch b at a fixed per-replica batch B = b·m
 * (src/memory/time.ts; with pipeline stages, the slower stage's). Compute and recompute scale with the
 * tokens per step, which are fixed, at a compute efficiency that grows with the tokens per micro-batch
 * (step-time/compute-efficiency.ts), which favours the largest b; so does what each micro-batch pays again (parameter
 * offload's weight traffic, a QLoRA base's dequantization, ZeRO-2/3's per-micro-batch collectives). The pipeline
 * bubble, (p−1)/m of the compute, favours the smallest. So with one stage the largest b that fits is fastest; with
 * several any b may win, and the search walks up from the smallest b until `secondsLowerBound` says no larger one can
 * win. Property and brute-force tests hold this against estimating every micro-batch.
 */
export function microBatchPreference(options: EstimateOptions): MicroBatchPreference {
  return (options.pp ?? 1) === 1 ? 'largest' : 'any';
}

/**
 * The micro-batch a combination takes among `values` (ascending micro-batch; the last has no accumulation), estimating
 * through `at` (which caches) only what the choice needs.
 */
export function chooseMicroBatch(
  at: (index: number) => Estimated,
  fits: (e: Evaluation) => boolean,
  values: readonly Choice[],
  options: EstimateOptions,
): MicroBatchChoice {
  const last = values.length - 1;
  const preference = microBatchPreference(options);
  if (last > 0 && preference !== 'largest') {
    const bottom = at(0);
    if (!('errors' in bottom) && fits(bottom)) {
      // Where the smallest micro-batch that fits is fastest, it needs no other estimate.
      if (preference === 'smallest') return { kind: 'plan', index: 0 };
      // Where any may be fastest: walk up from the smallest, and stop at the first that does not fit (none larger with
      // accumulation does) or whose bound cannot beat the best. The bound, convex in the number of micro-batches m
      // (secondsLowerBound), falls and then rises as the micro-batch grows; while it falls it stays below every time
      // already seen, so the first that cannot beat the best is past its lowest, and so is every larger one. The one
      // without accumulation is estimated only if its bound can beat the best. Ties go to the larger.
      const bound = (i: number) => secondsLowerBound(bottom.totals, options, values[i]?.patch.gradAccum ?? 1);
      const beats = (i: number, best: number) => bound(i) <= secondsAt(at, best) * (1 + 1e-12);
      let best = 0;
      for (let i = 1; i < last && beats(i, best); i++) {
        const e = at(i);
        if ('errors' in e || !fits(e)) break;
        if (secondsAt(at, i) <= secondsAt(at, best)) best = i;
      }
      if (beats(last, best)) {
        const single = at(last);
        if (!('errors' in single) && fits(single) && secondsAt(at, last) <= secondsAt(at, best)) best = last;
      }
      return { kind: 'plan', index: best };
    }
  }
  // The micro-batch without accumulation (the last) is checked on its own: with accumulation a later
  // micro-batch's forward and backward run with the earlier ones' gradients alive, so it can need more
  // memory than the whole per-replica batch in one pass. Among the micro-batches with accumulation memory
  // never falls as the micro-batch grows (property test), so the largest of them that fits is found by bisection
  // (only where the largest is fastest: otherwise a fitting smallest one was taken above).
  const single = at(last);
  if ('errors' in single) return { kind: 'invalid', errors: single.errors };
  const singleFits = fits(single);
  if (preference === 'largest' && singleFits) return { kind: 'plan', index: last };
  if (last > 0) {
    // Where the largest is fastest, a guess from the whole batch's estimate that fits spares the smallest's estimate;
    // one that does not bounds the bisection, which then starts from the smallest.
    let end = last;
    if (preference === 'largest') {
      const guess = likelyBelowSingle(single.totals, values, last);
      if (guess > 0) {
        const e = at(guess);
        if (!('errors' in e) && fits(e)) return { kind: 'plan', index: largestFitting(at, fits, last, guess) };
        end = guess;
      }
    }
    const bottom = at(0);
    if ('errors' in bottom) return { kind: 'invalid', errors: bottom.errors };
    if (fits(bottom)) return { kind: 'plan', index: largestFitting(at, fits, end, likelyLargest(bottom.totals, values, end)) };
  }
  return singleFits ? { kind: 'plan', index: last } : { kind: 'nothing-fits' };
}

/**
 * The largest index below `end` that fits, given that index 0 fits and that the fit never returns once lost: by
 * bisection, starting with `guess` and the index after it (two estimates when the guess is right).
 */
export function largestFitting(
  at: (index: number) => Estimated,
  fits: (e: Evaluation) => boolean,
  end: number,
  guess: number,
): number {
  const fitsAt = (i: number) => {
    const e = at(i);
    return !('errors' in e) && fits(e);
  };
  let low = 0;
  let high = end;
  if (guess > 0 && guess < end) {
    if (!fitsAt(guess)) high = guess;
    else if (guess + 1 >= end || !fitsAt(guess + 1)) return guess;
    else low = guess + 1;
  }
  while (high - low > 1) {
    const mid = (low + high) >> 1;
    if (fitsAt(mid)) low = mid;
    else high = mid;
  }
  return low;
}

/**
 * Where the largest micro-batch with accumulation that fits probably is, from the estimate at micro-batch 1: the GPU
 * memory left there, spent on one more sequence's activations at a time. Only a starting point for largestFitting,
 * which checks it with the engine.
 */
function likelyLargest(bottom: EstimateTotals, values: readonly Choice[], end: number): number {
  const perSequence = bottom.perGpu.activations;
  if (perSequence <= 0 || bottom.spare === null) return 0;
  return lastUpTo(values, end, 1 + Math.floor(bottom.spare / perSequence));
}

/**
 * Where the largest micro-batch with accumulation that fits probably is, from the estimate of the whole batch in one
 * micro-batch (which does not fit): its activations shed one sequence at a time until the GPU memory it is short of is
 * freed. Accumulation keeps earlier micro-batches' gradients alive, so the guess may be high; 0 when it finds none.
 * Only a starting point, which the engine checks.
 */
function likelyBelowSingle(single: EstimateTotals, values: readonly Choice[], end: number): number {
  const batch = values[end]?.patch.microBatch ?? 0;
  const perSequence = batch > 0 ? single.perGpu.activations / batch : 0;
  if (perSequence <= 0 || single.shortfall === null) return 0;
  return lastUpTo(values, end, batch - Math.ceil(single.shortfall / perSequence));
}

/** The last index below `end` (0 at least) whose micro-batch is at most `microBatch`. */
function lastUpTo(values: readonly Choice[], end: number, microBatch: number): number {
  let index = 0;
  for (let i = 1; i < end && (values[i]?.patch.microBatch ?? Infinity) <= microBatch; i++) index = i;
  return index;
}

/**
 * A lower bound on a combination's step time at `gradAccum` micro-batches, from its estimate at any other
 * (src/memory/estimate.ts StepSeconds): with m micro-batches a stage takes at least K + w·(1 + (p−1)/(v·m)) + m·perMicroBatch,
 * where w is the least compute and recompute any micro-batch could take (`leastWork`: the same tokens per step at the
 * efficiency's ceiling), K the optimizer step, tensor-parallel and pipeline traffic and the gradients' offload, which
 * do not move with m, and the exposed data-parallel traffic, which moves with m, is left out (it is never negative).
 * The estimate's K comes from its own m, for its slower stage; the step is the slower stage's, so never less.
 */
export function secondsLowerBound(seen: EstimateTotals, options: EstimateOptions, gradAccum: number): number {
  const time = seen.stepSeconds;
  if (time === null) return 0;
  const pp = options.pp ?? 1;
  // Interleaved 1F1B divides the bubble by its v model chunks per stage (src/memory/time.ts).
  const v = options.ppVirtual ?? 1;
  const m = time.microBatches;
  const bubble = pp > 1 ? ((pp - 1) * time.work) / (v * m) : 0;
  const fixed = time.total - time.work - bubble - time.dataParallel - time.perMicroBatch * m;
  const leastBubble = pp > 1 ? ((pp - 1) * time.leastWork) / (v * gradAccum) : 0;
  return Math.max(0, fixed + time.leastWork + leastBubble + time.perMicroBatch * gradAccum);
}

function secondsAt(at: (index: number) => Estimated, index: number): number {
  const e = at(index);
  return 'errors' in e ? Number.POSITIVE_INFINITY : (e.totals.stepSeconds?.total ?? Number.POSITIVE_INFINITY);
}
