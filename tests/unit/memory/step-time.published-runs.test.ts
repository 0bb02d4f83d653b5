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
 * Runs whose peak the engine puts inside the 10 % free margin it advises, each with why: they fit the card, not the
 * margin. The margin is planning advice (overhead.ts), so these still count as fitting the card they ran on; a test
 * below fails when one leaves the margin either way, so the list stays true.
 */
const INSIDE_MARGIN: Readonly<Record<string, string>> = {
  // 74.33 GiB of the A100's 80 GiB: llm-foundry's flash path keeps the attention output twice (activations.ts).
  'mpt-3b-a100-80gb-8-seq8192': '3 × 8,192 tokens per micro-batch without recompute, on an 80 GiB A100',
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

  test.each(PUBLISHED_RUNS.map((run) => [run.id, run] as const))('%s fits the card it ran on', (_, run) => {
    const result = estimateOrThrow(run.options);
    expect(result.fitsCard).toBe(true);
    // The free margin is met unless the run is listed as inside it, and then the estimate says which it is.
    expect(result.fits).toBe(!(run.id in INSIDE_MARGIN));
    if (run.id in INSIDE_MARGIN) expect(result.warnings.join('\n')).toMatch(/fits the .* but not the 10 % free margin/);
  });
});

/**
 * The memory the sources print, GiB: torchtitan's "Memory(GiB)" column, row FSDP of Table 1 (8 GPUs) and Table 3 (128
 * GPUs): the peak reserved by PyTorch's caching allocator (torchtitan 9dec370 torchtitan/metrics.py logs
 * `reserved_bytes.all.peak` as `max_reserved_gib`), which is at least what was allocated.
 */
const MEASURED_GIB: Readonly<Record<string, number>> = {
  'torchtitan-llama3.1-8b-h100-8': 82.4,
  'torchtitan-llama3.1-8b-h100-128': 67.0,
};

describe('published runs: the engine’s peak against the memory the source measured', () => {
  test.each(Object.entries(MEASURED_GIB))('%s: %f GiB reserved', (id, measuredGiB) => {
    const run = PUBLISHED_RUNS.find((r) => r.id === id);
    if (run === undefined) throw new Error(`no run ${id}`);
    const gpu = getGpuPreset(run.options.gpu ?? '');
    // What ran fits the card the run is recorded on.
    expect(measuredGiB * GIB).toBeLessThan(gpu?.memoryBytes ?? 0);
    // Engine ÷ measured inside the band a reserved figure allows: at most what was reserved, at least 80 % of it.
    const ratio = estimateOrThrow(run.options).perGpu.total / (measuredGiB * GIB);
    expect(ratio).toBeGreaterThanOrEqual(0.8);
    expect(ratio).toBeLessThanOrEqual(1);
  });
});
