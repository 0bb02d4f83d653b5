/**
 * The step-time model against published training runs (src/memory/step-time/published-runs.ts): each run's
 * configuration, as engine options, predicts a step that is compared with the measured one. #31 asks for every ratio
 * within ±25 %; the error band every printed time carries is their spread (band.ts).
 */
import { describe, expect, test } from 'vitest';
import { compareWithRun } from '../../../src/memory/step-time/calibration.ts';
import { PUBLISHED_RUNS } from '../../../src/memory/step-time/published-runs.ts';

describe('published runs: each record is one consistent configuration', () => {
  test.each(PUBLISHED_RUNS.map((run) => [run.id, run] as const))('%s: GPUs = dp × tp × pp, batch = b × m × dp', (_, run) => {
    const { dp = 1, tp = 1, pp = 1, microBatch = 1, gradAccum = 1 } = run.options;
    expect(dp * tp * pp).toBe(run.gpus);
    expect(microBatch * gradAccum * dp).toBe(run.globalBatch);
  });

  test('ids are unique', () => {
    expect(new Set(PUBLISHED_RUNS.map((r) => r.id)).size).toBe(PUBLISHED_RUNS.length);
  });
});

describe('published runs: the engine prices each one', () => {
  test.each(PUBLISHED_RUNS.map((run) => [`${run.id} (${run.source})`, run] as const))('%s', (_, run) => {
    const { ratio } = compareWithRun(run);
    expect(Number.isFinite(ratio)).toBe(true);
    expect(ratio).toBeGreaterThan(0);
  });
});
