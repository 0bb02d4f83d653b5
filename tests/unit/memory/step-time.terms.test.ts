/**
 * The step-time terms one by one (src/memory/step-time/, src/memory/time.ts): compute efficiency, collectives as NCCL
 * runs them, the busiest pipeline stage and its sends, and the reader's --mfu. Every option the time reads is given.
 */
import { describe, expect, test } from 'vitest';
import { runCommand } from '../../../src/cli/command.ts';
import { estimateCommand } from '../../../src/cli/estimate-command.ts';
import { estimateMemory, getGpuPreset, type EstimateOptions, type GpuSpec } from '../../../src/memory/index.ts';
import {
  allReduceMessage,
  allReduceSeconds,
  allReduceShare,
  busBandwidth,
  exposedSeconds,
  gatherShare,
} from '../../../src/memory/step-time/collectives.ts';
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

/**
 * NCCL's choice of ring or tree for an all-reduce between servers, from its tuning model (NCCL 2.30.7
 * src/graph/tuning.cc, Simple protocol): latency in µs (base 8.4; per step 3.4 ring and 4.0 tree over NVLink, 14 over
 * the network) plus the bytes over the algorithm bandwidth (ring: bus bandwidth × n/(2(n−1)); tree: × .92 × .5).
 */
describe('all-reduce between servers: ring or tree, as NCCL’s tuner picks', () => {
  const bus = 400e9;
  const us = 1e-6;
  // 16 servers × 8 GPUs: the ring takes 2·127 steps, 2·15 of them over the network; the tree ⌊log2 16⌋ = 4 network
  // steps and a chain of 7 GPUs in each server, each way.
  const ringLatency = (8.4 + (254 - 30) * 3.4 + 30 * 14) * us;
  const treeLatency = (8.4 + 2 * (7 * 4.0 + 4 * 14)) * us;
  const ring = (bytes: number) => ringLatency + (allReduceShare(128) * bytes) / bus;
  const tree = (bytes: number) => treeLatency + bytes / (0.46 * bus);

  test('a DDP bucket (25 MiB) on 16 servers goes by tree, whose latency grows with log2 of the servers', () => {
    const bucket = 25 * 2 ** 20;
    const message = allReduceMessage(bucket, 128, 8, bus);
    expect(message.algorithm).toBe('tree');
    expect(message.seconds).toBeCloseTo(tree(bucket), 12);
  });

  test('past the size where the ring’s better bandwidth pays for its longer latency, the ring', () => {
    const crossover = (ringLatency - treeLatency) / (1 / (0.46 * bus) - allReduceShare(128) / bus);
    expect(allReduceMessage(crossover * 0.9, 128, 8, bus).algorithm).toBe('tree');
    const large = allReduceMessage(crossover * 1.1, 128, 8, bus);
    expect(large.algorithm).toBe('ring');
    expect(large.seconds).toBeCloseTo(ring(crossover * 1.1), 12);
  });

  test('inside one server: the ring at the bus bandwidth alone, as every collective there', () => {
    expect(allReduceMessage(1e9, 8, 8, 450e9)).toEqual({ algorithm: 'ring', seconds: (allReduceShare(8) * 1e9) / 450e9 });
    expect(allReduceSeconds(1e9, 25 * 2 ** 20, 8, 8, 450e9)).toBe((allReduceShare(8) * 1e9) / 450e9);
  });

  test('a volume sent in buckets pays each bucket’s latency', () => {
    const whole = 1e9;
    const buckets = Math.ceil(whole / (25 * 2 ** 20));
    expect(allReduceSeconds(whole, 25 * 2 ** 20, 128, 8, bus)).toBeCloseTo(buckets * tree(whole / buckets), 12);
  });

  test('DDP on 16 H100 servers: its 25 MiB buckets go by tree, one layer’s share exposed', () => {
    const ddp = { model: 'llama-3.2-1b', dp: 128, zero: 0 as const, gradAccum: 1, seq: 8192 };
    const estimate = estimateOrThrow({ ...base, ...ddp });
    // amp-bf16 keeps fp32 gradients; at 8,192 tokens the backward outlasts the all-reduce, which hides behind it but
    // for one of the 16 layers' share.
    const allReduce = allReduceSeconds(estimate.params * 4, 25 * 2 ** 20, 128, 8, bus);
    expect(line(ddp, 'data-parallel')).toBeCloseTo(allReduce / 16, 12);
    const buckets = Math.ceil((estimate.params * 4) / (25 * 2 ** 20));
    expect(allReduce).toBeLessThan(buckets * ring((estimate.params * 4) / buckets));
    expect(estimate.stepTime?.lines.find((l) => l.id === 'data-parallel')?.source).toMatch(/ring or tree/);
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
