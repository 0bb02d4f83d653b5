/**
 * The search: every combination of the dimensions' values on each set of GPUs searched, each checked by the
 * engine. Combinations with a twin that is never worse (Dimension.dominatedBy), or with a twin that never needs more
 * memory and fits nowhere (Dimension.memoryFloor), are counted, not estimated. The only other pruning is the
 * micro-batch bisection (among micro-batches with accumulation memory never falls as it grows; the one without is
 * checked on its own) and, where the step time cannot depend on it, taking the largest or smallest micro-batch that fits.
 */
import {
  estimateTotals,
  formatEstimateFlags,
  totalsOnGpus,
  type BatchSplit,
  type EstimateOptions,
  type GpuSpec,
  type ModelConfig,
  type PerGpuTotals,
  type TotalsOutcome,
} from '../memory/index.ts';
import { DIMENSIONS, type Choice, type Dimension } from './dimensions.ts';
import { HardwareFindings } from './findings.ts';
import type { LessonSlug } from '../base/lessons.ts';
import { orderLessons } from './order-lessons.ts';
import { chooseMicroBatch, type Estimated, type Evaluation } from './micro-batch.ts';
import { PLANNER_WORDS, type PlannerWords } from './messages.ts';
import { FIXED_ESTIMATE_FLAGS } from './plan-flags.ts';
import type { PlanRequest } from './request.ts';

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
  readonly lessons: readonly LessonSlug[];
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

/**
 * Search one share of the combinations of `dimensions` for `request` (whose model resolved to `model`) on each set of
 * GPUs in `hardware`, one part each, in their order. One walk: each set keeps its own rules, floors, plans and
 * rejections, so that each part is what searching it alone gives (a test holds them to it), while the engine builds each
 * estimated micro-batch of a combination once for all of them (totalsOnGpus). Renting compared, the reader's GPUs and
 * those offered for rent at the reader's count are searched in one walk rather than one walk each. The sets must be of
 * one size (the layouts and micro-batches depend on it).
 */
export function searchParts(
  request: PlanRequest,
  hardware: readonly Hardware[],
  model: ModelConfig,
  dimensions: readonly Dimension[] = DIMENSIONS,
  share: SearchShare = WHOLE_SEARCH,
  words: PlannerWords = PLANNER_WORDS,
): SearchPart[] {
  const all = hardware.map((h) => new HardwareFindings(request, h, model, words));
  const first = all[0];
  if (first === undefined) return [];
  if (hardware.some((h) => h.gpus !== first.hardware.gpus)) throw new Error('one walk searches sets of GPUs of one size');
  const each = dimensions.filter((d) => d.search === 'each');
  const monotone = dimensions.find((d) => d.search === 'monotone');

  /**
   * The combination being built. The walk sets each dimension's options on this one object and restores them when it
   * backtracks, rather than copying every option at every node (tens of thousands per search, npm run bench -- planner);
   * anything kept beyond one visit (a plan, the closest combination) is copied. Its GPU is the first set's: the rules
   * read their set's from their context, and the engine is told each set's.
   */
  const options: EstimateOptions = { ...first.base };

  /**
   * The combination's number in the walk: the values' indices as the digits of a mixed-radix number whose place values
   * are the subtree sizes (`below`), so that a twin's number is this one's plus the difference of one digit.
   */
  let leaf = 0;
  /** Whether some dimension's memory-floor twin fits nowhere on `found`'s GPUs; then so does this combination, counted as such. */
  const belowFailedFloor = (found: HardwareFindings): boolean => {
    if (found.fitsNowhere.size === 0) return false;
    for (let depth = 0; depth < each.length; depth++) {
      const floor = each[depth]?.memoryFloor?.(options, found.ctx) ?? null;
      if (floor === null) continue;
      const twin = levelIndex[depth]?.get(floor.value) ?? -1;
      if (twin < 0 || !found.fitsNowhere.has(leaf + (twin - (indices[depth] ?? 0)) * (below[depth] ?? 1))) continue;
      found.fitsNowhere.add(leaf);
      found.reject('needs-more', floor.reason, leaf);
      return true;
    }
    return false;
  };

  const finish = (active: readonly HardwareFindings[]) => {
    let live: HardwareFindings[] | null = null;
    for (let a = 0; a < active.length; a++) {
      const found = active[a] as HardwareFindings;
      found.combinations += 1;
      if (!belowFailedFloor(found)) (live ??= []).push(found);
    }
    if (live === null) return;
    const values = monotone?.choices(first.ctx, options) ?? [NO_CHOICE];
    // Each micro-batch's outcomes on every live set of GPUs, estimated when a set first asks for them: the combination's
    // options are checked and each micro-batch's step built once for all the sets (totalsOnGpus).
    const outcomes: (readonly TotalsOutcome[] | undefined)[] = [];
    let bySplit: ((split: BatchSplit) => TotalsOutcome[]) | null = null;
    const gpus = live.map((found) => found.hardware.gpu);
    const outcomesAt = (index: number): readonly TotalsOutcome[] => {
      const cached = outcomes[index];
      if (cached !== undefined) return cached;
      const { microBatch, gradAccum } = values[index]?.patch ?? {};
      const estimated =
        microBatch === undefined || gradAccum === undefined
          ? gpus.map((gpu) => estimateTotals({ ...options, gpu: gpu.id }))
          : (bySplit ??= totalsOnGpus(options, gpus))({ microBatch, gradAccum });
      outcomes[index] = estimated;
      return estimated;
    };
    for (let k = 0; k < live.length; k++) finishOn(live[k] as HardwareFindings, values, (index) => outcomesAt(index)[k]);
  };

  /** The end of the combination on one set of GPUs: its micro-batch, and a plan or a rejection. */
  const finishOn = (
    found: HardwareFindings,
    values: readonly Choice[],
    outcomeAt: (index: number) => TotalsOutcome | undefined,
  ) => {
    const last = values.length - 1;
    if (last < 0) return found.reject('ruled-out', found.ctx.words.rejections.noMicroBatch, leaf);
    const seen: (Estimated | undefined)[] = [];
    const at = (index: number) => (seen[index] ??= found.evaluate(outcomeAt(index)));
    const choice = chooseMicroBatch(at, fits, values, options);
    if (choice.kind === 'invalid') return found.reject('invalid', choice.errors, leaf);
    if (choice.kind === 'plan') {
      const chosen = at(choice.index);
      const value = values[choice.index];
      if ('errors' in chosen || value === undefined) return;
      const choices = monotone === undefined ? picked.slice() : [...picked, planChoice(value, monotone.id)];
      return found.addPlan(choices, chosen, leaf);
    }
    // Nothing fits: the micro-batch without accumulation was estimated (else the choice is 'invalid'), and so was the
    // smallest; the combination's gap is the smaller of theirs.
    const single = at(last) as Evaluation;
    const bottom = at(0);
    const closest =
      !('errors' in bottom) && found.gapOf(bottom) < found.gapOf(single) ? { e: bottom, index: 0 } : { e: single, index: last };
    const gpu = found.hardware.gpu.id;
    return found.rejectMemory(closest.e, leaf, () => ({ ...options, gpu, ...values[closest.index]?.patch }));
  };

  // The values of the `each` dimensions depend only on the context's request and GPU count (Dimension.choices), so they
  // are listed once, with the options each level sets, and the number of combinations below any depth is a product.
  const levels = each.map((d) => d.choices(first.ctx, options));
  const levelKeys = levels.map(
    (values) => [...new Set(values.flatMap((v) => Object.keys(v.patch)))] as (keyof EstimateOptions)[],
  );
  const below = levels.map((_, depth) => levels.slice(depth + 1).reduce((size, values) => size * values.length, 1));
  const levelIndex = levels.map((values) => new Map(values.map((value, index) => [value.value, index])));
  /** Whether the combination so far passes the rules of the dimensions up to `depth` on `found`'s GPUs. */
  const passesRulesUpTo = (depth: number, found: HardwareFindings) => {
    for (let i = 0; i <= depth; i++) if ((each[i]?.rule?.(options, found.ctx) ?? null) !== null) return false;
    return true;
  };
  /** Whether a rule or a twin never worse leaves the subtree of `size` combinations out on `found`'s GPUs (then counted so). */
  const leavesOut = (dimension: Dimension, depth: number, size: number, found: HardwareFindings) => {
    const reason = dimension.rule?.(options, found.ctx) ?? null;
    if (reason !== null) {
      found.combinations += size;
      found.reject('ruled-out', reason, leaf, size);
      return true;
    }
    // A twin never worse, searched wherever this value would be (Dimension.dominatedBy): the subtree is counted.
    const twin = dimension.dominatedBy?.(options, found.ctx) ?? null;
    if (twin !== null && withPatch(options, twin.patch, () => passesRulesUpTo(depth, found))) {
      found.combinations += size;
      found.reject('ruled-out', twin.reason, leaf, size);
      return true;
    }
    return false;
  };
  // Each value's options in its level's key order (undefined: the option as the level found it), so that setting a
  // value reads no patch by key. The walk below uses index loops and allocates little per node: it visits tens of
  // thousands of nodes per search, and allocation is most of what a first search spends (docs/PERFORMANCE.md § Planner
  // search).
  const levelPatches = levels.map((values, depth) =>
    values.map((value) => (levelKeys[depth] ?? []).map((key) => value.patch[key])),
  );
  const levelChoices = levels.map((values, depth) => values.map((value) => planChoice(value, each[depth]?.id ?? '')));
  // One stack of picked values, and of their indices, for the whole walk; a plan copies it.
  const picked: PlanChoice[] = [];
  const indices: number[] = [];
  /** Walk the subtree at `depth` on the sets of GPUs `active` (those no rule has left out above it). */
  const walk = (depth: number, active: readonly HardwareFindings[]) => {
    const dimension = each[depth];
    if (dimension === undefined) return finish(active);
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
      // The sets that go on: `active` itself until one is left out (a new list only then).
      let next: HardwareFindings[] | readonly HardwareFindings[] = active;
      for (let a = 0; a < active.length; a++) {
        const found = active[a] as HardwareFindings;
        if (leavesOut(dimension, depth, size, found)) {
          if (next === active) next = active.slice(0, a);
        } else if (next !== active) (next as HardwareFindings[]).push(found);
      }
      if (next.length === 0) continue;
      if (dimension.checkEarly === true) {
        // The engine's errors do not depend on the GPU preset (only its warnings do): one check for every set.
        const outcome = estimateTotals(options);
        for (let a = 0; a < next.length; a++) (next[a] as HardwareFindings).evaluations += 1;
        if (!outcome.ok) {
          const errors = outcome.errors.map((e) => `${e.field}: ${words.fieldError(e)}`).join('; ');
          for (let a = 0; a < next.length; a++) {
            const found = next[a] as HardwareFindings;
            found.combinations += size;
            found.reject('invalid', errors, leaf, size);
          }
          continue;
        }
      }
      picked.push(choices[index] as PlanChoice);
      indices.push(index);
      leaf += index * size;
      walk(depth + 1, next);
      leaf -= index * size;
      picked.pop();
      indices.pop();
    }
    for (let k = 0; k < keys.length; k++) setOption(options, keys[k] as keyof EstimateOptions, saved[k]);
  };
  walk(0, all);
  return all.map((found) => found.part());
}

const fits = (e: Evaluation) => e.fitsGpu && e.fitsHost;

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
export function planLessons(plan: FittingPlan): readonly LessonSlug[] {
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
const RENTED_LESSONS: readonly LessonSlug[] = ['putting-it-together'];
