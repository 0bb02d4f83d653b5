/**
 * Activation offloading (`--activation-offload streamed|checkpoints`): what stays on the GPU, what the host holds, and
 * the transfers in the step time. Every option the activations depend on is passed explicitly.
 */
import { describe, expect, test } from 'vitest';
import { estimateMemory, type EstimateOptions, type EstimateResult, type MemoryLine } from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

// Llama 2 7B (hidden 4096, 32 layers) in pure bf16: a checkpoint is one layer's input, s·b·h elements of 2 bytes.
const SEQ = 512;
const CHECKPOINT_BYTES = SEQ * 1 * 4096 * 2;
const LAYERS = 32;

const base: EstimateOptions = {
  model: 'llama-2-7b',
  precision: 'bf16',
  optimizer: 'adamw',
  optimizerImpl: 'fused',
  attention: 'sdpa',
  kernels: 'eager',
  loss: 'eager',
  microBatch: 1,
  seq: SEQ,
  gradAccum: 2,
  gpu: 'a100-80gb',
};

function lineOf(result: EstimateResult, id: string): MemoryLine {
  const found = result.lines.find((l) => l.id === id);
  if (found === undefined) throw new Error(`no ${id} line`);
  return found;
}

const peak = (l: MemoryLine) => Math.max(...l.live);

describe('checkpoints offloaded (Unsloth)', () => {
  const options: EstimateOptions = { ...base, recompute: 'full', checkpointEvery: 1, activationOffload: 'checkpoints' };

  test('the 32 checkpoints (512 × 4096 × 2 B each) go to the host; one is on the GPU at a time', () => {
    const result = estimateOrThrow(options);
    const host = lineOf(result, 'activations-offloaded');
    expect(host.device).toBe('cpu');
    expect(peak(host)).toBe(LAYERS * CHECKPOINT_BYTES);
    expect(peak(lineOf(result, 'activations-layers'))).toBe(CHECKPOINT_BYTES);
  });

  test('each micro-batch sends its checkpoints down and back over PCIe 4.0 x16 (32 GB/s one way)', () => {
    const kept = estimateOrThrow({ ...options, activationOffload: 'none' });
    const offloaded = estimateOrThrow(options);
    const seconds = (r: EstimateResult) => r.stepTime?.lines.find((l) => l.id === 'offload')?.seconds ?? NaN;
    // 2 directions × 2 micro-batches × 32 checkpoints.
    expect(seconds(offloaded) - seconds(kept)).toBeCloseTo((2 * 2 * LAYERS * CHECKPOINT_BYTES) / 32e9, 9);
  });

  test('needs full recompute: one line naming the field', () => {
    const outcome = estimateMemory({ ...base, recompute: 'none', activationOffload: 'checkpoints' });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.errors.map((e) => e.field)).toEqual(['activation-offload']);
    expect(outcome.errors[0]?.message).toMatch(/--recompute full/);
  });
});

describe('every saved activation streamed (torchtune)', () => {
  test('the layers’ saved activations move to the host, one layer’s stay in transit', () => {
    const kept = estimateOrThrow({ ...base, recompute: 'none', activationOffload: 'none' });
    const streamed = estimateOrThrow({ ...base, recompute: 'none', activationOffload: 'streamed' });
    expect(peak(lineOf(streamed, 'activations-offloaded'))).toBe(peak(lineOf(kept, 'activations-layers')));
    expect(peak(lineOf(streamed, 'activations-layers'))).toBe(kept.perGpu.activationsPerLayer);
    // The head's input and the loss stay on the GPU (torchtune's NoOpManager around model.output).
    expect(peak(lineOf(streamed, 'activations-logits'))).toBe(peak(lineOf(kept, 'activations-logits')));
    expect(streamed.perGpu.total).toBeLessThan(kept.perGpu.total);
  });

  test('a LoRA’s saved inputs go to the host too', () => {
    const lora: EstimateOptions = {
      ...base,
      finetune: 'lora',
      loraRank: 8,
      loraTargets: 'all-linear',
      loraDtype: 'bf16',
      loraDropout: 0,
      recompute: 'none',
    };
    const kept = estimateOrThrow({ ...lora, activationOffload: 'none' });
    const streamed = estimateOrThrow({ ...lora, activationOffload: 'streamed' });
    const keptLora = peak(lineOf(kept, 'activations-lora'));
    const streamedLora = peak(lineOf(streamed, 'activations-lora'));
    expect(streamedLora).toBe(Math.ceil(keptLora / LAYERS));
    expect(peak(lineOf(streamed, 'activations-offloaded'))).toBe(peak(lineOf(kept, 'activations-layers')) + keptLora);
  });
});

describe('the Unsloth stack offloads its checkpoints by default', () => {
  const unsloth: EstimateOptions = {
    ...base,
    stack: 'unsloth',
    finetune: 'lora',
    loraRank: 16,
    loraTargets: 'all-linear',
    loraDtype: 'bf16',
  };

  test('with its default gradient checkpointing', () => {
    const result = estimateOrThrow(unsloth);
    expect(result.resolved.activationOffload).toBe('checkpoints');
    expect(result.resolved.stackSettings.map((s) => s.flag)).toContain('activation-offload');
  });

  test('not when the reader turns checkpointing off', () => {
    const result = estimateOrThrow({ ...unsloth, recompute: 'none' });
    expect(result.resolved.activationOffload).toBe('none');
    expect(result.resolved.stackSettings.map((s) => s.flag)).not.toContain('activation-offload');
  });
});
