/**
 * The search: every combination of the dimensions' values on one set of GPUs, each checked by the
 * engine. Combinations with a twin that is never worse (Dimension.dominatedBy) are counted, not
 * estimated. The only other pruning is the micro-batch bisection (among micro-batches with accumulation memory
 * never falls as it grows; the one without is checked on its own) and, where the step time cannot
 * depend on it, taking the largest micro-batch that fits.
 */
import {
  estimateMemory,
  formatEstimateFlags,
  type EstimateOptions,
  type EstimateResult,
  type GpuSpec,
  type ModelConfig,
  type PerGpuTotals,
  type StepTimeEstimate,
} from '../memory/index.ts';
import { DIMENSIONS, type Choice, type Dimension, type SearchContext } from './dimensions.ts';
import { orderLessons, type LessonId } from './lessons.ts';
import { rejectionMessages } from './messages.ts';
import { FIXED_ESTIMATE_FLAGS, type PlanRequest } from './request.ts';

/** GPUs a search runs on. */
export interface Hardware {
  /** GPU preset. */
  readonly gpu: GpuSpec;
  /** How many. */
  readonly gpus: number;
  /** Whether these are GPUs to rent rather than the reader's own. */
  readonly rented: boolean;
}

/** One value a plan takes in one dimension. */
export interface PlanChoice {
  /** Dimension id. */
  readonly dimension: string;
  /** The value's label. */
  readonly value: string;
}

/** A combination that fits, as the engine estimated it. */
export interface FittingPlan {
  /** Stable id within a request: the `estimate` flags that differ between plans. */
  readonly key: string;
  readonly hardware: Hardware;
  /** The value taken in every dimension, in search order. */
  readonly choices: readonly PlanChoice[];
  /** The `estimate` options that reproduce the plan. */
  readonly options: EstimateOptions;
  /** The same as flags (`npm run estimate -- --flag value`, or a URL query). */
  readonly flags: Readonly<Record<string, string>>;
  /** Lessons its choices use, in reading order. */
  readonly lessons: readonly LessonId[];
  /** Per-GPU bytes by category, and their total (what `fits` was decided on). */
  readonly perGpu: PerGpuTotals;
  /** Host RAM the offloaded states take on the machine (all GPU processes), bytes. */
  readonly hostBytes: number;
  /** The engine's step-time estimate. */
  readonly stepTime: StepTimeEstimate;
  /** The engine's warnings for this configuration. */
  readonly warnings: readonly string[];
}

/**
 * Why a group of combinations was not a plan: three memory reasons (they were estimated and did not
 * fit), `invalid` (the engine rejects the combination) and `ruled-out` (a dimension's rule).
 */
export type RejectionKind = 'model-states' | 'activations' | 'host-memory' | 'invalid' | 'ruled-out';

/** Rejection kinds in the order they are reported: what did not fit first, then what was not tried. */
export const REJECTION_ORDER: readonly RejectionKind[] = ['model-states', 'activations', 'host-memory', 'invalid', 'ruled-out'];

/** Combinations left out for one reason. */
export interface RejectionGroup {
  readonly kind: RejectionKind;
  /** The reason, in words. */
  readonly reason: string;
  /** Combinations (before the micro-batch) left out for it. */
  readonly count: number;
  /** For memory reasons: the smallest gap in the group, bytes (GPU or host memory, by kind); else null. */
  readonly smallestGap: number | null;
  /** For memory reasons: the options of the combination with that gap (at micro-batch 1); else null. */
  readonly closest: EstimateOptions | null;
  /** For memory reasons: which memory that combination is short of; else null. */
  readonly closestShortOf: ShortOf | null;
}

/** Which memory a combination is short of: the GPU's, the host RAM allowed for offload, or both. */
export type ShortOf = 'gpu' | 'host' | 'gpu+host';

/** The outcome of searching one set of GPUs. */
export interface HardwareSearch {
  readonly hardware: Hardware;
  /** Every combination that fits, unranked. */
  readonly plans: readonly FittingPlan[];
  /** Everything else, grouped by reason, largest group first. */
  readonly rejected: readonly RejectionGroup[];
  /** Combinations of the `each` dimensions enumerated. */
  readonly combinations: number;
  /** Engine estimates run. */
  readonly evaluations: number;
}

interface Evaluation {
  readonly result: EstimateResult;
  readonly hostBytes: number;
  readonly fitsGpu: boolean;
  readonly fitsHost: boolean;
}

/** Which fitting micro-batch is fastest, without estimating them all. */
export type MicroBatchPreference = 'largest' | 'smallest' | 'any';

/**
 * How the engine's step time moves with the micro-batch b at a fixed per-replica batch B = b·m
 * (src/memory/time.ts; with pipeline stages, the slower stage's). Compute and recompute scale with the
 * tokens per step, which are fixed. The only terms that move are the pipeline bubble, (p−1)/m of the
 * compute, which favours the smallest b, and parameter offload's weight traffic, once per micro-batch,
 * which favours the largest. So with one stage the largest b that fits is fastest (with no offload every
 * b takes the same time: the largest means the fewest accumulation steps), with several stages and no
 * parameter offload the smallest; with both, any b may win, and the search walks up from the smallest b
 * until `secondsLowerBound` says no larger one can win. Property and brute-force tests hold this against
 * estimating every micro-batch.
 */
export function microBatchPreference(options: EstimateOptions): MicroBatchPreference {
  if ((options.pp ?? 1) === 1) return 'largest';
  return options.offload === 'optimizer+params' ? 'any' : 'smallest';
}

/** Search every combination of `dimensions` on `hardware` for `request` (whose model resolved to `model`). */
export function searchHardware(
  request: PlanRequest,
  hardware: Hardware,
  model: ModelConfig,
  dimensions: readonly Dimension[] = DIMENSIONS,
): HardwareSearch {
  const ctx: SearchContext = { request, gpu: hardware.gpu, gpus: hardware.gpus, model };
  const base: EstimateOptions = { ...request.base, gpu: hardware.gpu.id, seq: request.seq };
  const each = dimensions.filter((d) => d.search === 'each');
  const monotone = dimensions.find((d) => d.search === 'monotone');
  const plans: FittingPlan[] = [];
  const groups = new Map<
    string,
    {
      kind: RejectionKind;
      reason: string;
      count: number;
      smallestGap: number | null;
      closest: EstimateOptions | null;
      closestShortOf: ShortOf | null;
    }
  >();
  let combinations = 0;
  let evaluations = 0;

  const reject = (
    kind: RejectionKind,
    reason: string,
    gap: { bytes: number; options: EstimateOptions; shortOf: ShortOf } | null = null,
    count = 1,
  ) => {
    const key = `${kind}\u0000${reason}`;
    const group = groups.get(key) ?? { kind, reason, count: 0, smallestGap: null, closest: null, closestShortOf: null };
    group.count += count;
    if (gap !== null && (group.smallestGap === null || gap.bytes < group.smallestGap)) {
      group.smallestGap = gap.bytes;
      group.closest = gap.options;
      group.closestShortOf = gap.shortOf;
    }
    groups.set(key, group);
  };

  const evaluate = (options: EstimateOptions): Evaluation | { errors: string } => {
    evaluations += 1;
    const outcome = estimateMemory(options);
    if (!outcome.ok) return { errors: outcome.errors.map((e) => `${e.field}: ${e.message}`).join('; ') };
    const result = outcome.result;
    const hostBytes = result.perCpu.total * hardware.gpus;
    return {
      result,
      hostBytes,
      fitsGpu: result.fits === true,
      fitsHost: request.maxHostBytes === null || hostBytes <= request.maxHostBytes,
    };
  };

  /** Whether a complete combination passes every rule, so that the search estimates it (or a twin that is never worse). */
  const isSearched = (options: EstimateOptions) => each.every((d) => (d.rule?.(options, ctx) ?? null) === null);

  const finish = (picked: readonly Choice[], options: EstimateOptions) => {
    combinations += 1;
    for (const dimension of each) {
      const twin = dimension.dominatedBy?.(options, ctx) ?? null;
      if (twin !== null && isSearched({ ...options, ...twin.patch })) return reject('ruled-out', twin.reason);
    }
    const values = monotone?.choices(ctx, options) ?? [{ value: '', patch: {}, lessons: [] }];
    const cache = new Map<number, Evaluation | { errors: string }>();
    const at = (index: number) => {
      const cached = cache.get(index);
      if (cached !== undefined) return cached;
      const evaluation = evaluate({ ...options, ...values[index]?.patch });
      cache.set(index, evaluation);
      return evaluation;
    };
    const fits = (e: Evaluation) => e.fitsGpu && e.fitsHost;
    const last = values.length - 1;
    if (last < 0) return reject('ruled-out', rejectionMessages.noMicroBatch);
    const preference = microBatchPreference(options);
    // Where the smallest micro-batch that fits is fastest, a fitting smallest one needs no other estimate.
    if (preference === 'smallest' && last > 0) {
      const bottom = at(0);
      if (!('errors' in bottom) && fits(bottom)) return push(picked, options, values, 0, bottom);
    }
    // The micro-batch without accumulation (the last) is checked on its own: with accumulation a later
    // micro-batch's forward and backward run with the earlier ones' gradients alive, so it can need more
    // memory than the whole per-replica batch in one pass. Among the micro-batches with accumulation memory
    // never falls as the micro-batch grows (property test), so the largest of them that fits is found by bisection.
    const single = at(last);
    if ('errors' in single) return reject('invalid', single.errors);
    const singleFits = fits(single);
    if (preference === 'largest' && singleFits) return push(picked, options, values, last, single);
    let fitsUpTo = -1; // the largest index with accumulation that fits, -1 if none
    if (last > 0) {
      const bottom = at(0);
      if ('errors' in bottom) return reject('invalid', bottom.errors);
      // Where any micro-batch may be fastest, the others are visited from the smallest up (below), not bisected.
      if (fits(bottom)) fitsUpTo = preference === 'largest' ? largestFitting(at, fits, last) : 0;
    }
    if (fitsUpTo < 0 && !singleFits) {
      // Nothing fits: the smallest gap is the smallest micro-batch's or the one without accumulation.
      const bottom = at(0);
      const closest =
        !('errors' in bottom) && gapOf(bottom) < gapOf(single) ? { e: bottom, index: 0 } : { e: single, index: last };
      return rejectMemory(closest.e, { ...options, ...values[closest.index]?.patch });
    }
    let best = singleFits ? last : fitsUpTo;
    if (preference === 'smallest') best = fitsUpTo >= 0 ? 0 : last;
    if (preference === 'any' && fitsUpTo === 0) {
      // From the smallest micro-batch up: the bubble, and with it the lower bound, only grows, and once one
      // does not fit none larger with accumulation does; stop at the first whose bound cannot beat the best.
      const better = (i: number) =>
        secondsAt(at, i) < secondsAt(at, best) || (secondsAt(at, i) === secondsAt(at, best) && i > best);
      if (better(0)) best = 0;
      const smallest = at(0);
      for (let i = 1; i < last && !('errors' in smallest); i++) {
        if (secondsLowerBound(smallest.result, options, values[i]?.patch.gradAccum ?? 1) > secondsAt(at, best) * (1 + 1e-12))
          break;
        const e = at(i);
        if ('errors' in e || !fits(e)) break;
        if (better(i)) best = i;
      }
    }
    push(picked, options, values, best, at(best));
  };

  /**
   * Bytes short of fitting: GPU memory missing plus host RAM over the limit. Counting both keeps the gap from falling
   * when a combination needs more of either memory, which the dominance rules' skipped twins rely on.
   */
  const hostOver = (e: Evaluation) => (request.maxHostBytes === null ? 0 : Math.max(0, e.hostBytes - request.maxHostBytes));
  const gapOf = (e: Evaluation) => (e.fitsGpu ? 0 : (e.result.shortfall ?? 0)) + hostOver(e);

  const push = (
    picked: readonly Choice[],
    options: EstimateOptions,
    values: readonly Choice[],
    index: number,
    chosen: Evaluation | { errors: string },
  ) => {
    const monoChoice = values[index];
    if ('errors' in chosen || monoChoice === undefined) return;
    plans.push(
      toPlan(
        hardware,
        [...picked, monoChoice],
        monotone === undefined ? each : [...each, monotone],
        { ...options, ...monoChoice.patch },
        chosen,
      ),
    );
  };

  const rejectMemory = (e: Evaluation, options: EstimateOptions) => {
    const r = e.result;
    const bytes = gapOf(e);
    if (!e.fitsGpu) {
      const usable = hardware.gpu.memoryBytes - (r.headroom?.bytes ?? 0);
      const states = r.perGpu.weights + r.perGpu.gradients + r.perGpu.optimizer + r.perGpu.overhead;
      const kind: RejectionKind = states > usable ? 'model-states' : 'activations';
      const shortOf: ShortOf = hostOver(e) > 0 ? 'gpu+host' : 'gpu';
      return reject(kind, kind === 'model-states' ? rejectionMessages.modelStates : rejectionMessages.activations, {
        bytes,
        options,
        shortOf,
      });
    }
    return reject('host-memory', rejectionMessages.hostMemory, { bytes, options, shortOf: 'host' });
  };

  // The values of the `each` dimensions depend only on the context (Dimension.choices), so they are listed once and
  // the number of combinations below any depth is a product.
  const levels = each.map((d) => d.choices(ctx, base));
  const below = levels.map((_, depth) => levels.slice(depth + 1).reduce((size, values) => size * values.length, 1));
  const walk = (depth: number, picked: Choice[], options: EstimateOptions) => {
    const dimension = each[depth];
    if (dimension === undefined) return finish(picked, options);
    const size = below[depth] ?? 1;
    for (const value of levels[depth] ?? []) {
      const next = { ...options, ...value.patch };
      const reason = dimension.rule?.(next, ctx) ?? null;
      if (reason !== null) {
        combinations += size;
        reject('ruled-out', reason, null, size);
        continue;
      }
      if (dimension.checkEarly === true) {
        evaluations += 1;
        const outcome = estimateMemory(next);
        if (!outcome.ok) {
          combinations += size;
          reject('invalid', outcome.errors.map((e) => `${e.field}: ${e.message}`).join('; '), null, size);
          continue;
        }
      }
      // One stack of picked values for the whole walk; a plan copies it.
      picked.push(value);
      walk(depth + 1, picked, next);
      picked.pop();
    }
  };
  walk(0, [], base);

  const order = (kind: RejectionKind) => REJECTION_ORDER.indexOf(kind);
  const rejected = [...groups.values()].sort(
    (a, b) => order(a.kind) - order(b.kind) || b.count - a.count || a.reason.localeCompare(b.reason),
  );
  return { hardware, plans, rejected, combinations, evaluations };
}

/** The flags every plan of one request shares (the model, sequence and margin): all the given ones but the GPU. */
const SHARED_FLAGS = new Set(FIXED_ESTIMATE_FLAGS.filter((flag) => flag !== 'gpu'));

/** A plan's key: its own flags as a URL query, e.g. `gpu=rtx-4090&precision=amp-bf16&…`. */
export function planKey(flags: Readonly<Record<string, string>>): string {
  return Object.entries(flags)
    .filter(([name]) => !SHARED_FLAGS.has(name))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

/** The largest index below `end` that fits, given that index 0 fits and that the fit never returns once lost. */
function largestFitting(
  at: (index: number) => Evaluation | { errors: string },
  fits: (e: Evaluation) => boolean,
  end: number,
): number {
  let low = 0;
  let high = end;
  while (high - low > 1) {
    const mid = (low + high) >> 1;
    const e = at(mid);
    if (!('errors' in e) && fits(e)) low = mid;
    else high = mid;
  }
  return low;
}

/**
 * A lower bound on a combination's step time at `gradAccum` micro-batches, from its estimate at any micro-batch
 * (src/memory/time.ts): compute and recompute do not depend on the micro-batch (the tokens per step are fixed), the
 * pipeline bubble is (p−1)/m of them, and every other line (offload, data-parallel, optimizer) is never negative.
 */
export function secondsLowerBound(seen: EstimateResult, options: EstimateOptions, gradAccum: number): number {
  const time = seen.stepTime;
  if (time === null) return 0;
  const line = (id: string) => time.lines.find((l) => l.id === id)?.seconds ?? 0;
  const work = line('compute') + line('recompute');
  const pp = options.pp ?? 1;
  return work * (1 + (pp > 1 ? (pp - 1) / gradAccum : 0));
}

function secondsAt(at: (index: number) => Evaluation | { errors: string }, index: number): number {
  const e = at(index);
  return 'errors' in e ? Number.POSITIVE_INFINITY : (e.result.stepTime?.totalSeconds ?? Number.POSITIVE_INFINITY);
}

function toPlan(
  hardware: Hardware,
  picked: readonly Choice[],
  dimensions: readonly Dimension[],
  options: EstimateOptions,
  e: Evaluation,
): FittingPlan {
  const flags = formatEstimateFlags(options);
  const lessons = orderLessons([
    ...picked.flatMap((c) => c.lessons),
    ...(hardware.rented ? ['08-putting-it-together' as const] : []),
  ]);
  const stepTime = e.result.stepTime;
  if (stepTime === null) throw new Error('the engine gives a step time whenever a GPU is set');
  return {
    key: planKey(flags),
    hardware,
    choices: picked.map((c, i) => ({ dimension: dimensions[i]?.id ?? '', value: c.value })),
    options,
    flags,
    lessons,
    perGpu: e.result.perGpu,
    hostBytes: e.hostBytes,
    stepTime,
    warnings: e.result.warnings,
  };
}
