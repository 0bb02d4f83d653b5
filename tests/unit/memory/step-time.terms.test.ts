/**
 * The step-time terms one by one (src/memory/step-time/, src/memory/time.ts): compute efficiency, collectives as NCCL
 * runs them, the busiest pipeline stage and its sends, and the reader's --mfu. Every option the time reads is given.
 */
import { describe, expect, test } from 'vitest';
import { runCommand } from '../../../src/cli/command.ts';
import { estimateCommand } from '../../../src/cli/estimate-command.ts';
import { estimateMemory, getGpuPreset, type EstimateOptions, type GpuSpec } from '../../../src/memory/index.ts';
import { allReduceShare, busBandwidth, exposedSeconds, gatherShare } from '../../../src/memory/step-time/collectives.ts';
import {
  attentionEfficiency,
  computeEfficiency,
  EFFICIENCY_CEILING,
  weightMatmulEfficiency,
} from '../../../src/memory/step-time/compute-efficiency.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

function gpu(id: string): GpuSpec {
  const found = getGpuPreset(id);
  if (found === undefined) throw new Error(`no gpu ${id}`);
  return found;
}

const base: EstimateOptions = {
  model: 'llama-2-7b',
  stack: 'pytorch',
  precision: 'amp-bf16',
  optimizer: 'adamw',
  optimizerImpl: 'fused',
  recompute: 'none',
  attention: 'sdpa',
  kernels: 'eager',
  microBatch: 1,
  seq: 4096,
  gradAccum: 8,
  gpu: 'h100-80gb',
};

const line = (options: EstimateOptions, id: string) =>
  estimateOrThrow({ ...base, ...options }).stepTime?.lines.find((l) => l.id === id)?.seconds ?? NaN;

describe('compute efficiency: a function of the work per matmul', () => {
  const shape = { tokens: 4096, hidden: 4096, tp: 1, fp32: false };

  test('rises with the tokens per micro-batch and the width, falls with the tensor-parallel split, stays under its ceiling', () => {
    const h100 = gpu('h100-80gb');
    const at = (over: Partial<typeof shape>) => weightMatmulEfficiency(h100, { ...shape, ...over });
    expect(at({ tokens: 512 })).toBeLessThan(at({ tokens: 4096 }));
    expect(at({ hidden: 1024 })).toBeLessThan(at({ hidden: 8192 }));
    expect(at({ tp: 8 })).toBeLessThan(at({ tp: 1 }));
    expect(at({ tokens: 1e9, hidden: 1e9 })).toBeLessThan(EFFICIENCY_CEILING);
  });

  test('is lower on H100 than on A100 for the same matmul: H100’s ridge point (989 TFLOP/s ÷ 3.35 TB/s) is twice A100’s', () => {
    expect(weightMatmulEfficiency(gpu('h100-80gb'), shape)).toBeLessThan(weightMatmulEfficiency(gpu('a100-80gb'), shape));
  });

  test('attention at FlashAttention-2’s published rates, per step FLOP (3 of the kernel’s 3.5 forwards)', () => {
    expect(attentionEfficiency(gpu('a100-80gb'))).toBeCloseTo((0.6 * 3) / 3.5, 12);
    expect(attentionEfficiency(gpu('h100-80gb'))).toBeCloseTo((0.35 * 3) / 3.5, 12);
    // Blended by FLOPs: all attention runs at the attention rate, none at the matmuls'.
    expect(computeEfficiency(gpu('h100-80gb'), { ...shape, attentionShare: 1 })).toBeCloseTo(
      attentionEfficiency(gpu('h100-80gb')),
      12,
    );
  });

  test('--mfu replaces it: the compute line scales as 1/mfu', () => {
    expect(line({ mfu: 20 }, 'compute') / line({ mfu: 40 }, 'compute')).toBeCloseTo(2, 10);
  });

  test('--mfu out of range: one line naming the field, exit 2 on the CLI', () => {
    for (const mfu of [0, -5, 101, Number.NaN]) {
      const outcome = estimateMemory({ ...base, mfu });
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.errors.map((e) => e.field)).toEqual(['mfu']);
    }
    const { code, stderr } = runCommand(estimateCommand, ['--model', 'gpt2', '--gpu', 'h100-80gb', '--mfu', '150']);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/mfu/);
  });
});

describe('collectives as NCCL runs them', () => {
  test('ring shares: all-gather and reduce-scatter (n−1)/n, all-reduce 2(n−1)/n, nothing for one GPU', () => {
    expect(gatherShare(8)).toBe(7 / 8);
    expect(allReduceShare(8)).toBe(7 / 4);
    expect(allReduceShare(1)).toBe(0);
  });

  test('within a server: the peer link; across servers: one card per member of the group in each server, at most the peer link', () => {
    const h100 = gpu('h100-80gb');
    expect(busBandwidth(h100, false, 8)).toBe(h100.peerLinkBytesPerSecond);
    // DGX H100: 8 × 400 Gb/s = 400 GB/s per server; a group with all 8 GPUs of each server drives all 8 cards.
    expect(busBandwidth(h100, true, 8)).toBeCloseTo(400e9, 0);
    // Tensor-parallel degree 8 leaves one member of each data-parallel group per server: its own card, 50 GB/s.
    expect(busBandwidth(h100, true, 1)).toBeCloseTo(50e9, 0);
    // The ring also crosses the peer link: a server's cards never make it faster than NVLink.
    const a100 = gpu('a100-80gb');
    expect(busBandwidth(a100, true, 8)).toBeLessThanOrEqual(a100.peerLinkBytesPerSecond);
  });

  test('overlap: hidden behind longer compute but for one unit’s share; what outlasts the compute is exposed', () => {
    expect(exposedSeconds(1, 10, 32)).toBeCloseTo(1 / 32, 12);
    expect(exposedSeconds(10, 4, 32)).toBeCloseTo(6, 12);
    expect(exposedSeconds(0, 4, 32)).toBe(0);
  });
});

describe('pipelines', () => {
  test('an uneven split is priced at the busiest stage: 32 layers over 3 stages is ⌈32/3⌉ = 11 of them', () => {
    const compute = (pp: number) => line({ pp, mfu: 40 }, 'compute');
    expect(compute(3) / compute(1)).toBeCloseTo(11 / 32, 10);
    expect(compute(4) / compute(1)).toBeCloseTo(8 / 32, 10);
  });

  test('stages send each micro-batch’s b·s·h activations forward and their gradients back (Narayanan et al. 2021 §4.1)', () => {
    // Llama 2 7B: width 4,096; 4,096 tokens of 2-byte activations per micro-batch; 8 micro-batches; NVLink 4 inside a server.
    const h100 = gpu('h100-80gb');
    const bytes = 4096 * 4096 * 2;
    expect(line({ pp: 4 }, 'pipeline-sends')).toBeCloseTo((2 * 8 * bytes) / h100.peerLinkBytesPerSecond, 12);
    // Split over the tensor-parallel ranks (scatter/gather), across servers through each GPU's own card.
    expect(line({ pp: 4, tp: 4 }, 'pipeline-sends')).toBeCloseTo((2 * 8 * bytes) / 4 / h100.networkBytesPerSecond, 12);
  });
});

describe('scale', () => {
  test('up to 16,384 GPUs (dp × tp × pp), the largest published run (Llama 3 405B, arXiv 2407.21783 §3.3.1); more: one line naming dp', () => {
    expect(estimateMemory({ ...base, dp: 2048, tp: 8, gradAccum: 1 }).ok).toBe(true);
    const outcome = estimateMemory({ ...base, dp: 4096, tp: 8, gradAccum: 1 });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.errors.map((e) => e.field)).toEqual(['dp']);
      expect(outcome.errors[0]?.message).toMatch(/32768 GPUs.*16,384/);
    }
  });
});
