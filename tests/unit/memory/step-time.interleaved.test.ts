/**
 * Interleaved 1F1B (`--pp-virtual v`): the bubble and the sends between stages (Narayanan et al. 2021, arXiv 2104.04473
 * §2.2.2), the first stage's activations (Korthikanti et al. 2022, arXiv 2205.05198 §4.2.3), and Megatron-LM's rules
 * for when interleaving is allowed. Every option the estimate reads is given.
 */
import { describe, expect, test } from 'vitest';
import { runCommand } from '../../../src/cli/command.ts';
import { estimateCommand } from '../../../src/cli/estimate-command.ts';
import { chunksInFlight, estimateMemory, getGpuPreset, type EstimateOptions } from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

// Llama 2 7B: 32 layers, width 4,096; 4 stages of 8 layers, 8 micro-batches of 4,096 tokens, 2-byte activations.
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
  pp: 4,
  mfu: 40,
  gpu: 'h100-80gb',
};
const p = 4;
const m = 8;

const estimate = (ppVirtual: number) => estimateOrThrow({ ...base, ppVirtual });
const seconds = (ppVirtual: number, id: string) =>
  estimate(ppVirtual).stepTime?.lines.find((l) => l.id === id)?.seconds ?? Number.NaN;

describe('interleaved 1F1B: time (Narayanan et al. 2021 §2.2.2)', () => {
  test('the bubble is (p−1)/(v·m) of the compute: 3/16 with v = 2, 3/32 with v = 4', () => {
    for (const v of [1, 2, 4]) {
      expect(seconds(v, 'bubble') / seconds(v, 'compute')).toBeCloseTo((p - 1) / (v * m), 12);
    }
  });

  test('v times as many sends between stages: 2·m·v of b·s·h activations over NVLink', () => {
    const h100 = getGpuPreset('h100-80gb');
    if (h100 === undefined) throw new Error('no h100-80gb preset');
    const bytes = 1 * 4096 * 4096 * 2;
    expect(seconds(2, 'pipeline-sends')).toBeCloseTo((2 * m * 2 * bytes) / h100.peerLinkBytesPerSecond, 12);
  });
});

describe('interleaved 1F1B: the first stage’s activations (Korthikanti et al. 2022 §4.2.3)', () => {
  test('model chunks in flight follow Megatron-LM’s warm-up, 2(p−r−1) + (v−1)·p + 1, at most m·v', () => {
    // First stage, p = 4, v = 2: 6 + 4 + 1 = 11 chunks of 4 layers, 44 layers' activations = L·(1 + (p−1)/(p·v)) = 32 · 11/8.
    expect(chunksInFlight(4, 2, 8, 'first')).toBe(11);
    // Last stage: (v−1)·p + 1 = 5.
    expect(chunksInFlight(4, 2, 8, 'last')).toBe(5);
    // Only m = p = 4 micro-batches: the 11 would exceed all m·v = 8 chunks of the step, so 8.
    expect(chunksInFlight(4, 2, 4, 'first')).toBe(8);
    // Plain 1F1B: min(p, m) on the first stage, one on the last.
    expect(chunksInFlight(4, 1, 8, 'first')).toBe(4);
    expect(chunksInFlight(4, 1, 2, 'first')).toBe(2);
    expect(chunksInFlight(4, 1, 8, 'last')).toBe(1);
  });

  test('the first stage holds 1 + (p−1)/(p·v) times plain 1F1B’s layer activations, rounded up to a whole byte', () => {
    const layersBytes = (v: number) => estimate(v).lines.find((l) => l.id === 'activations-layers')?.bytes ?? Number.NaN;
    const plain = layersBytes(1);
    for (const v of [2, 4]) {
      expect(layersBytes(v)).toBe(Math.ceil((plain * (p * v + p - 1)) / (p * v)));
    }
  });
});

describe('interleaved 1F1B: when Megatron-LM allows it (core 0.20.0 arguments.py, schedules.py)', () => {
  const refusedField = (options: EstimateOptions) => {
    const outcome = estimateMemory({ ...base, ...options });
    return outcome.ok ? null : outcome.errors.map((e) => e.field);
  };

  test('layers must split evenly into p·v chunks: 32 layers over 4 × 3 is refused, naming pp-virtual', () => {
    expect(refusedField({ ppVirtual: 3 })).toEqual(['pp-virtual']);
    expect(refusedField({ ppVirtual: 8 })).toBeNull();
  });

  test('micro-batches must come in groups of p, and interleaving needs a pipeline', () => {
    expect(refusedField({ ppVirtual: 2, gradAccum: 6 })).toEqual(['pp-virtual']);
    expect(refusedField({ ppVirtual: 2, pp: 1 })).toEqual(['pp-virtual']);
    expect(refusedField({ ppVirtual: 0 })).toEqual(['pp-virtual']);
  });

  test('on the CLI: one line naming pp-virtual, exit 2', () => {
    const { code, stderr } = runCommand(estimateCommand, [
      '--model',
      'llama-2-7b',
      '--gpu',
      'h100-80gb',
      '--pp',
      '4',
      '--grad-accum',
      '8',
      '--pp-virtual',
      '3',
    ]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/pp-virtual/);
  });
});
