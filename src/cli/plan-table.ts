/** The human-readable answer of `plan`: the ranked plans, the best one in detail, and why the rest do not fit. */
import { formatGiB } from '../base/bytes.ts';
import { lessonBySlug, lessonHref } from '../base/lessons.ts';
import { formatEstimateFlags, formatSeconds, formatStepTime } from '../memory/index.ts';
import {
  estimateCommandLine,
  formatCost,
  planDetails,
  planFlags,
  planLessons,
  type Plan,
  type PlanResult,
  type RejectionGroup,
} from '../planner/index.ts';
import { renderTimeline } from './timeline-chart.ts';

/** Width of the step column: a time and its band, e.g. `1.23 s (1.11 s–1.54 s)`. */
const STEP_WIDTH = 24;

function hardwareLabel(plan: Plan): string {
  return `${plan.hardware.gpus} × ${plan.hardware.gpu.id}${plan.hardware.rented ? ' (rent)' : ''}`;
}

function techniques(plan: Plan): string {
  return plan.choices.map((c) => c.value).join(' · ');
}

function costText(plan: Plan, result: PlanResult): string {
  if (plan.cost === null) return 'no price';
  const tier = result.request.priceTier;
  const perEpoch = plan.cost.perEpoch === null ? '' : `, ${formatCost(plan.cost.perEpoch[tier])}/epoch`;
  return `${formatCost(plan.cost.perStep[tier])}/step${perEpoch}`;
}

function rejectedLines(groups: readonly RejectionGroup[]): string[] {
  return groups.map(
    (g) =>
      `  ${String(g.count).padStart(6)}  ${g.reason}${g.smallestGap === null ? '' : ` (closest: ${formatGiB(g.smallestGap)} short)`}`,
  );
}

/** Render the planner's answer; `top` plans are listed. */
export function renderPlanTable(result: PlanResult, top = 10): string {
  const r = result.request;
  const out: string[] = [];
  const own = result.searches[0];
  out.push(
    `GPU Memory Lab · plan (${r.task}, global batch ${r.globalBatch} × seq ${r.seq}, ${r.gpus} × ${r.gpu}; ranked by ${r.rankBy}${r.rankBy === 'time' ? '' : `, ${r.priceTier} prices`})`,
  );
  if (own !== undefined)
    out.push(
      `Searched  ${result.searches.map((s) => `${s.combinations} combinations on ${s.hardware.gpus} × ${s.hardware.gpu.id}`).join('; ')}`,
    );
  out.push(
    `Fits      ${own?.fitting ?? 0} on your GPUs${result.plans.length > (own?.fitting ?? 0) ? `, ${result.plans.length - (own?.fitting ?? 0)} on rented GPUs` : ''} (step times and costs are estimates)`,
  );
  out.push('');
  if (result.plans.length > 0) {
    out.push(
      `  ${'#'.padStart(4)}  ${'hardware'.padEnd(24)} ${'per GPU'.padStart(11)} ${'step (band)'.padStart(STEP_WIDTH)}  ${'cost'.padEnd(22)} techniques`,
    );
    for (const plan of result.plans.slice(0, top)) {
      out.push(
        `  ${String(plan.rank).padStart(4)}  ${hardwareLabel(plan).padEnd(24)} ${formatGiB(plan.perGpu.total).padStart(11)} ${formatStepTime(plan.stepTimeSeconds).padStart(STEP_WIDTH)}  ${costText(plan, result).padEnd(22)} ${techniques(plan)}`,
      );
    }
    if (result.plans.length > top) out.push(`  … ${result.plans.length - top} more (--top N, or --json for all)`);
    const best = result.plans[0];
    if (best !== undefined) {
      out.push('');
      out.push(`Best plan: ${hardwareLabel(best)} · ${techniques(best)}`);
      const details = planDetails(best);
      const g = best.perGpu;
      out.push(
        `  per GPU   weights ${formatGiB(g.weights)} · gradients ${formatGiB(g.gradients)} · optimizer ${formatGiB(g.optimizer)} · activations ${formatGiB(g.activations)} · overhead ${formatGiB(g.overhead)} = ${formatGiB(g.total)}`,
      );
      if (best.hostBytes > 0) out.push(`  host RAM  ${formatGiB(best.hostBytes)} on the machine`);
      out.push(...renderTimeline(details.estimate).map((row) => `  ${row}`));
      const { band } = details.stepTime;
      out.push(
        `  step      ${formatStepTime(details.stepTime.totalSeconds, band)}${band === null ? '' : ` (band: ${band.source})`}`,
      );
      for (const line of details.stepTime.lines.filter((l) => l.seconds > 0))
        out.push(`  time      ${line.label}: ${formatSeconds(line.seconds)}`);
      out.push(
        `  lessons   ${
          planLessons(best)
            .map((id) => `${lessonBySlug(id).title} (${lessonHref(id)})`)
            .join(', ') || 'none: the plain configuration fits'
        }`,
      );
      out.push(`  check     ${estimateCommandLine(planFlags(best))}`);
    }
  }
  const ownBest = result.plans.find((plan) => !plan.hardware.rented);
  if (ownBest !== undefined && ownBest.rank !== 1) {
    out.push('');
    out.push(
      `Best on your GPUs: #${ownBest.rank} · ${techniques(ownBest)} · ${formatGiB(ownBest.perGpu.total)} · ${formatStepTime(ownBest.stepTimeSeconds)}`,
    );
    out.push(`  check     ${estimateCommandLine(planFlags(ownBest))}`);
  }
  const failed = own?.rejected.filter((g) => g.kind !== 'ruled-out') ?? [];
  const ruledOut = own?.rejected.filter((g) => g.kind === 'ruled-out') ?? [];
  if (failed.length > 0) {
    out.push('');
    out.push(`Why the other combinations do not fit your ${r.gpus} × ${r.gpu}`);
    out.push(...rejectedLines(failed));
  }
  if (ruledOut.length > 0) {
    out.push('');
    out.push('Not tried');
    out.push(...rejectedLines(ruledOut));
  }
  if (result.shortfall !== null) {
    out.push('');
    const what = { gpu: 'GPU memory', host: 'host RAM', 'gpu+host': 'GPU memory and host RAM over the limit' }[
      result.shortfall.resource
    ];
    out.push(`Nothing fits on your GPUs. Smallest gap: ${formatGiB(result.shortfall.bytes)} of ${what}, with`);
    out.push(`  ${estimateCommandLine(formatEstimateFlags(result.shortfall.options))}`);
    if (result.wouldFit.length > 0)
      out.push(`It would fit on: ${result.wouldFit.map((h) => `${h.gpus} × ${h.name}`).join(', ')}`);
    else out.push('No GPU preset or GPU count tried would make it fit.');
  }
  out.push('');
  return out.join('\n');
}
