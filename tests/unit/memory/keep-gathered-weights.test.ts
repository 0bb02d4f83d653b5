/**
 * FSDP2's `reshard_after_forward=False` (`--keep-gathered-weights`): ZeRO-3's gathered weights stay from forward to
 * backward, which costs memory and saves backward's all-gather. Every option the weights depend on is passed explicitly.
 */
import { describe, expect, test } from 'vitest';
import { estimateMemory, type EstimateOptions, type EstimateResult, type MemoryLine } from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

// Llama 2 7B: 6,738,415,616 parameters; one layer 4·4096² + 3·4096·11008 + 2·4096 = 202,383,360.
const MODEL_PARAMS = 6_738_415_616;
const LAYER_PARAMS = 202_383_360;
const DP = 8;

const fsdp: EstimateOptions = {
  model: 'llama-2-7b',
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
  dp: DP,
  zero: 3,
  gpu: 'h100-80gb',
};

function gathered(result: EstimateResult): MemoryLine {
  const found = result.lines.find((l) => l.id === 'weights-gathered');
  if (found === undefined) throw new Error('no weights-gathered line');
  return found;
}

describe('gathered weights kept from forward to backward', () => {
  test('by the end of the forward, the other 7/8 of every weight is on the GPU (2 bytes each)', () => {
    const result = estimateOrThrow({ ...fsdp, keepGatheredWeights: true });
    expect(Math.max(...gathered(result).live)).toBe(2 * (MODEL_PARAMS - Math.ceil(MODEL_PARAMS / DP)));
  });

  test('resharded after forward, only one layer’s other 7/8 is', () => {
    const result = estimateOrThrow({ ...fsdp, keepGatheredWeights: false });
    expect(Math.max(...gathered(result).live)).toBe(2 * (LAYER_PARAMS - Math.ceil(LAYER_PARAMS / DP)));
  });

  test('backward’s all-gather is saved: (n−1)/n of the weights’ bytes less data-parallel traffic', () => {
    // At 1 % compute efficiency the compute hides all but one of the 32 layers' share of every collective.
    const seconds = (keep: boolean, gradAccum = 1) =>
      estimateOrThrow({ ...fsdp, mfu: 1, gradAccum, keepGatheredWeights: keep }).stepTime?.lines.find(
        (l) => l.id === 'data-parallel',
      )?.seconds ?? NaN;
    const link = estimateOrThrow(fsdp).gpu?.peerLinkBytesPerSecond ?? NaN;
    const saved = ((DP - 1) / DP) * MODEL_PARAMS * 2;
    expect(seconds(false) - seconds(true)).toBeCloseTo(saved / link / 32, 9);
    // FSDP re-gathers and reduce-scatters in every micro-batch under accumulation (#31): 4 micro-batches, 4× the traffic.
    expect(seconds(false, 4) / seconds(false, 1)).toBeCloseTo(4, 9);
  });

  test('needs ZeRO-3: one line naming the field', () => {
    const outcome = estimateMemory({ ...fsdp, zero: 2, keepGatheredWeights: true });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.errors.map((e) => e.field)).toEqual(['keep-gathered-weights']);
  });
});
