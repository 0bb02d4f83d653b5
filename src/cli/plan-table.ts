/** The human-readable answer of `plan`: the ranked plans, the best one in detail, and why the rest do not fit. */
import { formatGiB } from '../base/bytes.ts';
import { lessonBySlug, lessonHref } from '../base/lessons.ts';
import { formatEstimateFlags, formatStepShare, formatStepTime } from '../memory/index.ts';
import {
  BAND_RATIO,
  changesNumerics,
  estimateCommandLine,
  formatCost,
  hardwareLabel,
  planDetails,
  planFlags,
  planLessons,
  planOptions,
  planSections,
  runBudgetLine,
  runBudgetText,
  type Plan,
  type PlanGroup,
  type PlanResult,
  type RejectionGroup,
} from '../planner/index.ts';
import { renderTimeline } from './timeline-chart.ts';

/** Width of the step column: a time and its band, e.g. `1.23 s (1.11 s–1.54 s)`. */
const STEP_WIDTH = 24;

/** A plan's values, one per dimension, and a warning when they change the training numerics. */
function techniques(plan: Plan): string {
  const values = plan.choices.map((c) => c.value).join(' · ');
  return changesNumerics(planOptions(plan)) ? `${values} · ${CHANGES_NUMERICS}` : values;
}

/** The label of a plan that changes the training numerics (numerics.ts). */
const CHANGES_NUMERICS = '⚠ changes the training numerics (pure 16-bit weights or 8-bit AdamW)';

function costText(plan: Plan, result: PlanResult): string {
  if (plan.cost === null) return 'no price';
  const tier = result.request.priceTier;
  const perEpoch = plan.cost.perEpoch === null ? '' : `, ${formatCost(plan.cost.perEpoch[tier])}/epoch`;
  return `${formatCost(plan.cost.perStep[tier])}/step${perEpoch}`;
}

/** The run column's text: the whole run's time and cost with their band, or nothing without `--train-tokens`. */
function runText(plan: Plan, result: PlanResult): string {
  return plan.run === null ? '' : `  ${runBudgetText(plan.run, result.request.priceTier).padEnd(RUN_WIDTH)}`;
}

/** Width of the run column: a run's time and cost with their bands, e.g. `12.3 days (…–…), 1234.56 (…–…)`. */
const RUN_WIDTH = 56;

function rejectedLines(groups: readonly RejectionGroup[]): string[] {
  return groups.map(
    (g) =>
      `  ${String(g.count).padStart(6)}  ${g.reason}${g.smallestGap === null ? '' : ` (closest: ${formatGiB(g.smallestGap)} short)`}`,
  );
}

/** The line under a group's row: how many more plans it holds and in what they differ. */
function groupLine(group: PlanGroup): string {
  const more = group.plans.length - 1;
  if (more === 0) return '';
  const differences = group.differences.map((d) => `${d.dimension}: ${d.values.join(' | ')}`).join('; ');
  return `        + ${more} more within the band (#${group.plans
    .slice(1)
    .map((p) => p.rank)
    .sort((a, b) => a - b)
    .slice(0, 5)
    .join(', #')}${more > 5 ? ', …' : ''}), differing in ${differences}`;
}

/** Render the planner's answer; `top` groups of plans are listed (plans within the step-time band form one group). */
export function renderPlanTable(result: PlanResult, top = 10): string {
  const r = result.request;
  const out: string[] = [];
  const own = result.searches[0];
  out.push(
    `GPU Memory Lab · plan (${r.task}, global batch ${r.globalBatch} × seq ${r.seq}, ${r.gpus} × ${r.gpu}${r.trainTokens === null ? '' : `, ${r.trainTokens.toLocaleString('en-US')} tokens to train`}; ranked by ${r.rankBy}${r.rankBy === 'time' ? '' : `, ${r.priceTier} prices`})`,
  );
  if (own !== undefined)
    out.push(
      `Searched  ${result.searches.map((s) => `${s.combinations} combinations on ${s.hardware.gpus} × ${s.hardware.gpu.id}`).join('; ')}`,
    );
  out.push(
    `Fits      ${own?.fitting ?? 0} on your GPUs${result.plans.length > (own?.fitting ?? 0) ? `, ${result.plans.length - (own?.fitting ?? 0)} on rented GPUs` : ''} (step times and costs are estimates)`,
  );
  out.push('');
  const sections = planSections(r, result.plans);
  if (result.plans.length > 0) {
    out.push(
      `Groups    ${sections.own.length} on your GPUs${sections.rented.length > 0 ? `, ${sections.rented.length} on rented GPUs` : ''}: plans whose ${r.rankBy === 'time' ? 'step times' : 'costs'} lie within ×${BAND_RATIO.toFixed(2)} of the group's best are one group (the step-time band), simplest first`,
    );
    // The reader's GPUs first; renting is a comparison below them, never mixed in (planSections).
    const listed = [
      { title: `On your ${r.gpus} × ${r.gpu}`, groups: sections.own },
      { title: 'On rented GPUs (--rent), as many as yours', groups: sections.rented },
    ].filter((section) => section.groups.length > 0);
    for (const section of listed) {
      out.push('');
      out.push(section.title);
      out.push(
        `  ${'#'.padStart(4)}  ${'hardware'.padEnd(24)} ${'per GPU'.padStart(11)} ${'step (band)'.padStart(STEP_WIDTH)}  ${'cost'.padEnd(22)}${r.trainTokens === null ? '' : `  ${'whole run (band)'.padEnd(RUN_WIDTH)}`} techniques`,
      );
      for (const group of section.groups.slice(0, top)) {
        const plan = group.plans[0] as Plan;
        out.push(
          `  ${String(plan.rank).padStart(4)}  ${hardwareLabel(plan).padEnd(24)} ${formatGiB(plan.perGpu.total).padStart(11)} ${formatStepTime(plan.stepTimeSeconds).padStart(STEP_WIDTH)}  ${costText(plan, result).padEnd(22)}${runText(plan, result)} ${techniques(plan)}`,
        );
        const line = groupLine(group);
        if (line !== '') out.push(line);
      }
      if (section.groups.length > top) out.push(`  … ${section.groups.length - top} more groups (--top N, or --json for all)`);
    }
    // The recommendation is the simplest plan of the first group on the reader's GPUs (of the rented ones when none fits
    // there): the faster ones are not faster beyond the band.
    const best = (sections.own[0] ?? sections.rented[0])?.plans[0];
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
      if (best.run !== null) out.push(`  run       ${runBudgetLine(best.run, r.priceTier)}`);
      // The parts as shares of the banded step: the band was measured on whole steps only, so a part has none.
      for (const line of details.stepTime.lines.filter((l) => l.seconds > 0))
        out.push(`  share     ${line.label}: ${formatStepShare(line.seconds, details.stepTime.totalSeconds)} of the step`);
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
