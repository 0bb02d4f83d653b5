/** QLoRA's base: its 4-bit format and what it keeps of the other parameters, derived by hand (lora.ts, weight-formats.ts). */
import { describe, expect, test } from 'vitest';
import { linearWeightBytes } from '../../../src/memory/weight-formats.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

const options = {
  model: 'llama-2-7b',
  finetune: 'qlora',
  loraRank: 16,
  loraTargets: 'all-linear',
  loraDtype: 'fp32',
  seq: 2048,
  microBatch: 1,
  precision: 'amp-bf16',
  optimizer: 'adamw',
  optimizerImpl: 'fused',
  recompute: 'full',
  attention: 'sdpa',
  qloraFormat: 'nf4-dq',
  qloraKept: 'fp32',
} as const;
const weights = (o: object) => Math.max(...estimateOrThrow({ ...options, ...o }).lines.find((l) => l.id === 'weights')!.live);

describe('--qlora-kept: embeddings, head and norms of Llama 2 7B (2·32000·4096 + 65·4096 parameters)', () => {
  const kept = 2 * 32_000 * 4096 + 65 * 4096;
  test('16-bit (TRL) instead of fp32 (prepare_model_for_kbit_training) saves 2 bytes per kept parameter', () => {
    expect(weights({ qloraKept: 'fp32' }) - weights({ qloraKept: '16-bit' })).toBe(2 * kept);
  });

  test('the residual stream follows: a checkpointed layer input is 4·sbh after the upcast, 2·sbh without', () => {
    const kept32 = estimateOrThrow(options).perGpu.activationsPerLayer;
    const kept16 = estimateOrThrow({ ...options, qloraKept: '16-bit' }).perGpu.activationsPerLayer;
    expect(kept32 - kept16).toBe(2 * 2048 * 4096);
  });
});

describe('--qlora-format', () => {
  test('NF4 without double quantization: an fp32 absmax per 64 weights instead of a uint8 one (+ per-256 fp32 scales)', () => {
    // Per layer: q, k, v, o (4096 × 4096), gate, up (4096 × 11008), down (11008 × 4096); 32 layers.
    const shapes: [number, number, number][] = [
      [4096, 4096, 4],
      [4096, 11_008, 3],
    ];
    const diff = shapes.reduce(
      (sum, [i, o, n]) => sum + n * 32 * (linearWeightBytes(i, o, 'nf4').bytes - linearWeightBytes(i, o, 'nf4-dq').bytes),
      0,
    );
    expect(weights({ qloraFormat: 'nf4' }) - weights({ qloraFormat: 'nf4-dq' })).toBe(diff);
  });

  test('FP4 packs like NF4: the same bytes', () => {
    expect(weights({ qloraFormat: 'fp4-dq' })).toBe(weights({ qloraFormat: 'nf4-dq' }));
  });
});
