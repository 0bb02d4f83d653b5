/**
 * Op-level selective activation checkpointing (`--recompute op`) against torchtitan: its policy term by term, and its
 * published Llama 3.1 8B runs (benchmarks/llama3_h100_202412_torchtitan.md, torchtitan commit 9dec370 of 2024-12-26,
 * whose train_configs/llama3_8b.toml sets `selective_ac_option = 'op'`).
 */
import { describe, expect, test } from 'vitest';
import { GIB } from '../../../src/base/bytes.ts';
import { layerActivationBytes, planRecompute, type LayerActivationShape } from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

// Llama 3 8B (config.json: h 4,096, f 14,336, 32 heads, 8 K/V heads) at torchtitan's 8,192 tokens, micro-batch 2, bf16.
const llama: LayerActivationShape = {
  seq: 8192,
  microBatch: 2,
  hidden: 4096,
  heads: 32,
  // 32 query heads and 8 K/V heads of 128 (model.ts attentionWidths).
  widths: { query: 4096, key: 1024, value: 1024, output: 4096, latents: [] },
  mlpWidth: 14336,
  mlp: 'swiglu',
  norm: 'rmsnorm',
  pythonGelu: false,
  sinks: false,
  dropout: false,
  attention: 'sdpa',
  kernels: 'eager',
  bytesPerElement: 2,
  residualBytes: 2,
  tp: 1,
  sp: false,
  frozenWeights: false,
};
const sbh = 8192 * 2 * 4096;
const sbf = 8192 * 2 * 14336;

describe('torchtitan’s op-level policy (parallelize_llama.py _apply_ac_to_transformer_block, 9dec370)', () => {
  test('saves the 1st, 3rd, 5th and 7th matmul (q, v, w1 and w2), the SDPA output and its fp32 log-sum-exp', () => {
    const q = 2 * sbh;
    const v = (2 * sbh * 8) / 32;
    const attentionOutput = 2 * sbh;
    const logSumExp = 4 * 32 * 8192 * 2;
    const w1 = 2 * sbf;
    const w2 = 2 * sbh;
    expect(layerActivationBytes(llama).opSaved).toBe(q + v + attentionOutput + logSumExp + w1 + w2);
  });

  test('eager attention’s bmm and softmax are not in the save list: only the matmuls are saved', () => {
    const eager = layerActivationBytes({ ...llama, attention: 'eager' });
    const sdpa = layerActivationBytes(llama);
    expect(sdpa.opSaved - eager.opSaved).toBe(2 * sbh + 4 * 32 * 8192 * 2);
  });

  test('a layer keeps its input and what the policy saved; backward rebuilds the rest, one layer at a time', () => {
    const layer = layerActivationBytes(llama);
    const plan = planRecompute(layer, 32, 'op', 0);
    expect(plan.keptPerLayer).toBe(layer.input + layer.opSaved);
    expect(plan.keptForLayers).toBe(32 * (layer.input + layer.opSaved));
    expect(plan.keptPerLayer + plan.workingSet).toBe(layer.full);
  });
});

/**
 * Table 1 and Table 3 of torchtitan benchmarks/llama3_h100_202412_torchtitan.md: Llama 3.1 8B, FSDP (fully_shard:
 * ZeRO-3) over 8 or 128 H100s, local batch 2 × 8,192 tokens, selective (op) checkpointing, no torch.compile: 82.4 and
 * 67.0 GiB. torchtitan logs `reserved_bytes.all.peak` (torchtitan/metrics.py get_peak_stats), the caching
 * allocator's reserve; the engine counts the tensors alive, which the reserve holds with its cache and fragmentation:
 * the engine's figure (without the CUDA context) lies between 80 % and 100 % of the published one. The run's stack,
 * every option passed: FSDP2 MixedPrecisionPolicy(param bfloat16, reduce float32) over fp32 parameters (16 bytes per
 * parameter, sharded), torch.optim.AdamW with foreach (torchtitan/optimizer.py: `foreach = not fused`, fused off by
 * default), SDPA, torchtitan's plain PyTorch modules, `zero_grad()` freeing the gradients.
 */
describe('torchtitan benchmarks/llama3_h100_202412_torchtitan.md, Llama 3.1 8B with op-level checkpointing', () => {
  const run = {
    model: 'llama-3-8b',
    seq: 8192,
    microBatch: 2,
    gradAccum: 1,
    zero: 3,
    precision: 'mixed-bf16',
    optimizer: 'adamw',
    optimizerImpl: 'foreach',
    attention: 'sdpa',
    kernels: 'eager',
    grads: 'free',
    recompute: 'op',
  } as const;
  const allocated = (dp: number) => {
    const result = estimateOrThrow({ ...run, dp });
    return (result.perGpu.total - result.perGpu.overhead) / GIB;
  };

  test.each([
    ['Table 1, FSDP on 8 H100s: 82.4 GiB', 8, 82.4],
    ['Table 3, FSDP on 128 H100s: 67.0 GiB', 128, 67.0],
  ])('%s', (_title, dp, publishedGiB) => {
    const ratio = allocated(dp) / publishedGiB;
    expect(ratio).toBeGreaterThanOrEqual(0.8);
    expect(ratio).toBeLessThanOrEqual(1);
  });
});
