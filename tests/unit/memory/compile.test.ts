/** `--compile`: a stated assumption, not a model: the eager saved activations are counted, an upper bound. */
import { describe, expect, test } from 'vitest';
import { COMPILE_ASSUMPTION, type EstimateOptions } from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

const training: EstimateOptions = {
  model: 'llama-3.2-1b',
  precision: 'bf16',
  optimizer: 'adamw',
  optimizerImpl: 'fused',
  recompute: 'none',
  attention: 'sdpa',
  kernels: 'eager',
  loss: 'eager',
  microBatch: 1,
  seq: 1024,
  gradAccum: 1,
};

describe('--compile', () => {
  test('prints the assumption, naming the min-cut partitioner', () => {
    const result = estimateOrThrow({ ...training, compile: true });
    expect(result.warnings).toContain(COMPILE_ASSUMPTION);
    expect(COMPILE_ASSUMPTION).toMatch(/min_cut_rematerialization_partition/);
  });

  test('counts the same bytes as an eager step (the upper bound it states)', () => {
    expect(estimateOrThrow({ ...training, compile: true }).perGpu.total).toBe(
      estimateOrThrow({ ...training, compile: false }).perGpu.total,
    );
  });

  test('says nothing without it', () => {
    expect(estimateOrThrow({ ...training, compile: false }).warnings).not.toContain(COMPILE_ASSUMPTION);
  });
});
