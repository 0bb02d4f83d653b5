/** The JSON printed by `plan --json`: every plan best first, each with the `estimate` flags that reproduce it. */
import { formatEstimateFlags } from '../memory/index.ts';
import {
  BAND_RATIO,
  changesNumerics,
  planOptions,
  planDetails,
  planFlags,
  planLessons,
  planSections,
  type Plan,
  type PlanResult,
} from '../planner/index.ts';
import { JSON_SCHEMA_URLS } from './json-schemas.ts';

const hardwareJson = (plan: Pick<Plan, 'hardware'>) => ({
  gpu: plan.hardware.gpu.id,
  gpus: plan.hardware.gpus,
  rented: plan.hardware.rented,
});

/** One plan as JSON. */
function planJson(plan: Plan) {
  const { estimate, stepTime, warnings } = planDetails(plan);
  return {
    rank: plan.rank,
    hardware: hardwareJson(plan),
    flags: planFlags(plan),
    choices: plan.choices.map(({ dimension, value }) => ({ dimension, value })),
    changesNumerics: changesNumerics(planOptions(plan)),
    perGpu: plan.perGpu,
    hostBytes: plan.hostBytes,
    fits: true,
    stepTimeSeconds: plan.stepTimeSeconds,
    stepTime,
    // The engine's step timeline: bytes per GPU at each moment of the step, by category; the peak is perGpu.total.
    timeline: estimate.timeline,
    peakMoment: estimate.peakMoment,
    cost: plan.cost,
    run: plan.run,
    lessons: planLessons(plan),
    warnings,
  };
}

/**
 * The whole answer as JSON, described by public/schemas/plan-v1.json; `shortfall` is bytes (or null), the closest
 * combination's flags beside it.
 */
export function planResultJson(result: PlanResult) {
  const r = result.request;
  const sections = planSections(r, result.plans);
  return {
    schema: JSON_SCHEMA_URLS.plan,
    request: {
      flags: formatEstimateFlags(r.base),
      gpu: r.gpu,
      gpus: r.gpus,
      globalBatch: r.globalBatch,
      seq: r.seq,
      task: r.task,
      allowLossy: r.allowLossy,
      maxHostBytes: r.maxHostBytes,
      rankBy: r.rankBy,
      priceTier: r.priceTier,
      epochTokens: r.epochTokens,
      trainTokens: r.trainTokens,
      rent: r.rent,
      prices: r.prices,
    },
    plans: result.plans.map(planJson),
    // The reader's GPUs' groups, then the rented GPUs' (planSections), as the table and the page list them.
    groups: [...sections.own, ...sections.rented].map((group) => ({
      index: group.index,
      rented: group.plans[0]?.hardware.rented ?? false,
      ranks: group.plans.map((plan) => plan.rank),
      differences: group.differences,
    })),
    bandRatio: BAND_RATIO,
    stepsPerEpoch: result.stepsPerEpoch,
    searches: result.searches.map((s) => ({
      hardware: { gpu: s.hardware.gpu.id, gpus: s.hardware.gpus, rented: s.hardware.rented },
      combinations: s.combinations,
      evaluations: s.evaluations,
      fitting: s.fitting,
      rejected: s.rejected.map((g) => ({
        kind: g.kind,
        reason: g.reason,
        count: g.count,
        smallestGap: g.smallestGap,
        closestFlags: g.closest === null ? null : formatEstimateFlags(g.closest),
      })),
    })),
    shortfall: result.shortfall?.bytes ?? null,
    closest:
      result.shortfall === null
        ? null
        : { resource: result.shortfall.resource, flags: formatEstimateFlags(result.shortfall.options) },
    wouldFit: result.wouldFit,
  };
}

/** What `plan --json` prints, and what the library's `plan` returns. */
export type PlanJson = ReturnType<typeof planResultJson>;
