import { describe, expect, test } from 'vitest';
import { stepTimeBand } from '../../../src/memory/index.ts';
import {
  BAND_RATIO,
  planSections,
  planOptions,
  planTraining,
  rankMetric,
  simplicityKey,
  type Plan,
  type RawFlagValues,
} from '../../../src/planner/index.ts';
import { planRequest } from '../support/plan-request.ts';

/** Lexicographic comparison of two simplicity keys. */
function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

// The stack is given: the planner's step times depend on it.
const CASES: [string, RawFlagValues][] = [
  [
    'gpt2-xl, 1 × rtx-4090, batch 4 × 512, fine-tune, ranked by time',
    { model: 'gpt2-xl', gpu: 'rtx-4090', 'global-batch': '4', seq: '512', task: 'finetune', stack: 'pytorch' },
  ],
  [
    'llama-2-7b, 8 × a100-80gb, batch 64 × 2048, renting compared, ranked by cost per step',
    {
      model: 'llama-2-7b',
      gpu: 'a100-80gb',
      gpus: '8',
      'global-batch': '64',
      seq: '2048',
      stack: 'pytorch',
      'rank-by': 'step-cost',
      rent: true,
    },
  ],
];

describe('groupPlans and planSections: plans within the step-time band form one group, simplest first', () => {
  test('BAND_RATIO is where two predictions’ bands stop overlapping', () => {
    const a = 1;
    // Just inside the ratio the slower prediction's band reaches below the faster one's top: the order is uncertain.
    expect(stepTimeBand(a * BAND_RATIO * 0.999).low).toBeLessThan(stepTimeBand(a).high);
    expect(stepTimeBand(a * BAND_RATIO * 1.001).low).toBeGreaterThan(stepTimeBand(a).high);
  });

  test.each(CASES)('%s', (_name, raw) => {
    const request = planRequest(raw);
    const result = planTraining(request);
    expect(result.plans.length).toBeGreaterThan(1);
    const sections = planSections(request, result.plans);
    // The reader's GPUs' plans rank first and form their own groups; the rented GPUs' follow, apart (issue #31 item 8).
    const ownCount = result.plans.filter((p) => !p.hardware.rented).length;
    expect(result.plans.slice(0, ownCount).every((p) => !p.hardware.rented)).toBe(true);
    expect(sections.own.every((g) => g.plans.every((p) => !p.hardware.rented))).toBe(true);
    expect(sections.rented.every((g) => g.plans.every((p) => p.hardware.rented))).toBe(true);
    const groups = [...sections.own, ...sections.rented];
    const metric = (plan: Plan) => rankMetric(request, plan.stepTimeSeconds, plan.cost);
    // Every plan is in exactly one group.
    expect(groups.flatMap((g) => g.plans.map((p) => p.rank)).sort((x, y) => x - y)).toEqual(result.plans.map((p) => p.rank));
    expect(groups.length).toBeLessThan(result.plans.length);
    let previousFirst: number | null = null;
    for (const [i, group] of groups.entries()) {
      expect(group.index).toBe(i + 1);
      // Each section's groups are ordered among themselves: the bound restarts at the rented section's first.
      if (group === sections.rented[0]) previousFirst = null;
      const first = Math.min(...group.plans.map(metric));
      // Every member lies within the band's ratio of the group's best; the next group's best lies beyond it.
      for (const plan of group.plans) expect(metric(plan)).toBeLessThanOrEqual(first * BAND_RATIO);
      if (previousFirst !== null && Number.isFinite(first)) expect(first).toBeGreaterThan(previousFirst * BAND_RATIO);
      previousFirst = Number.isFinite(first) ? first : previousFirst;
      // Simplest first.
      for (let k = 1; k < group.plans.length; k++)
        expect(compareKeys(simplicityKey(group.plans[k - 1] as Plan), simplicityKey(group.plans[k] as Plan))).toBeLessThanOrEqual(
          0,
        );
      // A dimension listed as a difference takes several values among the members; one not listed takes one.
      const listed = new Set(group.differences.map((d) => d.dimension));
      for (const d of group.differences) expect(new Set(d.values).size).toBeGreaterThan(1);
      for (const choice of group.plans[0]?.choices ?? []) {
        if (listed.has(choice.dimension)) continue;
        for (const plan of group.plans)
          expect(plan.choices.find((c) => c.dimension === choice.dimension)?.value).toBe(choice.value);
      }
    }
  });

  test('a plan with offload, a deeper pipeline or more techniques is less simple', () => {
    const request = planRequest(CASES[1]?.[1] ?? {});
    const plans = planTraining(request).plans;
    const offloaded = plans.find((p) => planOptions(p).offload !== 'none');
    const plain = plans.find((p) => {
      const o = planOptions(p);
      return o.offload === 'none' && (o.pp ?? 1) === 1 && (o.tp ?? 1) === 1 && (o.zero ?? 0) === 0 && o.recompute === 'none';
    });
    if (offloaded === undefined || plain === undefined) throw new Error('the case has plans with and without offload');
    expect(compareKeys(simplicityKey(plain), simplicityKey(offloaded))).toBeLessThan(0);
    const deep = plans.filter((p) => (planOptions(p).pp ?? 1) > 1);
    for (const plan of deep) expect(simplicityKey(plan)[1]).toBe(planOptions(plan).pp);
  });
});
