/**
 * The planner: search the reader's GPUs (and, with `--rent`, the GPUs offered for rent), rank every plan that fits,
 * and when nothing fits on the reader's GPUs, name the smallest gap and hardware that would close it.
 */
import {
  estimateMemory,
  estimateTotals,
  getGpuPreset,
  GPU_PRESETS,
  type EstimateOptions,
  type EstimateResult,
  type GpuSpec,
  type ModelConfig,
  type StepTimeEstimate,
} from '../memory/index.ts';
import { DIMENSIONS, type Dimension } from './dimensions.ts';
import { costOf, type GpuPrices, type PriceTier } from './prices.ts';
import { MAX_GPUS } from './plan-flags.ts';
import { runBudget, stepsFor, type RunBudget } from './run-budget.ts';
import type { PlanRequest } from './request.ts';
import type { PlannerWords } from './messages.ts';
import { searchHardware } from './merge.ts';
import { planOptions, type FittingPlan, type Hardware, type HardwareSearch, type RejectionKind, type ShortOf } from './search.ts';

/** What a plan costs in each price tier; null where its GPU has no price. */
export interface PlanCost {
  /** Cost of one optimizer step. */
  readonly perStep: Readonly<Record<PriceTier, number>>;
  /** Cost of one epoch (`epochTokens` given), else null. */
  readonly perEpoch: Readonly<Record<PriceTier, number>> | null;
}

/** A ranked plan. */
export interface Plan extends FittingPlan {
  /** 1 for the best on the reader's GPUs; rented GPUs' plans are numbered on after theirs. */
  readonly rank: number;
  /** Cost, or null without a price for its GPU. */
  readonly cost: PlanCost | null;
  /** The whole run of `request.trainTokens`: its time and cost with their band; null without a token budget. */
  readonly run: RunBudget | null;
}

/**
 * What the plan list leaves out, for one plan: the engine's whole estimate (its lines and its step timeline, the memory
 * at each moment of the step), its step-time lines and its warnings.
 */
export interface PlanDetails {
  readonly estimate: EstimateResult;
  readonly stepTime: StepTimeEstimate;
  readonly warnings: readonly string[];
}

/**
 * The engine's full answer for one plan, when a reader opens it. The list carries only what ranks and shows the plans:
 * the page copies the whole list out of its worker, and lines and warnings for every plan were most of it.
 */
export function planDetails(plan: FittingPlan): PlanDetails {
  const outcome = estimateMemory(planOptions(plan));
  if (!outcome.ok || outcome.result.stepTime === null) throw new Error('a plan is a configuration the engine estimated');
  return { estimate: outcome.result, stepTime: outcome.result.stepTime, warnings: outcome.result.warnings };
}

/** The smallest gap on the reader's GPUs when nothing fits there. */
export interface Shortfall {
  /** Bytes missing. */
  readonly bytes: number;
  /** Which memory is short. */
  readonly resource: ShortOf;
  /** The combination with that gap (micro-batch 1). */
  readonly options: EstimateOptions;
}

/** Hardware on which the closest combination, or some plan, fits. */
export interface HardwareSuggestion {
  /** GPU preset id. */
  readonly gpu: string;
  /** GPU name. */
  readonly name: string;
  /** How many. */
  readonly gpus: number;
}

/** What one search did, without its plans (the answer holds them once, ranked). */
export interface SearchSummary extends Omit<HardwareSearch, 'plans'> {
  /** Combinations that fit on this hardware. */
  readonly fitting: number;
}

/** The planner's answer. */
export interface PlanResult {
  readonly request: PlanRequest;
  /** Every plan that fits: on the reader's GPUs best first, then (with `rent`) on rented ones best first. */
  readonly plans: readonly Plan[];
  /** One search per set of GPUs, the reader's first. */
  readonly searches: readonly SearchSummary[];
  /** When nothing fits on the reader's GPUs: the smallest gap; else null. */
  readonly shortfall: Shortfall | null;
  /** When nothing fits on the reader's GPUs: larger GPUs on which the closest combination fits, and more of the reader's GPUs on which a plan does. */
  readonly wouldFit: readonly HardwareSuggestion[];
  /** Optimizer steps in one epoch, or null without `epochTokens`. */
  readonly stepsPerEpoch: number | null;
}

/** Options of `planTraining`. */
export interface PlanOptions {
  /** Dimensions to search; default DIMENSIONS. */
  readonly dimensions?: readonly Dimension[];
  /** Largest multiple of the reader's GPU count tried when nothing fits; default 64. */
  readonly maxScaleUp?: number;
  /**
   * The searches of `planHardware(request)`, in its order, already run (the page runs them in shares, in several
   * workers, and merges them); by default planTraining runs them.
   */
  readonly searches?: readonly HardwareSearch[];
  /** The words of the plans' choices and of the reasons, in the language that shows them; default English. */
  readonly words?: PlannerWords;
}

/** The GPUs a request searches: the reader's first, then, with renting compared, every other GPU with a price. */
export function planHardware(request: PlanRequest): Hardware[] {
  const own = getGpuPreset(request.gpu);
  if (own === undefined) throw new Error('planTraining needs a request from parsePlanFlags');
  const hardware: Hardware[] = [{ gpu: own, gpus: request.gpus, rented: false }];
  if (request.rent) {
    for (const gpu of GPU_PRESETS) {
      if (gpu.id !== own.id && request.prices[gpu.id] !== undefined) hardware.push({ gpu, gpus: request.gpus, rented: true });
    }
  }
  return hardware;
}

/** The model shape a request plans for (the engine's, with any shape flags applied). */
export function planModel(request: PlanRequest): ModelConfig {
  const probe = estimateMemory({ ...request.base, gpu: request.gpu, seq: request.seq });
  if (!probe.ok || probe.result.model === null) throw new Error('planTraining needs a request from parsePlanFlags');
  return probe.result.model;
}

/**
 * Plan a training job: every combination of the dimensions on the reader's GPUs and, with `request.rent`, on the priced
 * GPUs offered for rent, ranked by `request.rankBy`, the reader's GPUs' plans first.
 * @example planTraining(request).plans[0]?.flags
 */
export function planTraining(
  request: PlanRequest,
  { dimensions = DIMENSIONS, maxScaleUp = 64, searches: given, words }: PlanOptions = {},
): PlanResult {
  const hardware = planHardware(request);
  const own = hardware[0]?.gpu;
  const model = planModel(request);
  if (own === undefined) throw new Error('planTraining needs a request from parsePlanFlags');
  if (given !== undefined && given.length !== hardware.length) throw new Error('one search per planHardware(request)');
  const searches = given ?? searchHardware(request, hardware, model, dimensions, words);
  const stepsPerEpoch = request.epochTokens === null ? null : stepsFor(request.epochTokens, tokensPerStep(request));
  const plans = rankPlans(
    request,
    searches.flatMap((s) => s.plans),
    stepsPerEpoch,
  );
  const ownSearch = searches[0];
  const ownFits = ownSearch !== undefined && ownSearch.plans.length > 0;
  const shortfall = ownFits || ownSearch === undefined ? null : smallestGap(ownSearch);
  const wouldFit = ownFits || shortfall === null ? [] : suggestHardware(request, own, model, shortfall, dimensions, maxScaleUp);
  // The plans travel once (a worker posts this answer to the page): the searches keep their counts.
  const summaries = searches.map(({ plans: fitting, ...search }) => ({ ...search, fitting: fitting.length }));
  return { request, plans, searches: summaries, shortfall, wouldFit, stepsPerEpoch };
}

/**
 * Real tokens one optimizer step trains over all GPUs: every sequence of the global batch, whole. The planner takes no
 * batching flag (FIXED_ESTIMATE_FLAGS), so the engine counts no padding, and its `trainedTokens` per data-parallel rank
 * times the ranks is this same product for every plan.
 */
function tokensPerStep(request: PlanRequest): number {
  return request.globalBatch * request.seq;
}

/** The whole run of the request's token budget on `plan` (its time and cost, banded), or null without a budget. */
export function planRun(request: PlanRequest, plan: FittingPlan): RunBudget | null {
  if (request.trainTokens === null) return null;
  return runBudget({
    trainTokens: request.trainTokens,
    tokensPerStep: tokensPerStep(request),
    stepSeconds: plan.stepTimeSeconds,
    gpus: plan.hardware.gpus,
    prices: request.prices[plan.hardware.gpu.id],
  });
}

function rankPlans(request: PlanRequest, plans: readonly FittingPlan[], stepsPerEpoch: number | null): Plan[] {
  const priced = plans.map((plan) => {
    const seconds = plan.stepTimeSeconds;
    const prices = request.prices[plan.hardware.gpu.id];
    const cost: PlanCost | null =
      prices === undefined
        ? null
        : {
            perStep: tierCosts(seconds, plan.hardware.gpus, prices),
            perEpoch: stepsPerEpoch === null ? null : tierCosts(seconds * stepsPerEpoch, plan.hardware.gpus, prices),
          };
    const run = planRun(request, plan);
    // The metric once per plan, not once per comparison of the sort.
    return { plan, seconds, cost, run, metric: rankMetric(request, seconds, cost) };
  });
  // The reader's GPUs' plans first, then the rented ones' (issue #31 item 8: the planner answers for the reader's GPUs,
  // and renting is a comparison after them); each best first. Ties keep the searches' order (the sort is stable): each
  // search's plans in walk order.
  const rentedLast = (plan: FittingPlan) => (plan.hardware.rented ? 1 : 0);
  priced.sort(
    (a, b) =>
      rentedLast(a.plan) - rentedLast(b.plan) ||
      a.metric - b.metric ||
      a.seconds - b.seconds ||
      a.plan.perGpu.total - b.plan.perGpu.total,
  );
  return priced.map(({ plan, cost, run }, i) => ({ ...plan, rank: i + 1, cost, run }));
}

/**
 * What a plan is ranked by under `request.rankBy`: its step seconds, or its cost per step or per epoch in the ranked
 * tier; a plan without a price for its GPU ranks last under a cost ranking (infinity).
 */
export function rankMetric(request: PlanRequest, seconds: number, cost: PlanCost | null): number {
  if (request.rankBy === 'time') return seconds;
  const table = request.rankBy === 'step-cost' ? cost?.perStep : cost?.perEpoch;
  return table?.[request.priceTier] ?? Number.POSITIVE_INFINITY;
}

/** What `seconds` on `gpus` GPUs costs in each price tier. */
function tierCosts(seconds: number, gpus: number, prices: GpuPrices): Record<PriceTier, number> {
  return {
    'on-demand': costOf(seconds, gpus, prices['on-demand']),
    reserved: costOf(seconds, gpus, prices.reserved),
    spot: costOf(seconds, gpus, prices.spot),
  };
}

const MEMORY_KINDS: readonly RejectionKind[] = ['model-states', 'activations', 'host-memory'];

function smallestGap(search: HardwareSearch): Shortfall | null {
  let best: Shortfall | null = null;
  for (const group of search.rejected) {
    const { smallestGap, closest, closestShortOf } = group;
    if (!MEMORY_KINDS.includes(group.kind) || smallestGap === null || closest === null || closestShortOf === null) continue;
    if (best === null || smallestGap < best.bytes) {
      best = { bytes: smallestGap, resource: closestShortOf, options: closest };
    }
  }
  return best;
}

/** Larger GPUs on which the closest combination fits (checked by the engine), then the fewest of the reader's GPUs on which a plan fits. */
function suggestHardware(
  request: PlanRequest,
  own: GpuSpec,
  model: ModelConfig,
  shortfall: Shortfall,
  dimensions: readonly Dimension[],
  maxScaleUp: number,
): HardwareSuggestion[] {
  const suggestions: HardwareSuggestion[] = [];
  if (shortfall.resource !== 'host') {
    for (const gpu of GPU_PRESETS) {
      if (gpu.memoryBytes <= own.memoryBytes) continue;
      const outcome = estimateTotals({ ...shortfall.options, gpu: gpu.id });
      const hostFits =
        outcome.ok && (request.maxHostBytes === null || outcome.totals.perCpu.total * request.gpus <= request.maxHostBytes);
      if (outcome.ok && outcome.totals.fits === true && hostFits)
        suggestions.push({ gpu: gpu.id, name: gpu.name, gpus: request.gpus });
    }
  }
  for (let scale = 2; scale <= maxScaleUp && request.gpus * scale <= MAX_GPUS; scale *= 2) {
    const gpus = request.gpus * scale;
    const [search] = searchHardware({ ...request, gpus }, [{ gpu: own, gpus, rented: false }], model, dimensions);
    if (search !== undefined && search.plans.length > 0) {
      suggestions.push({ gpu: own.id, name: own.name, gpus });
      break;
    }
  }
  return suggestions;
}
