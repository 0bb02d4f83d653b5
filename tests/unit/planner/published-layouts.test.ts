/**
 * #31 item 9: for every published training run the step time is calibrated to (src/memory/step-time/published-runs.ts,
 * each with its source, table and row), the planner, asked the run's own question (pretraining, the model, its GPUs,
 * global batch and sequence, the stack the fixture names), puts the layout the run used (its tensor-, pipeline- and
 * data-parallel degrees) in its first group: the plans the step-time model cannot tell apart from the best.
 */
import { describe, expect, test } from 'vitest';
import { PUBLISHED_RUNS, type PublishedRun } from '../../../src/memory/step-time/published-runs.ts';
import { planOptions, planSections, planTraining, type RawFlagValues } from '../../../src/planner/index.ts';
import { planRequest } from '../support/plan-request.ts';

/** The model and job flags of a run, as `plan` takes them; the techniques are left to the search. */
function runFlags(run: PublishedRun): RawFlagValues {
  const o = run.options;
  const flags: Record<string, string> = {
    task: 'pretrain',
    gpus: String(run.gpus),
    'global-batch': String(run.globalBatch),
  };
  const given: Record<string, string | number | undefined> = {
    stack: o.stack,
    model: o.model,
    arch: o.arch,
    hidden: o.hidden,
    layers: o.layers,
    heads: o.heads,
    'kv-heads': o.kvHeads,
    ffn: o.ffn,
    vocab: o.vocab,
    positions: o.positions,
    seq: o.seq,
    gpu: o.gpu,
  };
  for (const [flag, value] of Object.entries(given)) if (value !== undefined) flags[flag] = String(value);
  if (o.dropout === false) flags['no-dropout'] = 'true';
  return flags;
}

/** The number of the first group, on the reader's own GPUs, holding a plan with the run's layout; 0 when none does. */
function groupOfPublishedLayout(run: PublishedRun): number {
  const request = planRequest(runFlags(run));
  const { own } = planSections(request, planTraining(request).plans);
  const layout = (tp = 1, pp = 1, dp = 1) => `${tp}/${pp}/${dp}`;
  const published = layout(run.options.tp, run.options.pp, run.options.dp);
  const group = own.find((g) =>
    g.plans.some((plan) => {
      const options = planOptions(plan);
      return layout(options.tp, options.pp, options.dp) === published;
    }),
  );
  return group?.index ?? 0;
}

describe('the planner puts each published run’s layout in its first group (published-runs.ts sources)', () => {
  test.each(PUBLISHED_RUNS.map((run) => [run.id, run] as const))('%s', (_id, run) => {
    expect(groupOfPublishedLayout(run)).toBe(1);
  });
});
