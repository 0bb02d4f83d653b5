/**
 * The search: every combination of the dimensions' values on one set of GPUs, each checked by the
 * engine. Combinations with a twin that is never worse (Dimension.dominatedBy), or with a twin that never needs more
 * memory and fits nowhere (Dimension.memoryFloor), are counted, not estimated. The only other pruning is the
 * micro-batch bisection (among micro-batches with accumulation memory never falls as it grows; the one without is
 * checked on its own) and, where the step time cannot depend on it, taking the largest or smallest micro-batch that fits.
 */
import {
  estimateTotals,
  formatEstimateFlags,
  totalsBySplit,
  type BatchSplit,
  type EstimateOptions,
  type GpuSpec,
  type ModelConfig,
  type PerGpuTotals,
  type TotalsOutcome,
} from '../memory/index.ts';
import { DIMENSIONS, type Choice, type Dimension, type SearchContext } from './dimensions.ts';
import { orderLessons, type LessonId } from './lessons.ts';
import { chooseMicroBatch, type Estimated, type Evaluation } from './micro-batch.ts';
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
  /** Lessons the value uses. */
  readonly lessons: readonly LessonId[];
  /** The `estimate` options the value sets (one undefined leaves the option as the search found it). */
  readonly patch: EstimateOptions;
}

/**
 * A combination that fits, as the engine estimated it: what ranks and shows it. Its options, flags, key and lessons
 * are derived when read (planOptions, planFlags, planKey, planLessons): a search finds a thousand plans or more, the
 * page shows ten, and the plans travel from a worker to the page, where objects they share are copied once.
 */
export interface FittingPlan {
  readonly hardware: Hardware;
  /** The value taken in every dimension, in search order. */
  readonly choices: readonly PlanChoice[];
  /** The options every plan of its search starts from (the request's, with the GPU and sequence), shared by them. */
  readonly base: EstimateOptions;
  /** Per-GPU bytes by category, and their total (what `fits` was decided on). */
  readonly perGpu: PerGpuTotals;
  /** Host RAM the offloaded states take on the machine (all GPU processes), bytes. */
  readonly hostBytes: number;
  /** The engine's step time, seconds. Its lines and the engine's warnings: planDetails(plan). */
  readonly stepTimeSeconds: number;
}

/**
 * Why a group of combinations was not a plan: three memory reasons (they were estimated and did not
 * fit), `needs-more` (not estimated: a twin that never needs more memory fits nowhere, Dimension.memoryFloor),
 * `invalid` (the engine rejects the combination) and `ruled-out` (a dimension's rule or a twin never worse).
 */
export type RejectionKind = 'model-states' | 'activations' | 'host-memory' | 'needs-more' | 'invalid' | 'ruled-out';

/** Rejection kinds in the order they are reported: what did not fit first, then what was not tried. */
export const REJECTION_ORDER: readonly RejectionKind[] = [
  'model-states',
  'activations',
  'host-memory',
  'needs-more',
  'invalid',
  'ruled-out',
];

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
  /** Every combination that fits, unranked, in the order the walk meets them. */
  readonly plans: readonly FittingPlan[];
  /** Everything else, grouped by reason, largest group first. */
  readonly rejected: readonly RejectionGroup[];
  /** Combinations of the `each` dimensions enumerated. */
  readonly combinations: number;
  /** Engine estimates run. */
  readonly evaluations: number;
}

/**
 * A share of one search, so that several workers can run it at once: the values of the first dimension (the GPU
 * layout) whose index is `index` modulo `of`, with everything below them. The shares of a search merge into the whole
 * (mergeParts; a test holds the merge to the whole search).
 */
export interface SearchShare {
  readonly index: number;
  readonly of: number;
}

/** The whole search, as one share. */
export const WHOLE_SEARCH: SearchShare = { index: 0, of: 1 };

/** A rejection group of one share: with where its closest combination is in the walk, which breaks ties in a merge. */
export interface PartRejection extends RejectionGroup {
  /** The closest combination's number in the walk (the same in every share), or null without one. */
  readonly closestAt: number | null;
}

/**
 * What one share of a search found: a search's outcome, with where in the walk its plans and its rejection groups'
 * closest combinations are.
 */
export interface SearchPart extends Omit<HardwareSearch, 'rejected'> {
  readonly rejected: readonly PartRejection[];
  /** Each plan's number in the walk (the same in every share), in the order of `plans`. */
  readonly plansAt: readonly number[];
}

/** A rejection group while the search fills it. */
interface OpenGroup {
  readonly kind: RejectionKind;
  readonly reason: string;
  count: number;
  smallestGap: number | null;
  closest: EstimateOptions | null;
  closestShortOf: ShortOf | null;
  closestAt: number | null;
}

/** Search one share of the combinations of `dimensions` on `hardware` for `request` (whose model resolved to `model`). */
export function searchPart(
  request: PlanRequest,
  hardware: Hardware,
  model: ModelConfig,
  dimensions: readonly Dimension[] = DIMENSIONS,
  share: SearchShare = WHOLE_SEARCH,
): SearchPart {
  const ctx: SearchContext = { request, gpu: hardware.gpu, gpus: hardware.gpus, model };
  const each = dimensions.filter((d) => d.search === 'each');
  const monotone = dimensions.find((d) => d.search === 'monotone');
  const plans: FittingPlan[] = [];
  const plansAt: number[] = [];
  // One map of groups per kind: a group is found by its reason without building a key per rejection.
  const groups = new Map<RejectionKind, Map<string, OpenGroup>>();
  let combinations = 0;
  let evaluations = 0;

  /**
   * The combination being built. The walk sets each dimension's options on this one object and restores them when it
   * backtracks, rather than copying every option at every node (tens of thousands per search, npm run bench -- planner);
   * anything kept beyond one visit (a plan, the closest combination) is copied.
   */
  const base: EstimateOptions = { ...request.base, gpu: hardware.gpu.id, seq: request.seq };
  const options: EstimateOptions = { ...base };

  const reject = (
    kind: RejectionKind,
    reason: string,
    count = 1,
    gap: { bytes: number; shortOf: ShortOf; options: () => EstimateOptions } | null = null,
  ) => {
    let byReason = groups.get(kind);
    if (byReason === undefined) groups.set(kind, (byReason = new Map()));
    let group = byReason.get(reason);
    if (group === undefined) {
      group = { kind, reason, count: 0, smallestGap: null, closest: null, closestShortOf: null, closestAt: null };
      byReason.set(reason, group);
    }
    group.count += count;
    if (gap !== null && (group.smallestGap === null || gap.bytes < group.smallestGap)) {
      group.smallestGap = gap.bytes;
      group.closest = gap.options();
      group.closestShortOf = gap.shortOf;
      group.closestAt = leaf;
    }
  };

  const fits = (e: Evaluation) => e.fitsGpu && e.fitsHost;
  const evaluated = (outcome: TotalsOutcome): Estimated => {
    evaluations += 1;
    if (!outcome.ok) return { errors: outcome.errors.map((e) => `${e.field}: ${e.message}`).join('; ') };
    const totals = outcome.totals;
    const hostBytes = totals.perCpu.total * hardware.gpus;
    return {
      totals,
      hostBytes,
      fitsGpu: totals.fits === true,
      fitsHost: request.maxHostBytes === null || hostBytes <= request.maxHostBytes,
    };
  };

  /**
   * Combinations that fit at no micro-batch, for the memory floors, by their number in the walk: the values' indices
   * as the digits of a mixed-radix number whose place values are the subtree sizes (`below`), so that a twin's number
   * is this one's plus the difference of one digit.
   */
  const fitsNowhere = new Set<number>();
  let leaf = 0;
  /** Whether some dimension's memory-floor twin fits nowhere; then so does this combination, counted as such. */
  const belowFailedFloor = (): boolean => {
    if (fitsNowhere.size === 0) return false;
    for (let depth = 0; depth < each.length; depth++) {
      const floor = each[depth]?.memoryFloor?.(options, ctx) ?? null;
      if (floor === null) continue;
      const twin = levelIndex[depth]?.get(floor.value) ?? -1;
      if (twin < 0 || !fitsNowhere.has(leaf + (twin - (indices[depth] ?? 0)) * (below[depth] ?? 1))) continue;
      fitsNowhere.add(leaf);
      reject('needs-more', floor.reason);
      return true;
    }
    return false;
  };

  const finish = (picked: readonly PlanChoice[]) => {
    combinations += 1;
    if (belowFailedFloor()) return;
    const values = monotone?.choices(ctx, options) ?? [NO_CHOICE];
    const last = values.length - 1;
    if (last < 0) return reject('ruled-out', rejectionMessages.noMicroBatch);
    const seen: (Estimated | undefined)[] = [];
    // The combination's options are checked once for all its micro-batches (totalsBySplit), when the first is estimated.
    let bySplit: ((split: BatchSplit) => TotalsOutcome) | null = null;
    const at = (index: number) => {
      const cached = seen[index];
      if (cached !== undefined) return cached;
      const { microBatch, gradAccum } = values[index]?.patch ?? {};
      const evaluation = evaluated(
        microBatch === undefined || gradAccum === undefined
          ? estimateTotals(options)
          : (bySplit ??= totalsBySplit(options))({ microBatch, gradAccum }),
      );
      seen[index] = evaluation;
      return evaluation;
    };
    const push = (index: number) => {
      const chosen = at(index);
      const value = values[index];
      if ('errors' in chosen || value === undefined) return;
      const choices = monotone === undefined ? picked.slice() : [...picked, planChoice(value, monotone.id)];
      plans.push(toPlan(hardware, choices, base, chosen));
      plansAt.push(leaf);
    };
    const choice = chooseMicroBatch(at, fits, values, options);
    if (choice.kind === 'invalid') return reject('invalid', choice.errors);
    if (choice.kind === 'plan') return push(choice.index);
    // Nothing fits: the micro-batch without accumulation was estimated (else the choice is 'invalid'), and so was the
    // smallest; the combination's gap is the smaller of theirs.
    const single = at(last) as Evaluation;
    const bottom = at(0);
    const closest = !('errors' in bottom) && gapOf(bottom) < gapOf(single) ? { e: bottom, index: 0 } : { e: single, index: last };
    return rejectMemory(closest.e, () => copyOptions(options, values[closest.index]?.patch ?? {}));
  };

  /**
   * Bytes short of fitting: GPU memory missing plus host RAM over the limit. Counting both keeps the gap from falling
   * when a combination needs more of either memory, which the dominance rules' skipped twins rely on.
   */
  const hostOver = (e: Evaluation) => (request.maxHostBytes === null ? 0 : Math.max(0, e.hostBytes - request.maxHostBytes));
  const gapOf = (e: Evaluation) => (e.fitsGpu ? 0 : (e.totals.shortfall ?? 0)) + hostOver(e);

  const rejectMemory = (e: Evaluation, closest: () => EstimateOptions) => {
    fitsNowhere.add(leaf);
    const r = e.totals;
    const bytes = gapOf(e);
    if (!e.fitsGpu) {
      const usable = hardware.gpu.memoryBytes - (r.headroom?.bytes ?? 0);
      const states = r.perGpu.weights + r.perGpu.gradients + r.perGpu.optimizer + r.perGpu.overhead;
      const kind: RejectionKind = states > usable ? 'model-states' : 'activations';
      const shortOf: ShortOf = hostOver(e) > 0 ? 'gpu+host' : 'gpu';
      const reason = kind === 'model-states' ? rejectionMessages.modelStates : rejectionMessages.activations;
      return reject(kind, reason, 1, { bytes, shortOf, options: closest });
    }
    return reject('host-memory', rejectionMessages.hostMemory, 1, { bytes, shortOf: 'host', options: closest });
  };

  // The values of the `each` dimensions depend only on the context (Dimension.choices), so they are listed once, with
  // the options each level sets, and the number of combinations below any depth is a product.
  const levels = each.map((d) => d.choices(ctx, options));
  const levelKeys = levels.map(
    (values) => [...new Set(values.flatMap((v) => Object.keys(v.patch)))] as (keyof EstimateOptions)[],
  );
  const below = levels.map((_, depth) => levels.slice(depth + 1).reduce((size, values) => size * values.length, 1));
  const levelIndex = levels.map((values) => new Map(values.map((value, index) => [value.value, index])));
  /** Whether the combination so far passes the rules of the dimensions up to `depth`. */
  const passesRulesUpTo = (depth: number) => {
    for (let i = 0; i <= depth; i++) if ((each[i]?.rule?.(options, ctx) ?? null) !== null) return false;
    return true;
  };
  // Each value's options in its level's key order (undefined: the option as the level found it), so that setting a
  // value reads no patch by key. The walk below uses index loops and allocates nothing per node but its saved options:
  // it visits tens of thousands of nodes per search, and allocation is most of what a first search spends
  // (npm run bench -- planner).
  const levelPatches = levels.map((values, depth) =>
    values.map((value) => (levelKeys[depth] ?? []).map((key) => value.patch[key])),
  );
  const levelChoices = levels.map((values, depth) => values.map((value) => planChoice(value, each[depth]?.id ?? '')));
  // One stack of picked values, and of their indices, for the whole walk; a plan copies it.
  const picked: PlanChoice[] = [];
  const indices: number[] = [];
  const walk = (depth: number) => {
    const dimension = each[depth];
    if (dimension === undefined) return finish(picked);
    const size = below[depth] ?? 1;
    const keys = levelKeys[depth] ?? [];
    const values = levels[depth] ?? [];
    const patches = levelPatches[depth] ?? [];
    const choices = levelChoices[depth] ?? [];
    const saved: EstimateOptions[keyof EstimateOptions][] = [];
    for (let k = 0; k < keys.length; k++) saved.push(options[keys[k] as keyof EstimateOptions]);
    for (let index = 0; index < values.length; index++) {
      // A share of the search takes its own values of the first dimension only.
      if (depth === 0 && index % share.of !== share.index) continue;
      const patch = patches[index] ?? [];
      for (let k = 0; k < keys.length; k++) setOption(options, keys[k] as keyof EstimateOptions, patch[k] ?? saved[k]);
      const reason = dimension.rule?.(options, ctx) ?? null;
      if (reason !== null) {
        combinations += size;
        reject('ruled-out', reason, size);
        continue;
      }
      // A twin never worse, searched wherever this value would be (Dimension.dominatedBy): the subtree is counted.
      const twin = dimension.dominatedBy?.(options, ctx) ?? null;
      if (twin !== null && withPatch(options, twin.patch, () => passesRulesUpTo(depth))) {
        combinations += size;
        reject('ruled-out', twin.reason, size);
        continue;
      }
      if (dimension.checkEarly === true) {
        evaluations += 1;
        const outcome = estimateTotals(options);
        if (!outcome.ok) {
          combinations += size;
          reject('invalid', outcome.errors.map((e) => `${e.field}: ${e.message}`).join('; '), size);
          continue;
        }
      }
      picked.push(choices[index] as PlanChoice);
      indices.push(index);
      leaf += index * size;
      walk(depth + 1);
      leaf -= index * size;
      picked.pop();
      indices.pop();
    }
    for (let k = 0; k < keys.length; k++) setOption(options, keys[k] as keyof EstimateOptions, saved[k]);
  };
  walk(0);

  const rejected = [...groups.values()].flatMap((byReason) => [...byReason.values()]);
  return { hardware, plans, plansAt, rejected, combinations, evaluations };
}

/** The micro-batch value of a search without a monotone dimension. */
const NO_CHOICE: Choice = { value: '', patch: {}, lessons: [] };

/**
 * Set one option; undefined restores the engine's default (the engine reads an undefined option as absent). Not
 * `delete`: an object that loses properties becomes a slow dictionary for every estimate that reads it.
 */
function setOption<K extends keyof EstimateOptions>(
  options: EstimateOptions,
  key: K,
  value: EstimateOptions[K] | undefined,
): void {
  (options as Record<K, EstimateOptions[K] | undefined>)[key] = value;
}

/** A copy of `options` with `patch` over them: a rejection group's closest combination, kept beyond the walk's visit. */
function copyOptions(options: EstimateOptions, patch: EstimateOptions): EstimateOptions {
  return { ...options, ...patch };
}

/** Run `fn` with `patch` set on `options`, then restore what it replaced. */
function withPatch<T>(options: EstimateOptions, patch: EstimateOptions, fn: () => T): T {
  const saved: EstimateOptions = {};
  for (const key in patch) setOption(saved, key as keyof EstimateOptions, options[key as keyof EstimateOptions]);
  for (const key in patch) setOption(options, key as keyof EstimateOptions, patch[key as keyof EstimateOptions]);
  try {
    return fn();
  } finally {
    for (const key in saved) setOption(options, key as keyof EstimateOptions, saved[key as keyof EstimateOptions]);
  }
}

/** The flags every plan of one request shares (the model, sequence and margin): all the given ones but the GPU. */
const SHARED_FLAGS = new Set(FIXED_ESTIMATE_FLAGS.filter((flag) => flag !== 'gpu'));

/**
 * The `estimate` options that reproduce a plan: its search's base with each choice's options over it, in search order,
 * as the walk set them (a brute-force test holds every plan's to the engine's numbers).
 */
export function planOptions(plan: FittingPlan): EstimateOptions {
  const options: Record<string, unknown> = { ...plan.base };
  for (const choice of plan.choices) {
    const patch = choice.patch as Record<string, unknown>;
    for (const key in patch) if (patch[key] !== undefined) options[key] = patch[key];
  }
  return options as EstimateOptions;
}

/** A plan's `estimate` flags (`npm run estimate -- --flag value`, or a URL query). */
export function planFlags(plan: FittingPlan): Record<string, string> {
  return formatEstimateFlags(planOptions(plan));
}

/** Lessons a plan's choices use, in reading order; renting adds the one that compares it. */
export function planLessons(plan: FittingPlan): readonly LessonId[] {
  return orderLessons(plan.choices, plan.hardware.rented ? RENTED_LESSONS : []);
}

/**
 * A plan's key, stable within a request: its own flags as a URL query, e.g. `gpu=rtx-4090&precision=amp-bf16&…` (of a
 * plan: planKey(planFlags(plan))).
 */
export function planKey(flags: Readonly<Record<string, string>>): string {
  let key = '';
  for (const name in flags) if (!SHARED_FLAGS.has(name)) key += `${key === '' ? '' : '&'}${name}=${flags[name]}`;
  return key;
}

/** One shared PlanChoice per value (the page copies the plans out of its worker, and a shared object is copied once). */
function planChoice(choice: Choice, dimension: string): PlanChoice {
  let shared = PLAN_CHOICES.get(choice);
  if (shared === undefined)
    PLAN_CHOICES.set(choice, (shared = { dimension, value: choice.value, lessons: choice.lessons, patch: choice.patch }));
  return shared;
}
const PLAN_CHOICES = new WeakMap<Choice, PlanChoice>();

/** What a plan on rented GPUs adds to its lessons: the one that compares renting. */
const RENTED_LESSONS: readonly LessonId[] = ['08-putting-it-together'];

function toPlan(hardware: Hardware, choices: readonly PlanChoice[], base: EstimateOptions, e: Evaluation): FittingPlan {
  const stepSeconds = e.totals.stepSeconds;
  if (stepSeconds === null) throw new Error('the engine gives a step time whenever a GPU is set');
  return {
    hardware,
    choices,
    base,
    perGpu: e.totals.perGpu,
    hostBytes: e.hostBytes,
    stepTimeSeconds: stepSeconds.total,
  };
}
