import { describe, expect, test } from 'vitest';
import { scalingCurve, SCALING_GPU_COUNTS } from '../../../../src/components/calculators/scaling';

describe('scalingCurve(options)', () => {
  const points = scalingCurve({
    model: 'llama-2-7b',
    precision: 'mixed-bf16',
    optimizerImpl: 'foreach',
    microBatch: 1,
    seq: 2048,
  });
  const at = (stage: number, gpus: number) => points.find((p) => p.stage === stage && p.gpus === gpus)?.bytes ?? Number.NaN;

  test('covers 1 to 1024 GPUs for every ZeRO stage', () => {
    expect(SCALING_GPU_COUNTS[0]).toBe(1);
    expect(SCALING_GPU_COUNTS.at(-1)).toBe(1024);
    expect(points).toHaveLength(4 * SCALING_GPU_COUNTS.length);
  });

  test('plain data parallelism keeps the same per-GPU memory at any size (ZeRO §5: replicas)', () => {
    expect(at(0, 1024)).toBe(at(0, 1));
  });

  test('ZeRO-3 per-GPU memory falls as GPUs are added, and is never above ZeRO-2 or ZeRO-1', () => {
    for (const [i, gpus] of SCALING_GPU_COUNTS.entries()) {
      if (i > 0) expect(at(3, gpus)).toBeLessThan(at(3, SCALING_GPU_COUNTS[i - 1] ?? 1));
      expect(at(3, gpus)).toBeLessThanOrEqual(at(2, gpus));
      expect(at(2, gpus)).toBeLessThanOrEqual(at(1, gpus));
    }
  });
});
