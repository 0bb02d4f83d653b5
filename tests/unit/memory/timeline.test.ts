import { describe, expect, test } from 'vitest';
import { GIB } from '../../../src/base/bytes.ts';
import { type EstimateOptions, type EstimateResult, type MomentId } from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

const at = (result: EstimateResult, moment: MomentId) => {
  const found = result.timeline.find((m) => m.moment === moment);
  if (found === undefined) throw new Error(`no moment ${moment}`);
  return found;
};
const lineAt = (result: EstimateResult, id: string, moment: MomentId) =>
  result.lines.find((l) => l.id === id)?.live[result.timeline.findIndex((m) => m.moment === moment)] ?? 0;

const llama = { model: 'llama-3-8b', seq: 2048, microBatch: 1, precision: 'amp-bf16' } as const;

describe('the step timeline: perGpu.total is the peak over moments, not the sum of parts', () => {
  test('the loop most readers run (one GPU, set_to_none, no accumulation) has no gradients during the forward pass', () => {
    const result = estimateOrThrow(llama);
    expect(at(result, 'forward').byCategory.gradients).toBe(0);
    expect(at(result, 'optimizer').byCategory.gradients).toBe(result.perGpu.gradients);
    expect(result.perGpu.total).toBeLessThan(result.perGpu.sumOfParts);
  });

  test('perGpu.total is the largest moment, and peakPhase names it', () => {
    const result = estimateOrThrow(llama);
    const largest = Math.max(...result.timeline.map((m) => m.bytes));
    expect(result.perGpu.total).toBe(largest);
    expect(result.timeline.find((m) => m.moment === result.peakMoment)?.bytes).toBe(largest);
    expect(result.timeline.find((m) => m.moment === result.peakMoment)?.phase).toBe(result.peakPhase);
  });

  test('every moment adds up to its categories, and no moment exceeds the sum of parts', () => {
    for (const options of [
      llama,
      { ...llama, gradAccum: 4 },
      { model: 'gpt2', mode: 'infer' } as const,
      { ...llama, dp: 8, zero: 3 } as const,
    ]) {
      const result = estimateOrThrow(options);
      for (const moment of result.timeline) {
        expect(Object.values(moment.byCategory).reduce((a, b) => a + b, 0)).toBe(moment.bytes);
        expect(moment.bytes).toBeLessThanOrEqual(result.perGpu.sumOfParts);
      }
    }
  });

  test('the sum is right where gradients live all step: set_to_none=False, DDP buckets, a later micro-batch', () => {
    const plain = estimateOrThrow(llama);
    const gradients = plain.perGpu.gradients;
    expect(at(estimateOrThrow({ ...llama, grads: 'keep' }), 'forward').byCategory.gradients).toBe(gradients);
    expect(at(estimateOrThrow({ ...llama, dp: 2 }), 'forward').byCategory.gradients).toBe(gradients);
    expect(at(estimateOrThrow({ ...llama, dp: 2, grads: 'free' }), 'forward').byCategory.gradients).toBe(gradients);
    const accumulating = estimateOrThrow({ ...llama, gradAccum: 2 });
    expect(at(accumulating, 'forward').byCategory.gradients).toBe(0);
    expect(at(accumulating, 'forward-accumulating').byCategory.gradients).toBe(gradients);
    // With gradients kept, the forward moment holds every state and every kept activation: the old sum, less transients.
    const kept = estimateOrThrow({ ...llama, grads: 'keep', optimizerImpl: 'fused' });
    const forward = at(kept, 'forward').byCategory;
    expect(forward.weights + forward.gradients + forward.optimizer).toBe(
      kept.perGpu.weights + kept.perGpu.gradients + kept.perGpu.optimizer,
    );
  });

  test('autocast copies of the matmul weights live from forward until backward, not at the optimizer step', () => {
    const result = estimateOrThrow(llama);
    // Every weight but the (untied) token embedding and the RMSNorm weights feeds a matmul.
    const copies = 2 * (result.params - 128_256 * 4096 - (2 * 32 + 1) * 4096);
    expect(lineAt(result, 'weights-autocast', 'forward')).toBe(copies);
    expect(lineAt(result, 'weights-autocast', 'optimizer')).toBe(0);
    expect(at(result, 'optimizer').byCategory.weights).toBe(result.params * 4);
  });

  test('activations are gone at the optimizer step', () => {
    expect(at(estimateOrThrow(llama), 'optimizer').byCategory.activations).toBe(0);
  });
});

describe('the optimizer step and its implementation (torch/optim/adamw.py)', () => {
  test('foreach holds one more v-sized list during the step; fused holds none; the for-loop two of the largest tensor', () => {
    const params = estimateOrThrow(llama).params;
    const temporaries = (impl: 'foreach' | 'fused' | 'for-loop') =>
      lineAt(estimateOrThrow({ ...llama, optimizerImpl: impl }), 'optimizer-temporaries', 'optimizer');
    expect(temporaries('foreach')).toBe(params * 4);
    expect(temporaries('fused')).toBe(0);
    // Llama 3 8B's largest tensor is its 128,256 × 4,096 embedding (and, untied, the head).
    expect(temporaries('for-loop')).toBe(2 * 128_256 * 4096 * 4);
  });

  test('with fused AdamW the peak of an fp32-master step is lower than with foreach', () => {
    expect(estimateOrThrow({ ...llama, optimizerImpl: 'fused' }).perGpu.total).toBeLessThan(
      estimateOrThrow({ ...llama, optimizerImpl: 'foreach' }).perGpu.total,
    );
  });

  test('the step time counts more passes for foreach than fused, and the CPU Adam under offload', () => {
    const seconds = (options: EstimateOptions) =>
      estimateOrThrow({ ...options, gpu: 'a100-80gb' }).stepTime?.lines.find((l) => l.id === 'optimizer')?.seconds ?? -1;
    expect(seconds({ ...llama, optimizerImpl: 'foreach' })).toBeGreaterThan(seconds({ ...llama, optimizerImpl: 'fused' }));
    const host = seconds({ ...llama, precision: 'mixed-bf16', zero: 2, dp: 1, offload: 'optimizer' });
    expect(host).toBeGreaterThan(seconds({ ...llama, precision: 'mixed-bf16', zero: 2, dp: 1 }));
  });
});

describe('full recompute in segments of k layers (torch/utils/checkpoint.py: a segment is rerun before its layers’ backward)', () => {
  // Every option the moments depend on is passed, so the defaults of the training stack do not move these figures.
  const stack = {
    model: 'llama-3-8b',
    seq: 2048,
    microBatch: 1,
    precision: 'amp-bf16',
    optimizer: 'adamw',
    optimizerImpl: 'fused',
    attention: 'sdpa',
    kernels: 'eager',
    grads: 'free',
  } as const;
  // Llama 3 8B's config.json: h 4,096, f 14,336, 8 K/V heads of 128; q, k, v, o, gate, up, down and two RMSNorm weights.
  const layerParams = 2 * 4096 * 4096 + 2 * 4096 * 8 * 128 + 3 * 4096 * 14336 + 2 * 4096;
  const gradientBytes = 4; // fp32 gradients of fp32 weights under autocast

  test('rebuilding the first of 4-layer segments, its 4 layers’ gradients are missing; in the first layer, only that layer’s', () => {
    const result = estimateOrThrow({ ...stack, recompute: 'full', checkpointEvery: 4 });
    const rebuilding = at(result, 'backward-first-segment').byCategory.gradients;
    const firstLayer = at(result, 'backward-end').byCategory.gradients;
    expect(firstLayer - rebuilding).toBe(3 * layerParams * gradientBytes);
  });

  test('the rebuilt segment is held whole at the last and the first segment, and only its first layer at the end', () => {
    const result = estimateOrThrow({ ...stack, recompute: 'full', checkpointEvery: 4 });
    const top = lineAt(result, 'activations-recompute', 'backward-top');
    expect(lineAt(result, 'activations-recompute', 'backward-first-segment')).toBe(top);
    const checkpoint = result.perGpu.activationsPerLayer;
    // Four layers rebuilt on their checkpoint, against one: three layers’ activations apart.
    const firstLayer = lineAt(result, 'activations-recompute', 'backward-end');
    expect((top + checkpoint) / (firstLayer + checkpoint)).toBe(4);
  });

  test('with one layer per segment, rebuilding the first segment is the end of backward: no moment of its own', () => {
    const moments = (options: EstimateOptions) => estimateOrThrow(options).timeline.map((m) => m.moment);
    expect(moments({ ...stack, recompute: 'full', checkpointEvery: 1 })).toEqual(moments({ ...stack, recompute: 'none' }));
    expect(moments({ ...stack, recompute: 'full', checkpointEvery: 2 })).toContain('backward-first-segment');
  });

  test('with accumulation the earlier micro-batches’ gradients are all there while the first segment is rebuilt', () => {
    const result = estimateOrThrow({ ...stack, recompute: 'full', checkpointEvery: 4, gradAccum: 2 });
    expect(at(result, 'backward-first-segment').byCategory.gradients).toBe(result.perGpu.gradients);
  });
});

describe('attention: SDPA by default, eager on request', () => {
  test('Llama 3 8B at 2,048 tokens: eager keeps 8 GiB of 16-bit scores that SDPA never stores (Megatron-style softmax, 2 B each)', () => {
    const fused = { ...llama, precision: 'mixed-bf16', kernels: 'fused' } as const;
    const eager = estimateOrThrow({ ...fused, attention: 'eager' });
    const sdpa = estimateOrThrow({ ...fused, attention: 'sdpa' });
    const scores = 32 * 32 * 2048 * 2048 * 2;
    const statistics = 32 * 32 * 2048 * 4;
    expect(scores).toBe(8 * GIB);
    expect(lineAt(eager, 'activations-layers', 'forward') - lineAt(sdpa, 'activations-layers', 'forward')).toBe(
      scores - statistics,
    );
  });

  test('Hugging Face eager attention keeps 6 bytes per score under autocast: the fp32 softmax and its 16-bit copy', () => {
    const eager = estimateOrThrow({ ...llama, attention: 'eager' });
    const sdpa = estimateOrThrow({ ...llama, attention: 'sdpa' });
    const perLayer = eager.perGpu.activationsPerLayer - sdpa.perGpu.activationsPerLayer;
    // Eager adds 6·a·s²·b, loses SDPA's output (2·sbh) and statistics (4·a·s·b), and keeps K and V at full width after repeat_kv.
    const kvWidth = (4096 / 32) * 8;
    expect(perLayer).toBe(6 * 32 * 2048 * 2048 - 2 * 2048 * 4096 - 4 * 32 * 2048 + 2 * 2 * 2048 * (4096 - kvWidth));
  });
});

describe('the loss: logits and their fp32 upcast, then two fp32 gradients', () => {
  test('Hugging Face loss under autocast: forward holds 2 + 4 bytes beside the kept 4-byte log-softmax, backward 8', () => {
    const result = estimateOrThrow(llama);
    const elements = 2048 * 128_256;
    expect(lineAt(result, 'activations-logits', 'forward')).toBe(4 * elements);
    expect(lineAt(result, 'activations-loss', 'forward')).toBe(6 * elements);
    expect(lineAt(result, 'activations-loss', 'backward-start')).toBe(8 * elements);
    expect(lineAt(result, 'activations-loss', 'optimizer')).toBe(0);
  });
});

describe('inference: prefill and decode', () => {
  test('the KV cache holds the prompt at prefill and every token by decode; the working set shrinks to one token', () => {
    const result = estimateOrThrow({ model: 'llama-2-7b', mode: 'infer', seq: 1024, tokens: 4096 });
    expect(result.timeline.map((m) => m.moment)).toEqual(['prefill', 'decode']);
    expect(lineAt(result, 'kv-cache', 'decode')).toBe(4 * lineAt(result, 'kv-cache', 'prefill'));
    expect(lineAt(result, 'activations-forward', 'decode')).toBeLessThan(lineAt(result, 'activations-forward', 'prefill'));
    expect(result.peakPhase).toBe('decode');
  });
});
