import { describe, expect, test } from 'vitest';
import { GIB } from '../../../src/base/bytes.ts';
import { deepspeedZero2Estimate, deepspeedZero3Estimate } from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

// t5-small: 60,506,624 parameters, largest module the shared embedding 32128 × 512.
const t5Small = { totalParams: 60_506_624, largestLayerParams: 32128 * 512 };
const printed = (bytes: number) => (bytes / GIB).toFixed(2); // DeepSpeed prints bytes / 2^30 as "GB"

describe('deepspeedZero3Estimate reproduces estimate_zero3_model_states_mem_needs_all_live for t5-small (1 node, 1 GPU)', () => {
  test.each<[string, boolean, boolean, boolean, string, string]>([
    ['offload_param=cpu, offload_optimizer=cpu, zero_init=1', true, true, true, '1.52', '0.06'],
    ['offload_param=cpu, offload_optimizer=cpu, zero_init=0', true, true, false, '1.52', '0.06'],
    ['offload_param=none, offload_optimizer=cpu, zero_init=1', true, false, true, '1.35', '0.17'],
    ['offload_param=none, offload_optimizer=cpu, zero_init=0', true, false, false, '1.35', '0.17'],
    ['offload_param=none, offload_optimizer=none, zero_init=1', false, false, true, '0.09', '1.08'],
    ['offload_param=none, offload_optimizer=none, zero_init=0', false, false, false, '0.34', '1.08'],
  ])('%s → %s GB per CPU, %s GB per GPU', (_title, cpuOffload, cpuOffloadParams, zeroInit, cpu, gpu) => {
    const estimate = deepspeedZero3Estimate({ ...t5Small, cpuOffload, cpuOffloadParams, zeroInit });
    expect(printed(estimate.cpuBytes)).toBe(cpu);
    expect(printed(estimate.gpuBytes)).toBe(gpu);
  });
});

describe('deepspeedZero2Estimate (stage_1_and_2.py estimate_zero2_model_states_mem_needs)', () => {
  test('offload: GPU 2Ψ, CPU max(4N, 16)Ψ × 1.5', () => {
    expect(deepspeedZero2Estimate({ totalParams: 1e9, gpusPerNode: 8 })).toEqual({ gpuBytes: 2e9, cpuBytes: 1e9 * 32 * 1.5 });
  });

  test('no offload: GPU 4Ψ + 16Ψ/N', () => {
    expect(deepspeedZero2Estimate({ totalParams: 1e9, gpusPerNode: 8, cpuOffload: false }).gpuBytes).toBe(4e9 + 2e9);
  });
});

describe('estimateMemory agrees with DeepSpeed where the conventions match', () => {
  const params = 1_000_000_000;

  test('ZeRO-2 + optimizer offload: GPU keeps 2Ψ of 16-bit weights; the host holds 16Ψ in all (DeepSpeed, 4 GPUs, no buffer factor)', () => {
    const result = estimateOrThrow({ params, precision: 'mixed-fp16', zero: 2, dp: 4, offload: 'optimizer' });
    const ds = deepspeedZero2Estimate({ totalParams: params, gpusPerNode: 4, additionalBufferFactor: 1 });
    const g = result.perGpu;
    expect(g.weights + g.gradients + g.optimizer).toBe(ds.gpuBytes);
    expect(result.perCpu.total * 4).toBe(ds.cpuBytes);
  });

  test('ZeRO-3 + parameter offload: the host holds 18Ψ in all (DeepSpeed, 8 GPUs, zero_init, no buffer factor)', () => {
    const result = estimateOrThrow({ params, precision: 'mixed-bf16', zero: 3, dp: 8, offload: 'optimizer+params' });
    const ds = deepspeedZero3Estimate({ totalParams: params, largestLayerParams: 0, gpusPerNode: 8, additionalBufferFactor: 1 });
    expect(result.perCpu.total * 8).toBe(ds.cpuBytes);
  });

  test('ZeRO-Infinity to NVMe moves the same bytes to NVMe instead of host RAM', () => {
    const result = estimateOrThrow({
      params,
      precision: 'mixed-bf16',
      zero: 3,
      dp: 8,
      offload: 'optimizer+params',
      offloadDevice: 'nvme',
    });
    expect(result.perCpu.total).toBe(0);
    expect(result.perNvme.total).toBe((18 * params) / 8);
  });
});
