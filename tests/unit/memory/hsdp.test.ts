/**
 * HSDP (`--shard-group N`): ZeRO-3 within groups of N GPUs, the dp/N groups holding replicas (torch fully_shard on a
 * 2-D mesh). Every option the states and the traffic depend on is passed explicitly.
 */
import { describe, expect, test } from 'vitest';
import { estimateMemory, type EstimateOptions, type EstimateResult } from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';
import { allReduceSeconds } from '../../../src/memory/step-time/collectives.ts';

// Llama 2 7B: 6,738,415,616 parameters, bf16 weights and gradients (2 bytes each).
const MODEL_PARAMS = 6_738_415_616;

const hsdp: EstimateOptions = {
  model: 'llama-2-7b',
  precision: 'bf16',
  optimizer: 'adamw',
  optimizerImpl: 'fused',
  recompute: 'full',
  attention: 'sdpa',
  kernels: 'eager',
  loss: 'eager',
  microBatch: 1,
  seq: 1024,
  gradAccum: 1,
  dp: 16,
  zero: 3,
  shardGroup: 8,
  gpu: 'h100-80gb',
};

const weightBytes = (result: EstimateResult) => Math.max(...(result.lines.find((l) => l.id === 'weights')?.live ?? [NaN]));

describe('HSDP: 16 GPUs as 2 replicas of 8-way shards', () => {
  test('each GPU holds 1/8 of the weights (2 × ⌈6,738,415,616 / 8⌉ bytes), not 1/16', () => {
    expect(weightBytes(estimateOrThrow(hsdp))).toBe(2 * Math.ceil(MODEL_PARAMS / 8));
    expect(weightBytes(estimateOrThrow({ ...hsdp, shardGroup: 16 }))).toBe(2 * Math.ceil(MODEL_PARAMS / 16));
  });

  test('traffic: ZeRO-3 within the server (gathers and reduce-scatter 7/8 × 3 × bytes over NVLink, all but one layer’s share hidden), the 1/8 gradient shard all-reduced across the 2 servers a layer at a time', () => {
    // At 1 % compute efficiency the compute hides all of the within-server traffic but one of 32 layers' share.
    const result = estimateOrThrow({ ...hsdp, mfu: 1 });
    const gpu = result.gpu;
    if (gpu === null) throw new Error('no gpu');
    const bytes = MODEL_PARAMS * 2;
    const within = (7 / 8) * 3 * bytes;
    // Each GPU's 1/8 shard all-reduced with its one counterpart, one layer's gradients (1/32) at a time: 2 GPUs, one
    // per server, through its own card (collectives.ts allReduceSeconds: ring or tree, latency included).
    const across = allReduceSeconds(bytes / 8, bytes / 8 / 32, 2, 1, gpu.networkBytesPerSecond);
    const expected = within / gpu.peerLinkBytesPerSecond / 32 + across;
    expect(result.stepTime?.lines.find((l) => l.id === 'data-parallel')?.seconds).toBeCloseTo(expected, 9);
  });

  test('a group that does not divide dp, or without ZeRO-3: one line naming the field', () => {
    for (const bad of [{ shardGroup: 3 }, { zero: 2 as const }]) {
      const outcome = estimateMemory({ ...hsdp, ...bad });
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.errors.map((e) => e.field)).toEqual(['shard-group']);
    }
  });
});
