import { describe, expect, test } from 'vitest';
import { PREDICTED_OVER_MEASURED } from '../../../src/memory/index.ts';
import { formatRunTime, planTraining, runBudget, stepsFor } from '../../../src/planner/index.ts';
import { planRequest } from '../support/plan-request.ts';

const PRICE = { 'on-demand': 3, reserved: 2, spot: 1.5 };

describe('runBudget: a token budget’s whole run', () => {
  test('3.6 B tokens at 1 M tokens per step and 2 s per step on 8 GPUs at 3/GPU-hour: 3,600 steps, 2 h, 16 GPU-hours, 48', () => {
    // By hand: 3.6e9 / 1e6 = 3,600 steps; × 2 s = 7,200 s = 2 h; × 8 GPUs = 16 GPU-hours; × 3 = 48 on demand, 32
    // reserved, 24 spot.
    const run = runBudget({ trainTokens: 3.6e9, tokensPerStep: 1e6, stepSeconds: 2, gpus: 8, prices: PRICE });
    expect(run.steps).toBe(3600);
    expect(run.seconds.value).toBeCloseTo(7200, 9);
    expect(run.gpuHours.value).toBeCloseTo(16, 9);
    expect(run.cost?.['on-demand'].value).toBeCloseTo(48, 9);
    expect(run.cost?.reserved.value).toBeCloseTo(32, 9);
    expect(run.cost?.spot.value).toBeCloseTo(24, 9);
  });

  test('the band is the step’s band times the steps: 7,200 s ÷ p90 to 7,200 s ÷ p10, and the cost moves with it', () => {
    const run = runBudget({ trainTokens: 3.6e9, tokensPerStep: 1e6, stepSeconds: 2, gpus: 8, prices: PRICE });
    expect(run.seconds.low).toBeCloseTo(7200 / PREDICTED_OVER_MEASURED.p90, 6);
    expect(run.seconds.high).toBeCloseTo(7200 / PREDICTED_OVER_MEASURED.p10, 6);
    // 16 GPU-hours at 3 = 48, over the same ratios.
    expect(run.cost?.['on-demand'].low).toBeCloseTo(48 / PREDICTED_OVER_MEASURED.p90, 6);
    expect(run.cost?.['on-demand'].high).toBeCloseTo(48 / PREDICTED_OVER_MEASURED.p10, 6);
    expect(run.gpuHours.high).toBeCloseTo(16 / PREDICTED_OVER_MEASURED.p10, 6);
  });

  test('a run takes whole steps: one token past 3,600 steps is a 3,601st step', () => {
    expect(stepsFor(3.6e9 + 1, 1e6)).toBe(3601);
    expect(stepsFor(1, 1e6)).toBe(1);
  });

  test('without a price the run has a time and GPU-hours but no cost', () => {
    const run = runBudget({ trainTokens: 1e6, tokensPerStep: 1e3, stepSeconds: 1, gpus: 1, prices: undefined });
    expect(run.cost).toBeNull();
    expect(run.gpuHours.value).toBeCloseTo(1000 / 3600, 9);
  });

  test('a run is printed in minutes, hours or days as it grows', () => {
    expect(formatRunTime(60)).toBe('60.00 s');
    expect(formatRunTime(5400)).toBe('90.0 min');
    // 90,000 s = 25 h; 864,000 s = 240 h = 10 days.
    expect(formatRunTime(90_000)).toBe('25.0 h');
    expect(formatRunTime(864_000)).toBe('10.0 days');
  });
});

describe('planTraining with --train-tokens', () => {
  // gpt2 at global batch 4 × seq 512 trains 2,048 tokens a step; 1 M tokens take ceil(488.28) = 489 steps.
  const request = planRequest({
    model: 'gpt2',
    gpu: 'rtx-4090',
    'global-batch': '4',
    seq: '512',
    stack: 'pytorch',
    rent: true,
    'train-tokens': '1000000',
  });
  const result = planTraining(request);

  test('every plan’s run is 489 of its steps, priced where its GPU has a price', () => {
    expect(result.plans.length).toBeGreaterThan(0);
    expect(result.plans.some((p) => p.hardware.rented)).toBe(true);
    for (const plan of result.plans) {
      expect(plan.run?.steps).toBe(489);
      expect(plan.run?.seconds.value).toBeCloseTo(489 * plan.stepTimeSeconds, 9);
      // The reader's RTX 4090 has no example price: its plans cost nothing to compare; rented ones cost GPU-hours × price.
      if (plan.hardware.rented) {
        const price = request.prices[plan.hardware.gpu.id]?.['on-demand'] ?? Number.NaN;
        expect(plan.run?.cost?.['on-demand'].value).toBeCloseTo(((489 * plan.stepTimeSeconds) / 3600) * price, 9);
      } else expect(plan.run?.cost).toBeNull();
    }
  });

  test('without --train-tokens no plan has a run', () => {
    const without = planTraining(
      planRequest({ model: 'gpt2', gpu: 'rtx-4090', 'global-batch': '4', seq: '512', stack: 'pytorch' }),
    );
    expect(without.plans.every((p) => p.run === null)).toBe(true);
  });
});
