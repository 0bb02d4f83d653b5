/**
 * Plans inside one error band, as one group (issue #31 item 3): the step-time model is measured to be off by a band
 * (src/memory/step-time/band.ts), so plans whose predictions are closer than the band cannot be told apart by it, and
 * ranking them strictly would put hundreds of near-identical rows before the reader. Within a group the simplest plan
 * leads (simplicityKey).
 */
import { PREDICTED_OVER_MEASURED } from '../memory/index.ts';
import { rankMetric, type Plan } from './plan.ts';
import type { PlanRequest } from './request.ts';
import { planOptions } from './search.ts';

/**
 * How far above the group's first plan a ranking metric may be and still be in its group. Two predictions a ≤ b are
 * measured within [a / p90, a / p10] and [b / p90, b / p10] (8 times in 10 each); their ranges overlap, so the slower
 * prediction may be the faster run, while b / a < p90 / p10. A cost is the step time times a fixed price, so the same
 * ratio bounds costs.
 */
export const BAND_RATIO = PREDICTED_OVER_MEASURED.p90 / PREDICTED_OVER_MEASURED.p10;

/** One dimension in which the members of a group differ. */
export interface PlanDifference {
  /** Dimension id (a search dimension's, or `hardware` when members run on different GPUs). */
  readonly dimension: string;
  /** The values members take, in the order the members are listed. */
  readonly values: readonly string[];
}

/** Plans whose ranking metrics lie within BAND_RATIO of the group's first. */
export interface PlanGroup {
  /** 1 for the group holding the best-ranked plan. */
  readonly index: number;
  /** Members, simplest first (simplicityKey); the first is the plan the group shows. */
  readonly plans: readonly Plan[];
  /** The dimensions in which members differ, in search order (hardware first); empty for a group of one. */
  readonly differences: readonly PlanDifference[];
}

/**
 * Split ranked plans (best first, as PlanResult.plans) into groups: a plan joins the current group while its ranking
 * metric is within BAND_RATIO of the group's first plan's, and otherwise starts the next group. Plans ranked last for
 * want of a price (an infinite cost) are grouped among themselves by step time. Groups are numbered from `firstIndex`.
 */
export function groupPlans(request: PlanRequest, plans: readonly Plan[], firstIndex = 1): PlanGroup[] {
  const members: Plan[][] = [];
  let current: Plan[] = [];
  let first: { priced: boolean; value: number } | null = null;
  for (const plan of plans) {
    const metric = rankMetric(request, plan.stepTimeSeconds, plan.cost);
    const priced = Number.isFinite(metric);
    const value = priced ? metric : plan.stepTimeSeconds;
    if (first === null || first.priced !== priced || value > first.value * BAND_RATIO) {
      if (current.length > 0) members.push(current);
      current = [];
      first = { priced, value };
    }
    current.push(plan);
  }
  if (current.length > 0) members.push(current);
  return members.map((group, i) => {
    const ordered = sortBySimplicity(group);
    return { index: firstIndex + i, plans: ordered, differences: differencesOf(ordered) };
  });
}

/** The groups of the reader's GPUs' plans and, apart, of the rented GPUs' (PlanResult.plans lists them in this order). */
export interface PlanSections {
  /** Groups of the plans on the reader's own GPUs, numbered from 1. */
  readonly own: readonly PlanGroup[];
  /** Groups of the plans on rented GPUs (`--rent`), numbered on after the reader's. */
  readonly rented: readonly PlanGroup[];
}

/**
 * The plans in two sections, each grouped (issue #31 item 8): the planner answers for the reader's own GPUs, so their
 * plans come first, and renting is a comparison below them, never mixed in one list where faster rented GPUs would
 * push the reader's plans off the first page.
 */
export function planSections(request: PlanRequest, plans: readonly Plan[]): PlanSections {
  const own = groupPlans(
    request,
    plans.filter((plan) => !plan.hardware.rented),
  );
  const rented = groupPlans(
    request,
    plans.filter((plan) => plan.hardware.rented),
    own.length + 1,
  );
  return { own, rented };
}

/**
 * A plan's simplicity, compared element by element, smaller first:
 * 1. how many techniques it adds to plain data-parallel training (tensor and pipeline parallelism, ZeRO, offload,
 *    adapters, recompute, accumulation, 8-bit AdamW, pure 16-bit weights): each is a setting to get right and a way
 *    for a run to go wrong;
 * 2. its pipeline depth: a pipeline splits the model's code into stages and adds a bubble, which Narayanan et al. 2021
 *    (arXiv 2104.04473 §5.4.2) advise using only as far as memory needs;
 * 3. what it offloads (none, the optimizer, the weights too): offload's time rests on the host's memory and PCIe,
 *    which vary most between machines;
 * 4. its rank: among equally simple plans, the faster (or cheaper) prediction.
 * Precision, attention kernel and AdamW implementation are not counted: every plan takes one of each.
 */
export function simplicityKey(plan: Plan): readonly number[] {
  const o = planOptions(plan);
  const pp = o.pp ?? 1;
  const offload = o.offload === 'optimizer+params' ? 2 : o.offload === 'optimizer' ? 1 : 0;
  const techniques = [
    (o.tp ?? 1) > 1,
    pp > 1,
    (o.zero ?? 0) > 0,
    offload > 0,
    (o.finetune ?? 'full') !== 'full',
    (o.recompute ?? 'none') !== 'none',
    (o.gradAccum ?? 1) > 1,
    o.optimizer === 'adamw-8bit',
    o.precision === 'bf16',
  ].filter(Boolean).length;
  return [techniques, pp, offload, plan.rank];
}

function sortBySimplicity(plans: readonly Plan[]): Plan[] {
  const keyed = plans.map((plan) => ({ plan, key: simplicityKey(plan) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < a.key.length; i++) {
      const d = (a.key[i] ?? 0) - (b.key[i] ?? 0);
      if (d !== 0) return d;
    }
    return 0;
  });
  return keyed.map(({ plan }) => plan);
}

/** The label of a plan's hardware, as a difference lists it: `8 × h100-80gb`, `(rent)` when rented. */
export function hardwareLabel(plan: Pick<Plan, 'hardware'>): string {
  return `${plan.hardware.gpus} × ${plan.hardware.gpu.id}${plan.hardware.rented ? ' (rent)' : ''}`;
}

function differencesOf(plans: readonly Plan[]): PlanDifference[] {
  const byDimension = new Map<string, Set<string>>();
  const add = (dimension: string, value: string) => {
    let values = byDimension.get(dimension);
    if (values === undefined) byDimension.set(dimension, (values = new Set()));
    values.add(value);
  };
  for (const plan of plans) {
    add('hardware', hardwareLabel(plan));
    for (const choice of plan.choices) add(choice.dimension, choice.value);
  }
  const differences: PlanDifference[] = [];
  for (const [dimension, values] of byDimension) if (values.size > 1) differences.push({ dimension, values: [...values] });
  return differences;
}
