import { describe, expect, test } from 'vitest';
import { dominanceMessages } from '../../../src/planner/messages.ts';
import { planOptions, planTraining, type Plan } from '../../../src/planner/index.ts';
import { planRequest } from '../support/plan-request.ts';

/**
 * The planner page's walk through lesson 8's worked case (content/docs/tools/planner.mdx, "The worked case, step by
 * step"): each step's claim, held to what the planner answers for it on the reader's GPU.
 */
const result = planTraining(
  planRequest({ model: 'gpt2-xl', gpu: 'rtx-4090', 'global-batch': '4', seq: '512', task: 'finetune' }),
);
const own = result.searches[0];
const plans = result.plans;
const best = (pick: (plan: Plan) => boolean) => plans.find(pick)?.rank ?? Infinity;

describe('planner page, the worked case step by step (gpt2-xl on 1 × rtx-4090, batch 4 × 512)', () => {
  test('1. one GPU: one layout; ZeRO appears only with offload', () => {
    expect(new Set(plans.map((p) => `${planOptions(p).tp}/${planOptions(p).pp}/${planOptions(p).dp}`))).toEqual(
      new Set(['1/1/1']),
    );
    const zeroPlans = plans.filter((plan) => (planOptions(plan).zero ?? 0) > 0);
    expect(zeroPlans.length).toBeGreaterThan(0);
    for (const plan of zeroPlans) expect(planOptions(plan).offload).not.toBe('none');
  });

  test('2. the RTX 4090 has BF16: no FP16 variant is tried', () => {
    expect(plans.some((p) => String(planOptions(p).precision).includes('fp16'))).toBe(false);
    expect(own?.rejected.some((g) => g.kind === 'ruled-out' && /has BF16: FP16 would add loss scaling/.test(g.reason))).toBe(
      true,
    );
  });

  test('3. every plan splits the batch of 4 as micro-batch × accumulation (plan.test.ts holds which split it takes)', () => {
    expect(new Set(plans.map((p) => planOptions(p).microBatch! * planOptions(p).gradAccum!))).toEqual(new Set([4]));
  });

  test('4. every combination estimated that does not fit fails on the model states alone; the others are floors of full recompute', () => {
    const memory = own?.rejected.filter((g) => g.kind !== 'ruled-out' && g.kind !== 'invalid') ?? [];
    expect(memory.length).toBeGreaterThan(0);
    for (const group of memory) {
      if (group.kind === 'needs-more') expect(group.reason).toBe(dominanceMessages.recomputeFloor);
      else expect(group.kind).toBe('model-states');
    }
  });

  test('5. offload and recomputation rank below the best plan without them; ties on time go to the smaller', () => {
    const plain = best((p) => planOptions(p).offload === 'none' && planOptions(p).recompute === 'none');
    expect(plain).toBe(1);
    expect(best((p) => planOptions(p).offload !== 'none')).toBeGreaterThan(plain);
    expect(best((p) => planOptions(p).recompute === 'full')).toBeGreaterThan(plain);
    const ties = plans.slice(1).flatMap((b, i) => (plans[i]!.stepTimeSeconds === b.stepTimeSeconds ? [[plans[i]!, b]] : []));
    expect(ties.length).toBeGreaterThan(0);
    for (const [a, b] of ties) expect(a!.perGpu.total).toBeLessThanOrEqual(b!.perGpu.total);
  });

  test('5. LoRA first (a frozen base skips the weight-gradient matmuls), then QLoRA (it dequantizes its base in every pass), then full fine-tuning', () => {
    const lora = best((p) => planOptions(p).finetune === 'lora');
    const qlora = best((p) => planOptions(p).finetune === 'qlora');
    const full = best((p) => (planOptions(p).finetune ?? 'full') === 'full');
    expect(lora).toBe(1);
    expect(qlora).toBeGreaterThan(lora);
    expect(full).toBeGreaterThan(qlora);
  });
});
