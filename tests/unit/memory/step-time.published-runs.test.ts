/**
 * The step-time model against published training runs (src/memory/step-time/published-runs.ts): each run's
 * configuration, as engine options, predicts a step that is compared with the measured one. #31 asks for every ratio
 * within ±25 %; the error band every printed time carries is their spread (band.ts). #31 also asks the engine to say
 * that each run fits the GPU it ran on.
 */
import { describe, expect, test } from 'vitest';
import { GIB } from '../../../src/base/bytes.ts';
import { getGpuPreset } from '../../../src/memory/gpus.ts';
import { compareWithRun } from '../../../src/memory/step-time/calibration.ts';
import { PUBLISHED_RUNS } from '../../../src/memory/step-time/published-runs.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

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

/**
 * Runs the engine says do not fit although they ran, each with the run's own memory figure: a test below fails when
 * the engine starts to say they fit or when its peak leaves the band around the measurement.
 */
const KNOWN_MISFITS: Readonly<Record<string, { measuredGiB: number; reason: string }>> = {
  // Table 1 row FSDP: 82.4 GiB max reserved, on the benchmark's 96 GB HBM2e H100s (its "Hardware" list); the fixture
  // times it on the 80 GB SXM preset (79.65 GiB), which the run itself would not fit. Engine: 74.12 GiB + 10 % headroom.
  'torchtitan-llama3.1-8b-h100-8': { measuredGiB: 82.4, reason: 'ran on 96 GB H100s; 82.4 GiB reserved exceeds 80 GB' },
};

describe('published runs: the predicted step is within ±25 % of the measured one (#31)', () => {
  test.each(PUBLISHED_RUNS.map((run) => [`${run.id}, ${run.role} (${run.source})`, run] as const))('%s', (_, run) => {
    const { ratio } = compareWithRun(run);
    expect(ratio).toBeGreaterThanOrEqual(0.75);
    expect(ratio).toBeLessThanOrEqual(1.25);
  });
});

describe('published runs: the engine says each fits the GPU it ran on (#31)', () => {
  const listed = PUBLISHED_RUNS.filter((run) => run.publishedParams !== null);
  test.each(listed.map((run) => [run.id, run] as const))(
    '%s: the engine counts the parameters its source prints (llm-foundry 4952183 benchmarking README, NumParams)',
    (_, run) => {
      expect(estimateOrThrow(run.options).params).toBe(run.publishedParams);
    },
  );

  const held = PUBLISHED_RUNS.filter((run) => !(run.id in KNOWN_MISFITS));
  test.each(held.map((run) => [run.id, run] as const))('%s fits', (_, run) => {
    expect(compareWithRun(run).fits).toBe(true);
  });

  const misfits = Object.entries(KNOWN_MISFITS).map(([id, misfit]) => [id, misfit.reason, misfit] as const);
  test.each(misfits)('known misfit: %s (%s)', (id, _, misfit) => {
    const run = PUBLISHED_RUNS.find((r) => r.id === id);
    if (run === undefined) throw new Error(`no run ${id}`);
    const gpu = getGpuPreset(run.options.gpu ?? '');
    if (gpu === undefined) throw new Error(`${id}: no GPU preset ${run.options.gpu ?? ''}`);
    // The measurement alone exceeds the preset's driver-reported total, so "fits" would be wrong there.
    expect(misfit.measuredGiB * GIB).toBeGreaterThan(gpu.memoryBytes);
    expect(compareWithRun(run).fits).toBe(false);
    // Engine ÷ measured inside the band torchtitan's reserved-memory figures allow (at least what is allocated).
    const ratio = estimateOrThrow(run.options).perGpu.total / (misfit.measuredGiB * GIB);
    expect(ratio).toBeGreaterThanOrEqual(0.8);
    expect(ratio).toBeLessThanOrEqual(1);
  });
});
