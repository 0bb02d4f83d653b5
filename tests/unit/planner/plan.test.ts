import { describe, expect, test } from 'vitest';
import { estimateMemory, formatEstimateFlags, type EstimateOptions } from '../../../src/memory/index.ts';
import { planKey, planOptions, planTraining, type RawFlagValues } from '../../../src/planner/index.ts';
import { bestPerCombination, bruteForce } from './brute-force.ts';
import { planRequest } from '../support/plan-request.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

function withoutMicroBatch(options: EstimateOptions): EstimateOptions {
  const { microBatch: _b, gradAccum: _m, ...rest } = options;
  return rest;
}

/** Cases from tight to loose, one GPU to eight, pipeline and offload included. */
const CASES: [string, RawFlagValues][] = [
  [
    'lesson 8 worked case: gpt2-xl, 1 × rtx-4090, batch 4 × 512',
    { model: 'gpt2-xl', gpu: 'rtx-4090', 'global-batch': '4', seq: '512', task: 'finetune' },
  ],
  [
    'llama-2-7b, 1 × rtx-4090, batch 8 × 2048, host 256 GB',
    { model: 'llama-2-7b', gpu: 'rtx-4090', 'global-batch': '8', seq: '2048', 'max-host-gb': '256' },
  ],
  [
    'gpt2-xl, 2 × t4, batch 2 × 1024 (four pipeline combinations fit only without accumulation)',
    { model: 'gpt2-xl', gpu: 't4', gpus: '2', 'global-batch': '2', seq: '1024' },
  ],
  [
    'gpt2-large, 4 × t4 (no bf16), batch 16 × 1024',
    { model: 'gpt2-large', gpu: 't4', gpus: '4', 'global-batch': '16', seq: '1024' },
  ],
  [
    'llama-2-13b, 8 × a100-40gb, batch 32 × 4096',
    { model: 'llama-2-13b', gpu: 'a100-40gb', gpus: '8', 'global-batch': '32', seq: '4096' },
  ],
  ['demo-mlp, 2 × l4, batch 12', { model: 'demo-mlp', gpu: 'l4', gpus: '2', 'global-batch': '12' }],
  [
    'gpt2, 4 × t4, batch 12 × 128, host 1.6 GB (pipeline stages under a host limit)',
    { model: 'gpt2', gpu: 't4', gpus: '4', 'global-batch': '12', seq: '128', 'max-host-gb': '1.6' },
  ],
];

describe('planTraining(request) against a brute force over every configuration', () => {
  test.each(CASES)('%s: the same plans, the top one fits, nothing better is missed', { timeout: 120_000 }, (_name, raw) => {
    const req = planRequest(raw);
    const result = planTraining(req);
    const brute = bruteForce(req);
    const best = bestPerCombination(brute);

    // Every plan is a combination that fits, with the configuration the brute force finds fastest.
    expect(result.plans.length).toBeLessThanOrEqual(best.size);
    for (const plan of result.plans) {
      const combination = planKey(formatEstimateFlags(withoutMicroBatch(planOptions(plan))));
      const reference = best.get(combination);
      expect(reference, combination).toBeDefined();
      expect(planOptions(plan).microBatch).toBe(reference?.options.microBatch);
      expect(plan.perGpu.total).toBe(reference?.result.perGpu.total);
      expect(plan.stepTimeSeconds).toBe(reference?.result.stepTime?.totalSeconds);
    }

    // Every other combination that fits differs from a plan only in a dominated choice (ZeRO-0/1 for ZeRO-2,
    // foreach or for-loop for fused AdamW, eager attention for SDPA), and that plan is no slower and needs no more memory.
    // (The twins are derived here from the rules' meaning, not from the dimensions' code.)
    const byKey = new Map(result.plans.map((plan) => [planKey(formatEstimateFlags(withoutMicroBatch(planOptions(plan)))), plan]));
    for (const [combination, config] of best) {
      if (byKey.has(combination)) continue;
      const options = withoutMicroBatch(config.options);
      const zeros: EstimateOptions[] = [{}, ...((options.zero ?? 0) <= 1 ? [{ zero: 2 as const }] : [])];
      const impls: EstimateOptions[] = [
        {},
        ...(options.optimizerImpl === undefined ? [] : [{ optimizerImpl: 'fused' as const }]),
      ];
      const attentions: EstimateOptions[] = [{}, ...(options.attention === 'eager' ? [{ attention: 'sdpa' as const }] : [])];
      const twins = zeros.flatMap((zero) =>
        impls.flatMap((impl) =>
          attentions.map((attention) => byKey.get(planKey(formatEstimateFlags({ ...options, ...zero, ...impl, ...attention })))),
        ),
      );
      const twin = twins.find((plan) => plan !== undefined);
      expect(twin, `${combination} is a plan or has a dominating plan`).toBeDefined();
      expect(twin?.stepTimeSeconds).toBeLessThanOrEqual(config.result.stepTime?.totalSeconds ?? 0);
      // At the same micro-batch the twin needs no more memory (the plan itself may use a larger one).
      const sameBatch = estimateMemory({
        ...(twin === undefined ? {} : planOptions(twin)),
        microBatch: config.options.microBatch ?? 1,
        gradAccum: config.options.gradAccum ?? 1,
      });
      expect(sameBatch.ok && sameBatch.result.perGpu.total).toBeLessThanOrEqual(config.result.perGpu.total);
    }

    // The top plan fits by the engine's own verdict, and no fitting configuration is faster.
    const top = result.plans[0];
    if (best.size === 0) {
      expect(top).toBeUndefined();
      return;
    }
    expect(top).toBeDefined();
    const check = estimateMemory(top === undefined ? {} : planOptions(top));
    expect(check.ok && check.result.fits).toBe(true);
    const fastest = Math.min(...brute.filter((c) => c.fits).map((c) => c.result.stepTime?.totalSeconds ?? Infinity));
    expect(top?.stepTimeSeconds).toBe(fastest);
    // Ranked best first.
    for (let i = 1; i < result.plans.length; i++) {
      expect(result.plans[i]?.stepTimeSeconds ?? 0).toBeGreaterThanOrEqual(result.plans[i - 1]?.stepTimeSeconds ?? 0);
    }
  });

  test(
    'an impossible case (llama-3-70b on 1 × t4, host RAM capped at 64 GB) has no plan and reports its smallest gap',
    { timeout: 60_000 },
    () => {
      const req = planRequest({ model: 'llama-3-70b', gpu: 't4', 'global-batch': '1', seq: '4096', 'max-host-gb': '64' });
      const result = planTraining(req, { maxScaleUp: 2 });
      expect(result.plans).toEqual([]);
      const brute = bruteForce(req);
      expect(brute.some((c) => c.fits)).toBe(false);
      // The smallest gap over every configuration the brute force estimated: GPU memory missing plus host RAM over the cap.
      const gaps = brute.map(
        (c) =>
          (c.result.fits === true ? 0 : (c.result.shortfall ?? Infinity)) +
          Math.max(0, c.result.perCpu.total - (req.maxHostBytes ?? 0)),
      );
      expect(result.shortfall?.bytes).toBe(Math.min(...gaps));
      expect(result.shortfall?.bytes).toBeGreaterThan(0);
      // The shortfall names the memory its combination is short of: the GPU's, the host's, or both.
      const closest = estimateOrThrow(result.shortfall?.options ?? {});
      const shortOfGpu = closest.fits === false;
      const shortOfHost = closest.perCpu.total > (req.maxHostBytes ?? Infinity);
      expect(result.shortfall?.resource).toBe(shortOfGpu && shortOfHost ? 'gpu+host' : shortOfGpu ? 'gpu' : 'host');
    },
  );
});

describe('plan --stack', () => {
  test('the stack is a given flag: every plan keeps it, and what the search does not choose comes from it (Megatron: fused kernels, kept gradients)', () => {
    const raw = { model: 'gpt2', gpu: 'rtx-4090', 'global-batch': '4', seq: '512' };
    const megatron = planTraining(planRequest({ ...raw, stack: 'megatron' }));
    expect(megatron.plans.length).toBeGreaterThan(0);
    for (const plan of megatron.plans) {
      const options = planOptions(plan);
      expect(options.stack).toBe('megatron');
      const resolved = estimateOrThrow(options).resolved;
      expect([resolved.kernels, resolved.grads]).toEqual(['fused', 'keep']);
    }
    expect(planOptions(planTraining(planRequest(raw)).plans[0]!).stack).toBeUndefined();
  });
});
