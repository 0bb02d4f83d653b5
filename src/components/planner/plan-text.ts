/** The planner's views' words for a plan: its hardware, techniques and cost as text. */
import { formatCost, type Plan, type PlanResult } from '../../planner/index';
import type { PLANNER_EN } from '../../i18n/messages/planner/en';

/** The planner's words in the page's language (`useMessages().planner`). */
type PlannerWords = typeof PLANNER_EN;

/** "2 × NVIDIA H100 SXM5 80GB (rent)". */
export function hardwareText(plan: Pick<Plan, 'hardware'>, words: PlannerWords): string {
  return `${plan.hardware.gpus} × ${plan.hardware.gpu.name}${plan.hardware.rented ? ` (${words.rent})` : ''}`;
}

/** The plan's values, one per dimension. */
export function techniquesText(plan: Pick<Plan, 'choices'>): string {
  return plan.choices.map((c) => c.value).join(' · ');
}

/** The plan's cost in the ranked tier, per step and per epoch. */
export function costText(plan: Plan, result: PlanResult, words: PlannerWords): string {
  if (plan.cost === null) return words.noPrice;
  const tier = result.request.priceTier;
  const perEpoch = plan.cost.perEpoch === null ? '' : ` · ${formatCost(plan.cost.perEpoch[tier])}${words.perEpoch}`;
  return `${formatCost(plan.cost.perStep[tier])}${words.perStep}${perEpoch}`;
}
