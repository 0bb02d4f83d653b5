/** The planner's views' words for a plan: its hardware, techniques and cost as text. */
import { formatCost, type Plan, type PlanResult } from '../../planner/index';
import { strings } from './strings';

/** "2 × NVIDIA H100 SXM5 80GB (rent)". */
export function hardwareText(plan: Pick<Plan, 'hardware'>): string {
  return `${plan.hardware.gpus} × ${plan.hardware.gpu.name}${plan.hardware.rented ? ` (${strings.rent})` : ''}`;
}

/** The plan's values, one per dimension. */
export function techniquesText(plan: Pick<Plan, 'choices'>): string {
  return plan.choices.map((c) => c.value).join(' · ');
}

/** The plan's cost in the ranked tier, per step and per epoch. */
export function costText(plan: Plan, result: PlanResult): string {
  if (plan.cost === null) return strings.noPrice;
  const tier = result.request.priceTier;
  const perEpoch = plan.cost.perEpoch === null ? '' : ` · ${formatCost(plan.cost.perEpoch[tier])}${strings.perEpoch}`;
  return `${formatCost(plan.cost.perStep[tier])}${strings.perStep}${perEpoch}`;
}
