/**
 * FP8 training (`--fp8`, `--fp8-all-gather`): each recipe's byte rule on a small Llama shape against sums derived by
 * hand from the rule's source (fp8.ts), the float8 all-gather, the step time's FP8 rate, torchtitan's published Float8
 * run, and the refusals. Every option the activations and the step time depend on is passed explicitly.
 */
import { describe, expect, test } from 'vitest';
import { runCommand } from '../../../src/cli/command.ts';
import { estimateCommand } from '../../../src/cli/estimate-command.ts';
import { getGpuPreset } from '../../../src/memory/gpus.ts';
import { estimateMemory, type EstimateOptions, type EstimateResult } from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

// A small Llama: h 256, 2 layers, 4 heads (no GQA), f 512, vocabulary 1,000; 2 sequences of 128 tokens.
const H = 256;
const F = 512;
const V = 1000;
const L = 2;
const S = 128;
const B = 2;

/** The compute efficiency these jobs pin (`--mfu 40`), so the expected seconds follow from it alone. */
const MFU = 0.4;

const small: EstimateOptions = {
  mfu: MFU * 100,
  arch: 'llama',
  hidden: H,
  layers: L,
  heads: 4,
  ffn: F,
  vocab: V,
  seq: S,
  microBatch: B,
  stack: 'pytorch',
  precision: 'bf16',
  optimizer: 'adamw',
  optimizerImpl: 'fused',
  attention: 'sdpa',
  kernels: 'eager',
  recompute: 'none',
  loss: 'eager',
  gpu: 'h100-80gb',
};

const peakOf = (result: EstimateResult, id: string) => Math.max(0, ...(result.lines.find((l) => l.id === id)?.live ?? []));

describe('torchao float8 (matmul_with_hp_or_float8_args saves input_hp and weight_hp_t)', () => {
  test.each(['torchao-tensorwise', 'torchao-rowwise'] as const)('%s: weights, saved activations and peak unchanged', (fp8) => {
    const plain = estimateOrThrow(small);
    const float8 = estimateOrThrow({ ...small, fp8 });
    expect(float8.perGpu.activationsPerLayer).toBe(plain.perGpu.activationsPerLayer);
    expect(float8.perGpu.total).toBe(plain.perGpu.total);
    expect(float8.lines.some((l) => l.id === 'weights-fp8')).toBe(false);
  });
});

describe('Transformer Engine (linear.py: float8 input saved column-wise, float8 weight and transpose saved)', () => {
  const sbh = S * B * H;
  const sbf = S * B * F;

  test('pure bf16: q, k, v, o, gate, up keep 1-byte copies (6·sbh) where 16-bit inputs were (3 × 2·sbh); down’s input halves', () => {
    const plain = estimateOrThrow(small);
    const te = estimateOrThrow({ ...small, fp8: 'te' });
    // Before: the norm output shared by q, k, v (2·sbh), by gate and up (2·sbh), o's input (2·sbh), down's (2·sbf).
    // After: 3·sbh + 2·sbh + sbh + sbf.
    const before = 2 * sbh + 2 * sbh + 2 * sbh + 2 * sbf;
    const after = 3 * sbh + 2 * sbh + sbh + sbf;
    expect(te.perGpu.activationsPerLayer - plain.perGpu.activationsPerLayer).toBe(after - before);
  });

  test('under autocast each Linear already cast its own 16-bit copy: every saved input halves', () => {
    const options = { ...small, precision: 'amp-bf16' } as const;
    const plain = estimateOrThrow(options);
    const te = estimateOrThrow({ ...options, fp8: 'te' });
    const before = 2 * (3 * sbh + 2 * sbh + sbh + sbf);
    const after = 3 * sbh + 2 * sbh + sbh + sbf;
    expect(te.perGpu.activationsPerLayer - plain.perGpu.activationsPerLayer).toBe(after - before);
  });

  test('a float8 copy and transpose of every Linear weight, 2 B each, forward to backward', () => {
    // Per layer q, k, v, o (h × h each) and gate, up, down (h × f each); the untied head h × V.
    const linear = L * (4 * H * H + 3 * H * F) + H * V;
    const te = estimateOrThrow({ ...small, fp8: 'te' });
    expect(peakOf(te, 'weights-fp8')).toBe(2 * linear);
  });
});

describe('torchao float8 all-gather (enable_fsdp_float8_all_gather)', () => {
  const sharded: EstimateOptions = { ...small, zero: 3, dp: 8, fp8: 'torchao-tensorwise' };

  test('the gathered unit arrives in 1-byte float8 instead of bf16: half the bytes', () => {
    const bf16 = estimateOrThrow(sharded);
    const float8 = estimateOrThrow({ ...sharded, fp8AllGather: true });
    expect(peakOf(float8, 'weights-gathered') * 2).toBe(peakOf(bf16, 'weights-gathered'));
  });

  test('backward’s all-gather sends half the bytes', () => {
    const seconds = (r: EstimateResult) => r.stepTime?.lines.find((l) => l.id === 'data-parallel')?.seconds ?? 0;
    const bf16 = estimateOrThrow(sharded);
    const float8 = estimateOrThrow({ ...sharded, fp8AllGather: true });
    expect(seconds(float8)).toBeLessThan(seconds(bf16));
  });
});

describe('step time: Linear matmuls at the FP8 rate', () => {
  test('compute is 3 · (2N / 2 + 2·L·s·h) per token at 40 % of the H100’s dense 16-bit rate', () => {
    const result = estimateOrThrow({ ...small, fp8: 'torchao-tensorwise' });
    const gpu = getGpuPreset('h100-80gb');
    if (gpu === undefined) throw new Error('no h100-80gb preset');
    const perToken = 3 * ((2 * result.activeParams) / 2 + 2 * L * S * H);
    const expected = (perToken * S * B) / (gpu.tensorTflops16 * 1e12 * MFU);
    expect(result.stepTime?.lines.find((l) => l.id === 'compute')?.seconds).toBeCloseTo(expected, 12);
    expect(result.stepTime?.assumptions.some((a) => a.startsWith('FP8 Linear matmuls at 2×'))).toBe(true);
  });
});

/**
 * torchtitan benchmarks/llama3_h100_202412_torchtitan.md Table 1: Llama 3.1 8B, FSDP on 8 H100s, local batch 2 ×
 * 8,192, selective checkpointing: "FSDP + torch.compile" 77.0 GiB, "+ Float8" 76.8 GiB (max reserved): Float8 left the
 * peak at 76.8 / 77.0 = 0.997 of bf16's. torchtitan's float8 is torchao's tensorwise recipe with the float8 all-gather
 * (torchtitan/components/quantization/float8.md), which keeps the high-precision inputs: the engine's float8 peak must
 * lie within 1 % of its bf16 peak, below or at it. The run's options are those of activations.torchtitan.test.ts.
 */
describe('torchtitan Table 1 (llama3_h100_202412_torchtitan.md): Float8 at 76.8 / 77.0 = 0.997 of the bf16 peak', () => {
  test('engine: torchao-tensorwise with the float8 all-gather ÷ bf16 lies within [0.99, 1]', () => {
    const run: EstimateOptions = {
      model: 'llama-3-8b',
      seq: 8192,
      microBatch: 2,
      gradAccum: 1,
      zero: 3,
      dp: 8,
      precision: 'mixed-bf16',
      optimizer: 'adamw',
      optimizerImpl: 'foreach',
      attention: 'sdpa',
      kernels: 'eager',
      grads: 'free',
      recompute: 'op',
      gpu: 'h100-80gb',
    };
    const bf16 = estimateOrThrow(run).perGpu.total;
    const float8 = estimateOrThrow({ ...run, fp8: 'torchao-tensorwise', fp8AllGather: true }).perGpu.total;
    expect(float8 / bf16).toBeGreaterThanOrEqual(0.99);
    expect(float8 / bf16).toBeLessThanOrEqual(1);
  });
});

describe('refusals name the flag', () => {
  test('an A100 has no FP8 tensor cores', () => {
    const outcome = estimateMemory({ ...small, gpu: 'a100-80gb', fp8: 'te' });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.errors.map((e) => e.field)).toEqual(['fp8']);
      expect(outcome.errors[0]?.message).toMatch(/needs FP8 tensor cores/);
    }
  });

  test('the CLI: one line naming --fp8, exit 2', () => {
    const { code, stderr } = runCommand(estimateCommand, ['--model', 'gpt2', '--gpu', 'v100-32gb', '--fp8', 'torchao-rowwise']);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/fp8/);
  });

  test('the float8 all-gather needs tensorwise scaling and ZeRO-3', () => {
    const outcome = estimateMemory({ ...small, zero: 3, dp: 8, fp8: 'torchao-rowwise', fp8AllGather: true });
    expect(outcome.ok ? [] : outcome.errors.map((e) => e.field)).toEqual(['fp8-all-gather']);
  });

  test('LoRA with FP8 is not counted, and says so', () => {
    const outcome = estimateMemory({ ...small, finetune: 'lora', fp8: 'torchao-tensorwise' });
    expect(outcome.ok ? [] : outcome.errors.map((e) => e.field)).toEqual(['fp8']);
  });
});
