/**
 * Optimizer states per parameter, each from the optimizer's own source (optimizer.ts OPTIMIZER_SPECS), and where the
 * engine puts them.
 */
import { describe, expect, test } from 'vitest';
import { countParams, getModelPreset, resolveEstimateOptions } from '../../../src/memory/index.ts';
import {
  adafactorStateShare,
  momentBytesPerParam,
  optimizerStepTemporaryBytes,
  type OptimizerKind,
} from '../../../src/memory/optimizer.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

describe('momentBytesPerParam: bytes of state per parameter', () => {
  test.each<[string, OptimizerKind, number, number]>([
    ['torch AdamW keeps m and v like the parameter: 2 × 4 on fp32', 'adamw', 4, 8],
    ['torch AdamW on bf16 parameters: 2 × 2', 'adamw', 2, 4],
    ['bitsandbytes AdamW8bit: 2 × (1 + 4/256), uint8 codes and an fp32 absmax per 256 (0.46.0 on)', 'adamw-8bit', 2, 2 + 8 / 256],
    ['bitsandbytes PagedAdamW32bit: fp32 states whatever the parameter: 2 × 4', 'paged-adamw', 2, 8],
    ['bitsandbytes PagedAdamW8bit: the 8-bit layout, paged', 'paged-adamw-8bit', 2, 2 + 8 / 256],
    ['torchao AdamW8bit(block_size=256): 2 × (1 + 4/256)', 'adamw-8bit-torchao', 2, 2 + 8 / 256],
    ['torchao AdamW4bit(block_size=128): 2 × (0.5 + 4/128)', 'adamw-4bit-torchao', 2, 1 + 8 / 128],
    ['bitsandbytes Lion (32-bit): one fp32 moment', 'lion', 2, 4],
    ['torchao CPUOffloadOptimizer: torch AdamW on host copies, like the parameter', 'adamw-cpu-offload', 2, 4],
    ['SGD: nothing', 'sgd', 4, 0],
  ])('%s', (_title, optimizer, paramMomentBytes, expected) => {
    expect(momentBytesPerParam(optimizer, paramMomentBytes, 1)).toBe(expected);
  });

  test('Adafactor: fp32 row and column statistics for each matrix, full squares for vectors (Llama 2 7B by hand)', () => {
    const model = getModelPreset('llama-2-7b')!.config;
    const h = 4096;
    const f = 11008;
    // Per layer: q, k, v, o (h + h each), gate and up (h + f), down (f + h); the untied head and the embedding (V + h);
    // the 65 RMSNorm weights (2 per layer and the final one) are vectors.
    const elements = 32 * (4 * 2 * h + 3 * (h + f)) + 2 * (32_000 + h) + 65 * h;
    const share = adafactorStateShare(model);
    expect(share * countParams(model).total).toBeCloseTo(elements, 3);
    expect(momentBytesPerParam('adafactor', 2, share)).toBeCloseTo((4 * elements) / countParams(model).total, 12);
  });
});

describe('optimizerStepTemporaryBytes', () => {
  const shape = { impl: 'foreach', params: 1000, largestTensor: 100, momentBytes: 4, paramBytes: 2 } as const;
  test('Adafactor on a 16-bit parameter: grad**2 and its sum with eps (fp32), fp32 copies of gradient and parameter', () => {
    expect(optimizerStepTemporaryBytes({ ...shape, optimizer: 'adafactor' })).toBe(4 * 4 * 100);
  });
  test('Adafactor on an fp32 parameter: only the two fp32 update tensors', () => {
    expect(optimizerStepTemporaryBytes({ ...shape, optimizer: 'adafactor', paramBytes: 4 })).toBe(2 * 4 * 100);
  });
  test.each<OptimizerKind>(['adamw-8bit', 'adamw-4bit-torchao', 'lion', 'paged-adamw'])(
    '%s updates in place in one kernel per tensor',
    (optimizer) => {
      expect(optimizerStepTemporaryBytes({ ...shape, optimizer })).toBe(0);
    },
  );
});

describe('where the engine puts the states', () => {
  const options = {
    model: 'llama-2-7b',
    seq: 512,
    precision: 'bf16',
    optimizerImpl: 'fused',
    recompute: 'none',
    attention: 'sdpa',
  } as const;
  test('torchao CPUOffloadOptimizer: moments and pinned parameter and gradient copies on the host', () => {
    const result = estimateOrThrow({ ...options, optimizer: 'adamw-cpu-offload' });
    const params = countParams(getModelPreset('llama-2-7b')!.config).total;
    const moments = result.lines.find((l) => l.id === 'optimizer-moments')!;
    const copies = result.lines.find((l) => l.id === 'optimizer-host-copies')!;
    expect(moments.device).toBe('cpu');
    expect(Math.max(...moments.live)).toBe(2 * 2 * params);
    expect(copies.device).toBe('cpu');
    expect(Math.max(...copies.live)).toBe((2 + 2) * params);
    expect(result.perGpu.optimizer).toBe(0);
  });

  test('paged AdamW counts its states on the GPU (resident), 8 bytes per parameter even for bf16 weights', () => {
    const result = estimateOrThrow({ ...options, optimizer: 'paged-adamw' });
    const params = countParams(getModelPreset('llama-2-7b')!.config).total;
    expect(result.perGpu.optimizer).toBe(8 * params);
  });
});

describe('--optimizer-in-backward (torchtune optimizer_in_bwd)', () => {
  const options = {
    model: 'llama-2-7b',
    seq: 512,
    precision: 'bf16',
    optimizer: 'adamw',
    optimizerImpl: 'foreach',
    recompute: 'none',
    attention: 'sdpa',
    gradAccum: 1,
  } as const;
  const model = getModelPreset('llama-2-7b')!.config;

  test('only the largest parameter’s gradient exists, and only in backward; foreach’s sqrt(v) is one parameter’s', () => {
    const result = estimateOrThrow({ ...options, optimizerInBackward: true });
    const largest = countParams(model).largestModule;
    const gradients = result.lines.find((l) => l.id === 'gradients')!;
    expect(Math.max(...gradients.live)).toBe(2 * largest);
    expect(gradients.live[result.timeline.findIndex((m) => m.moment === 'optimizer')]).toBe(0);
    const temporaries = result.lines.find((l) => l.id === 'optimizer-temporaries')!;
    expect(Math.max(...temporaries.live)).toBe(2 * largest);
  });

  test('the peak falls by about the gradients (2 bytes a parameter)', () => {
    const plain = estimateOrThrow(options).perGpu.total;
    const inBackward = estimateOrThrow({ ...options, optimizerInBackward: true }).perGpu.total;
    expect(plain - inBackward).toBeGreaterThan(1.5 * countParams(model).total);
  });

  test('with gradient accumulation it is refused on its field', () => {
    const result = resolveEstimateOptions({ ...options, optimizerInBackward: true, gradAccum: 4 });
    expect(result.ok ? [] : result.errors.map((e) => e.field)).toEqual(['optimizer-in-backward']);
  });
});
