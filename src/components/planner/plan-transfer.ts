/**
 * Plans packed for the trip between the page and its planner workers. postMessage copies every object of every plan
 * one at a time (structuredClone), which took most of a large search's time (why: see docs/PERFORMANCE.md § Planner in
 * the page). Packed, a plan's numbers travel in one typed array, and the objects plans share (the
 * GPUs, the base options, the choices) once each; the receiving side rebuilds plans equal to the sent ones (a test
 * holds unpack to pack). Written here because no library packs this shape: general serializers copy object by object.
 */
import { LINE_CATEGORIES, type EstimateOptions, type PerGpuTotals } from '../../memory/index';
import {
  planRun,
  PRICE_TIERS,
  type FittingPlan,
  type Hardware,
  type Plan,
  type PlanChoice,
  type PlanCost,
  type PlanResult,
  type PriceTier,
} from '../../planner/index';

/** Plans as they travel: shared objects listed once, each plan's references to them and its numbers in typed arrays. */
export interface PackedPlans {
  readonly count: number;
  readonly hardware: readonly Hardware[];
  readonly bases: readonly EstimateOptions[];
  readonly choices: readonly PlanChoice[];
  /** Per plan: its hardware's and its base's index. */
  readonly hardwareAt: Uint16Array;
  readonly baseAt: Uint16Array;
  /** Plan i's choices are choices[choiceAt[k]] for k from choiceStart[i] to choiceStart[i + 1]. */
  readonly choiceStart: Uint32Array;
  readonly choiceAt: Uint16Array;
  /** Per plan, FITTING numbers (PER_GPU's fields, host bytes, step seconds), then for ranked plans RANKED more. */
  readonly numbers: Float64Array;
  /** Whether the plans are ranked (Plan: rank and cost). */
  readonly ranked: boolean;
}

/** A plan's GPU bytes, in the engine's order of PerGpuTotals (the rebuilt objects then share one shape). */
const PER_GPU: readonly (keyof PerGpuTotals)[] = [...LINE_CATEGORIES, 'activationsPerLayer', 'total', 'sumOfParts'];
/** Numbers every plan carries: its GPU bytes, host bytes and step seconds. */
const FITTING = PER_GPU.length + 2;
/** Numbers a ranked plan adds: its rank, whether it has a cost (0 none, 1 per step, 2 per step and epoch), the costs. */
const RANKED = 2 + 2 * PRICE_TIERS.length;

/** Something that carries plans (a search, a share of one, an answer), with its plans packed. */
export type WithPackedPlans<T extends { readonly plans: readonly FittingPlan[] }> = Omit<T, 'plans'> & {
  readonly plans: PackedPlans;
};

/** A search (or a share of one) with its plans packed. */
export function packSearch<T extends { readonly plans: readonly FittingPlan[] }>(search: T): WithPackedPlans<T> {
  return { ...search, plans: pack(search.plans, false) };
}

/** The search packSearch packed. */
export function unpackSearch<T extends { readonly plans: readonly FittingPlan[] }>(packed: WithPackedPlans<T>): T {
  const plans: FittingPlan[] = [];
  for (let i = 0; i < packed.plans.count; i++) plans.push(fittingPlan(packed.plans, i));
  return { ...packed, plans } as unknown as T;
}

/** An answer with its ranked plans packed, ranks and costs included. */
export function packResult(result: PlanResult): WithPackedPlans<PlanResult> {
  return { ...result, plans: pack(result.plans, true) };
}

/** The answer packResult packed. */
export function unpackResult(packed: WithPackedPlans<PlanResult>): PlanResult {
  const { numbers } = packed.plans;
  if (!packed.plans.ranked) throw new Error('an answer’s plans are packed with their ranks');
  const plans: Plan[] = [];
  for (let i = 0; i < packed.plans.count; i++) {
    const at = i * (FITTING + RANKED) + FITTING;
    const p = fittingPlan(packed.plans, i);
    // The run's budget follows from the request and the plan's step: computed again, not packed.
    plans.push({
      hardware: p.hardware,
      choices: p.choices,
      base: p.base,
      perGpu: p.perGpu,
      hostBytes: p.hostBytes,
      stepTimeSeconds: p.stepTimeSeconds,
      rank: numbers[at] ?? 0,
      cost: costAt(numbers, at + 1),
      run: planRun(packed.request, p),
    });
  }
  return { ...packed, plans };
}

function pack(plans: readonly (FittingPlan | Plan)[], ranked: boolean): PackedPlans {
  const width = FITTING + (ranked ? RANKED : 0);
  const hardware = new Indexer<Hardware>();
  const bases = new Indexer<EstimateOptions>();
  const choices = new Indexer<PlanChoice>();
  const hardwareAt = new Uint16Array(plans.length);
  const baseAt = new Uint16Array(plans.length);
  const choiceStart = new Uint32Array(plans.length + 1);
  const choiceAt: number[] = [];
  const numbers = new Float64Array(plans.length * width);
  plans.forEach((plan, i) => {
    hardwareAt[i] = hardware.of(plan.hardware);
    baseAt[i] = bases.of(plan.base);
    for (const choice of plan.choices) choiceAt.push(choices.of(choice));
    choiceStart[i + 1] = choiceAt.length;
    let at = i * width;
    for (const field of PER_GPU) numbers[at++] = plan.perGpu[field];
    numbers[at++] = plan.hostBytes;
    numbers[at++] = plan.stepTimeSeconds;
    if (!ranked) return;
    if (!('rank' in plan)) throw new Error('ranked plans carry their rank and cost');
    numbers[at++] = plan.rank;
    numbers[at++] = plan.cost === null ? 0 : plan.cost.perEpoch === null ? 1 : 2;
    for (const tier of PRICE_TIERS) numbers[at++] = plan.cost?.perStep[tier] ?? 0;
    for (const tier of PRICE_TIERS) numbers[at++] = plan.cost?.perEpoch?.[tier] ?? 0;
  });
  if (Math.max(hardware.list.length, bases.list.length, choices.list.length) > 0xffff)
    throw new Error('too many distinct GPUs, bases or choices to pack');
  return {
    count: plans.length,
    hardware: hardware.list,
    bases: bases.list,
    choices: choices.list,
    hardwareAt,
    baseAt,
    choiceStart,
    choiceAt: Uint16Array.from(choiceAt),
    numbers,
    ranked,
  };
}

/** The FittingPlan fields of plan `i`. */
function fittingPlan(packed: PackedPlans, i: number): FittingPlan {
  const { numbers } = packed;
  const width = FITTING + (packed.ranked ? RANKED : 0);
  let at = i * width;
  const choices: PlanChoice[] = [];
  for (let k = packed.choiceStart[i] ?? 0; k < (packed.choiceStart[i + 1] ?? 0); k++)
    choices.push(packed.choices[packed.choiceAt[k] ?? 0] as PlanChoice);
  const perGpu: PerGpuTotals = {
    weights: numbers[at++] ?? 0,
    gradients: numbers[at++] ?? 0,
    optimizer: numbers[at++] ?? 0,
    activations: numbers[at++] ?? 0,
    kvCache: numbers[at++] ?? 0,
    overhead: numbers[at++] ?? 0,
    activationsPerLayer: numbers[at++] ?? 0,
    total: numbers[at++] ?? 0,
    sumOfParts: numbers[at++] ?? 0,
  };
  return {
    hardware: packed.hardware[packed.hardwareAt[i] ?? 0] as Hardware,
    choices,
    base: packed.bases[packed.baseAt[i] ?? 0] as EstimateOptions,
    perGpu,
    hostBytes: numbers[at++] ?? 0,
    stepTimeSeconds: numbers[at] ?? 0,
  };
}

/** The cost packed from `at` (its kind, then the per-step and per-epoch costs by tier). */
function costAt(numbers: Float64Array, at: number): PlanCost | null {
  const kind = numbers[at];
  if (kind === 0) return null;
  const tiers = (from: number) => {
    const costs = {} as Record<PriceTier, number>;
    PRICE_TIERS.forEach((tier, t) => (costs[tier] = numbers[from + t] ?? 0));
    return costs;
  };
  return {
    perStep: tiers(at + 1),
    perEpoch: kind === 2 ? tiers(at + 1 + PRICE_TIERS.length) : null,
  };
}

/** Distinct objects in the order first seen, each with its index. */
class Indexer<T> {
  readonly list: T[] = [];
  private readonly index = new Map<T, number>();

  of(value: T): number {
    let i = this.index.get(value);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(value);
      this.index.set(value, i);
    }
    return i;
  }
}
