/**
 * Offloaded parameters (`--offload optimizer+params`, FSDP `CPUOffload(offload_params=True)` / accelerate
 * `fsdp_offload_params`, DeepSpeed `offload_param`) for a LoRA or QLoRA fine-tune: the frozen base lives on the host and
 * one gathered unit at a time comes to the GPU. Every option the placement depends on is passed explicitly.
 */
import { describe, expect, test } from 'vitest';
import type { EstimateOptions, EstimateResult, MemoryLine } from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

// Llama 2 7B (config.json: hidden 4096, intermediate 11008, 32 layers, vocab 32000, untied head): one layer holds
// 4·4096² (q, k, v, o) + 3·4096·11008 (gate, up, down) + 2·4096 (norms) = 202,383,360 parameters, more than the
// 32000·4096 = 131,072,000 of the embedding; the whole model 6,738,415,616.
const LAYER_PARAMS = 4 * 4096 ** 2 + 3 * 4096 * 11008 + 2 * 4096;
const MODEL_PARAMS = 6_738_415_616;

const lora16: EstimateOptions = {
  model: 'llama-2-7b',
  finetune: 'lora',
  loraRank: 8,
  loraTargets: 'all-linear',
  loraDtype: 'bf16',
  precision: 'amp-bf16',
  optimizer: 'adamw',
  optimizerImpl: 'fused',
  recompute: 'full',
  attention: 'sdpa',
  kernels: 'eager',
  loss: 'eager',
  microBatch: 1,
  seq: 512,
  gradAccum: 1,
  zero: 3,
  dp: 1,
};

function lineOf(result: EstimateResult, id: string): MemoryLine {
  const found = result.lines.find((l) => l.id === id);
  if (found === undefined) throw new Error(`no ${id} line`);
  return found;
}

const peak = (l: MemoryLine) => Math.max(...l.live);

describe('a frozen LoRA base offloaded to the host', () => {
  test('the 16-bit base (2 bytes × 6,738,415,616 params) and the adapters move to the host', () => {
    const result = estimateOrThrow({ ...lora16, offload: 'optimizer+params', offloadDevice: 'cpu' });
    const base = lineOf(result, 'weights');
    expect(base.device).toBe('cpu');
    expect(peak(base)).toBe(2 * MODEL_PARAMS);
    expect(lineOf(result, 'weights-adapters').device).toBe('cpu');
    expect(lineOf(result, 'gradients').device).toBe('cpu');
    expect(lineOf(result, 'optimizer-moments').device).toBe('cpu');
    expect(result.perCpu.total).toBeGreaterThanOrEqual(2 * MODEL_PARAMS);
  });

  test('one whole layer (202,383,360 params, 2 bytes each) is copied back to the GPU for its forward and backward', () => {
    const result = estimateOrThrow({ ...lora16, offload: 'optimizer+params', offloadDevice: 'cpu' });
    const gathered = lineOf(result, 'weights-gathered');
    expect(gathered.device).toBe('gpu');
    expect(peak(gathered)).toBe(2 * LAYER_PARAMS);
  });

  test('on two GPUs without offload, each holds half the base and fetches the other half of one layer', () => {
    const result = estimateOrThrow({ ...lora16, dp: 2, offload: 'none' });
    expect(lineOf(result, 'weights').device).toBe('gpu');
    expect(peak(lineOf(result, 'weights'))).toBe(2 * Math.ceil(MODEL_PARAMS / 2));
    expect(peak(lineOf(result, 'weights-gathered'))).toBe(2 * (LAYER_PARAMS - Math.ceil(LAYER_PARAMS / 2)));
  });

  test('offloading lowers the GPU peak by the base less one gathered layer', () => {
    const kept = estimateOrThrow({ ...lora16, dp: 2, offload: 'none' });
    const offloaded = estimateOrThrow({ ...lora16, dp: 2, offload: 'optimizer+params', offloadDevice: 'cpu' });
    expect(offloaded.perGpu.total).toBeLessThan(kept.perGpu.total - 2 * Math.ceil(MODEL_PARAMS / 2) + 2 * LAYER_PARAMS);
  });
});
