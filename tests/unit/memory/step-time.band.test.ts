/**
 * The error band every printed step time carries (src/memory/step-time/band.ts) is the 10th–90th percentile of
 * predicted ÷ measured over the published runs: recomputed here from the runs, so a model change that moves the
 * ratios fails until the band is updated with it.
 */
import { describe, expect, test } from 'vitest';
import { formatStepTime } from '../../../src/memory/index.ts';
import { PREDICTED_OVER_MEASURED, stepTimeBand } from '../../../src/memory/step-time/band.ts';
import { compareWithPublishedRuns } from '../../../src/memory/step-time/calibration.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

/** The q-quantile of `values`, linear between ranks (the common "type 7" definition). */
function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const below = sorted[Math.floor(at)] ?? NaN;
  const above = sorted[Math.ceil(at)] ?? NaN;
  return below + (above - below) * (at - Math.floor(at));
}

describe('the step time’s error band', () => {
  const ratios = compareWithPublishedRuns().map((c) => c.ratio);

  test('is the 10th–90th percentile of predicted ÷ measured over the published runs, rounded outward to two decimals', () => {
    expect(PREDICTED_OVER_MEASURED.p10).toBe(Math.floor(quantile(ratios, 0.1) * 100) / 100);
    expect(PREDICTED_OVER_MEASURED.p90).toBe(Math.ceil(quantile(ratios, 0.9) * 100) / 100);
  });

  test('around a prediction T it runs from T ÷ p90 to T ÷ p10: where the measured step fell for 8 in 10 runs', () => {
    const band = stepTimeBand(2);
    expect(band.low).toBeCloseTo(2 / PREDICTED_OVER_MEASURED.p90, 12);
    expect(band.high).toBeCloseTo(2 / PREDICTED_OVER_MEASURED.p10, 12);
    const inside = compareWithPublishedRuns().filter((c) => {
      const b = stepTimeBand(c.predictedStepSeconds);
      return b.low <= c.run.measuredStepSeconds && c.run.measuredStepSeconds <= b.high;
    });
    expect(inside.length / ratios.length).toBeGreaterThanOrEqual(0.8);
  });

  test('a training estimate carries it, inference does not (no published run calibrates inference)', () => {
    const train = estimateOrThrow({ model: 'gpt2', gpu: 'a100-80gb', stack: 'pytorch', precision: 'amp-bf16' }).stepTime;
    expect(train?.band).toEqual(stepTimeBand(train?.totalSeconds ?? NaN));
    expect(estimateOrThrow({ model: 'gpt2', gpu: 'a100-80gb', mode: 'infer' }).stepTime?.band).toBeNull();
  });

  test('formatStepTime prints the time and its band; without a band, the time alone', () => {
    expect(formatStepTime(2)).toBe(
      `2.00 s (${(2 / PREDICTED_OVER_MEASURED.p90).toFixed(2)} s–${(2 / PREDICTED_OVER_MEASURED.p10).toFixed(2)} s)`,
    );
    expect(formatStepTime(2, null)).toBe('2.00 s');
  });
});
