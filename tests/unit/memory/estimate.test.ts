import { describe, expect, test } from 'vitest';
import { SOURCE_CHOICES, type EstimateOptions, type EstimateResult } from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';
import { allReduceSeconds, allReduceShare } from '../../../src/memory/step-time/collectives.ts';

const bytesOf = (result: EstimateResult, id: string) => result.lines.find((l) => l.id === id)?.bytes;

describe('estimateMemory({ model: "demo-mlp" }) is exact for the site demo', () => {
  const fp32 = { model: 'demo-mlp', precision: 'fp32', optimizer: 'adamw', optimizerImpl: 'foreach', microBatch: 32 } as const;
  const tensor = 32 * 256 * 4;
  const logits = 32 * 10 * 4;

  test('no recompute keeps L + 1 b×h tensors (the batch and every ReLU’s result); at the start of backward the loss adds two fp32 gradients of the logits', () => {
    const result = estimateOrThrow(fp32);
    const activationsAt = (moment: string) => result.timeline.find((m) => m.moment === moment)?.byCategory.activations;
    expect(activationsAt('forward')).toBe(9 * tensor + 2 * logits);
    expect(activationsAt('backward-start')).toBe(9 * tensor + 3 * logits);
    expect(result.perGpu.activationsPerLayer).toBe(tensor);
    expect(result.perGpu.weights).toBe(528_906 * 4);
    expect(result.perGpu.gradients).toBe(528_906 * 4);
    // AdamW's m and v, plus foreach's sqrt(v) list during the step.
    expect(result.perGpu.optimizer).toBe(528_906 * 12);
  });

  test('backward holds two more b×h tensors in flight: the block output’s gradient and ReLU’s', () => {
    const result = estimateOrThrow(fp32);
    expect(bytesOf(result, 'activations-backward')).toBe(2 * tensor);
    // Through the last block every kept tensor is still there, the logits’ gradients are gone.
    expect(result.perGpu.activations).toBe((9 + 2) * tensor);
  });

  test('full recompute keeps ceil(L/k) checkpoints and the last output, k = round(√8) = 3, and rebuilds k tensors: the segment’s other inputs and its output', () => {
    const result = estimateOrThrow({ ...fp32, recompute: 'full' });
    expect(bytesOf(result, 'activations-layers')).toBe((3 + 1) * tensor);
    expect(bytesOf(result, 'activations-recompute')).toBe(3 * tensor);
  });

  test('checkpointEvery overrides k: k = 2 keeps 4 checkpoints and the output, and rebuilds 2 tensors', () => {
    const result = estimateOrThrow({ ...fp32, recompute: 'full', checkpointEvery: 2 });
    expect(bytesOf(result, 'activations-layers')).toBe((4 + 1) * tensor);
    expect(bytesOf(result, 'activations-recompute')).toBe(2 * tensor);
  });
});

describe('gradient checkpointing on the lab’s MLP (the gradient-checkpointing experiment)', () => {
  // The options src/lab/experiments/predict-lab-model.ts labEstimateOptions gives the experiment's two sides: width 128,
  // 8 blocks, 10 classes, fp32, plain SGD, the recompute side in segments of round(√8) = 3 blocks. All passed here.
  const lab = {
    arch: 'mlp',
    hidden: 128,
    layers: 8,
    vocab: 10,
    mode: 'train',
    precision: 'fp32',
    optimizer: 'sgd',
    optimizerImpl: 'for-loop',
    attention: 'sdpa',
    grads: 'free',
    gradAccum: 1,
  } as const;
  const peak = (microBatch: number, recompute: 'none' | 'full') =>
    estimateOrThrow({ ...lab, microBatch, recompute, ...(recompute === 'full' ? { checkpointEvery: 3 } : {}) }).perGpu.total;

  test('at batch 128 checkpointing’s peak is not above keeping every activation: both are the first block’s backward (PyTorch measures the same peak for both: tests/fixtures/pytorch/cpu-mlp-*)', () => {
    expect(peak(128, 'full')).toBeLessThanOrEqual(peak(128, 'none'));
  });

  test('at batch 512, where activations outweigh the gradients, checkpointing’s peak is below', () => {
    expect(peak(512, 'full')).toBeLessThan(peak(512, 'none'));
  });
});

describe('estimateMemory({ model: "demo-tiny-gpt" })', () => {
  test('fp32 activations follow the per-tensor Korthikanti accounting', () => {
    const sbh = 64 * 64;
    const perLayer = 66 * sbh + 9 * 4 * 64 * 64; // sbh(66 + 9as/h) with e = 4, a = 4, s = 64
    const result = estimateOrThrow({ model: 'demo-tiny-gpt', precision: 'fp32', kernels: 'fused', attention: 'eager' });
    expect(result.perGpu.activationsPerLayer).toBe(perLayer);
    const forward = result.timeline.find((m) => m.moment === 'forward')?.byCategory.activations;
    // Megatron's fused cross-entropy adds nothing beside the fp32 softmax in fp32 training.
    expect(forward).toBe(2 * perLayer + sbh + 2 * 4 * sbh + 4 * 64 * 256);
  });
});

describe('estimateMemory(options) composes the techniques', () => {
  test('gradient accumulation changes neither activations nor gradients, but a later micro-batch runs with the gradients alive', () => {
    const one = estimateOrThrow({ model: 'gpt2', microBatch: 4 });
    const eight = estimateOrThrow({ model: 'gpt2', microBatch: 4, gradAccum: 8 });
    expect(eight.perGpu.activations).toBe(one.perGpu.activations);
    expect(eight.perGpu.gradients).toBe(one.perGpu.gradients);
    expect(eight.perGpu.total).toBeGreaterThan(one.perGpu.total);
  });

  test('activations follow the micro-batch linearly (no recompute, no fixed parts but logits)', () => {
    const one = estimateOrThrow({ model: 'gpt2', microBatch: 1 });
    const four = estimateOrThrow({ model: 'gpt2', microBatch: 4 });
    expect(four.perGpu.activations).toBe(4 * one.perGpu.activations);
  });

  test('1F1B: the first stage holds p micro-batches of L/p layers = L layers (Korthikanti §4.2.3)', () => {
    const flat = estimateOrThrow({ model: 'llama-2-7b', attention: 'sdpa' });
    const piped = estimateOrThrow({ model: 'llama-2-7b', attention: 'sdpa', pp: 4, gradAccum: 8 });
    expect(bytesOf(piped, 'activations-layers')).toBe(bytesOf(flat, 'activations-layers'));
  });

  test('with fewer micro-batches than stages only m are in flight', () => {
    const piped = estimateOrThrow({ model: 'llama-2-7b', attention: 'sdpa', pp: 4, gradAccum: 2 });
    const flat = estimateOrThrow({ model: 'llama-2-7b', attention: 'sdpa' });
    expect(bytesOf(piped, 'activations-layers')).toBe((bytesOf(flat, 'activations-layers') ?? 0) / 2);
  });

  test('pipeline warns which stage it reports', () => {
    expect(estimateOrThrow({ model: 'llama-3-8b', pp: 2 }).warnings.join(' ')).toMatch(/pipeline parallel/);
  });

  test('tensor parallel splits the weight matrices but not the norms', () => {
    const result = estimateOrThrow({ model: 'llama-2-7b', tp: 2 });
    const h = 4096;
    const norms = 32 * 2 * h + h;
    expect(result.paramsPerGpu).toBe((6_738_415_616 - norms) / 2 + norms);
  });

  test('optimizer offload moves optimizer states and gradients to the host', () => {
    const result = estimateOrThrow({ model: 'llama-2-7b', precision: 'mixed-bf16', zero: 2, dp: 4, offload: 'optimizer' });
    expect(result.perGpu.optimizer).toBe(0);
    expect(result.perGpu.gradients).toBe(0);
    expect(result.perCpu.total).toBe(Math.ceil(6_738_415_616 / 4) * 16);
  });

  test('distillation adds a frozen teacher: 16-bit weights, no gradients', () => {
    const student = estimateOrThrow({ model: 'gpt2' });
    const both = estimateOrThrow({ model: 'gpt2', teacher: 'gpt2-xl' });
    expect(both.perGpu.weights - student.perGpu.weights).toBe(2 * 1_557_611_200);
    expect(both.perGpu.gradients).toBe(student.perGpu.gradients);
    expect(both.perGpu.activations).toBeGreaterThan(student.perGpu.activations);
  });

  test('--params alone: model states only, with a warning', () => {
    const result = estimateOrThrow({ params: 7e9 });
    expect(result.perGpu.activations).toBe(0);
    expect(result.warnings[0]).toMatch(/activations are 0/);
  });

  test('overheads are their own lines: CUDA context and cuBLAS workspace', () => {
    const result = estimateOrThrow({ model: 'gpt2', gpu: 'h100-80gb' });
    expect(bytesOf(result, 'cuda-context')).toBe(500 * 2 ** 20);
    expect(bytesOf(result, 'cublas-workspace')).toBe(32 * 2 ** 20);
  });
});

describe('estimateMemory(options).fits', () => {
  test('null without a GPU', () => {
    expect(estimateOrThrow({ model: 'gpt2' }).fits).toBeNull();
  });

  test('GPT-2 small fine-tuning fits an RTX 4090', () => {
    const result = estimateOrThrow({ model: 'gpt2', microBatch: 8, gpu: 'rtx-4090' });
    expect(result.fits).toBe(true);
    expect(result.headroom?.bytes).toBe(Math.floor(24564 * 2 ** 20 * 0.1));
  });

  test('full fine-tuning of Llama 2 7B does not fit one A100 80GB (16 bytes/param = 108 GB)', () => {
    const result = estimateOrThrow({ model: 'llama-2-7b', precision: 'mixed-bf16', gpu: 'a100-80gb' });
    expect(result.fits).toBe(false);
    expect(result.shortfall).toBeGreaterThan(0);
  });

  test('the headroom decides borderline cases', () => {
    const result = estimateOrThrow({ model: 'gpt2', gpu: 'rtx-4090', headroom: 0 });
    expect((result.spare ?? 0) + result.perGpu.total).toBe(24564 * 2 ** 20);
  });

  test('a step-time estimate is labelled as such and is finite', () => {
    const time = estimateOrThrow({ model: 'llama-2-7b', gpu: 'h100-80gb', recompute: 'full', dp: 8, zero: 3 }).stepTime;
    expect(time?.estimate).toBe(true);
    const compute = time?.lines.find((l) => l.id === 'compute')?.seconds ?? 0;
    const recompute = time?.lines.find((l) => l.id === 'recompute')?.seconds ?? 0;
    expect(recompute / compute).toBeCloseTo(1 / 3, 5); // full recompute ≈ one extra forward (Korthikanti §5)
  });

  test('fp32 matmuls run at the FP32 rate, 16× slower than BF16 on an A100 (NVIDIA A100 datasheet: FP32 19.5, BF16 312 TFLOPS dense)', () => {
    // The same compute efficiency (--mfu) for both, so the ratio is the peaks'.
    const compute = (options: EstimateOptions) =>
      estimateOrThrow({ model: 'llama-2-7b', gpu: 'a100-80gb', stack: 'pytorch', mfu: 40, ...options }).stepTime?.lines.find(
        (l) => l.id === 'compute',
      )?.seconds ?? 0;
    expect(compute({ precision: 'fp32' }) / compute({ precision: 'amp-bf16' })).toBeCloseTo(312 / 19.5, 10);
    expect(compute({ precision: 'mixed-bf16' })).toBe(compute({ precision: 'bf16' }));
    // A LoRA base kept in fp32 (--precision fp32) multiplies in fp32 too (#31: it was timed at the 16-bit rate).
    expect(compute({ precision: 'fp32', finetune: 'lora' }) / compute({ precision: 'amp-bf16', finetune: 'lora' })).toBeCloseTo(
      312 / 19.5,
      10,
    );
  });

  test('tensor parallelism all-reduces each layer’s b·s·h activations twice forward and twice backward (Megatron-LM §3, Fig. 4), ring 2(t−1)/t', () => {
    const traffic = (options: EstimateOptions) =>
      estimateOrThrow({
        model: 'llama-2-13b',
        gpu: 'a100-80gb',
        seq: 4096,
        precision: 'mixed-bf16',
        ...options,
      }).stepTime?.lines.find((l) => l.id === 'tensor-parallel')?.seconds;
    // Llama 2 13B: 40 layers of width 5,120; 4,096 tokens of 16-bit activations; t = 4 moves 1.5× each buffer over
    // NVLink 3's 300 GB/s per direction: 4 × 1.5 × 40 × 4,096 × 5,120 × 2 bytes = 10.1 GB, 33.6 ms.
    const collective = (1.5 * 40 * 4096 * 5120 * 2) / 300e9;
    expect(traffic({ tp: 4, recompute: 'none' })).toBeCloseTo(4 * collective, 12);
    expect(4 * collective).toBeCloseTo(33.6e-3, 4);
    // A fully recomputed forward all-reduces again; selective recompute redoes only attention's core, which does not.
    expect(traffic({ tp: 4, recompute: 'full' })).toBeCloseTo(6 * collective, 12);
    expect(traffic({ tp: 4, recompute: 'selective' })).toBeCloseTo(4 * collective, 12);
    // Sequence parallelism moves the same volume; each pipeline stage carries its own layers; fp32 moves 4-byte values.
    expect(traffic({ tp: 4, sp: true, recompute: 'none' })).toBeCloseTo(4 * collective, 12);
    expect(traffic({ tp: 4, pp: 2, gradAccum: 2, recompute: 'none' })).toBeCloseTo(4 * collective, 12);
    expect(traffic({ tp: 4, recompute: 'none', precision: 'fp32' })).toBeCloseTo(8 * collective, 12);
    // No tensor parallelism, no line.
    expect(traffic({ recompute: 'none' })).toBeUndefined();
  });

  test('a data-parallel group larger than a server of 8 GPUs all-reduces over the network, every card of a server at once: on H100s, 8 × 400 Gb/s against NVLink 4’s 450 GB/s', () => {
    // At 1 % compute efficiency the backward is long enough to hide all but one layer's share (1/32) of the all-reduce.
    const line = (options: EstimateOptions) =>
      estimateOrThrow({ model: 'llama-2-7b', gpu: 'h100-80gb', stack: 'pytorch', mfu: 1, ...options }).stepTime?.lines.find(
        (l) => l.id === 'data-parallel',
      );
    const seconds = (options: EstimateOptions) => line(options)?.seconds ?? 0;
    // Inside the server a ring all-reduce of 2(n−1)/n of the gradients G over 450 GB/s, one of 32 layers' share exposed.
    const gradients = (seconds({ dp: 8 }) * 32 * 450e9) / allReduceShare(8);
    // Across 2 servers, over the server's 8 cards (8 × 50 GB/s), in DDP's 25 MiB buckets, each by ring or tree.
    expect(seconds({ dp: 16 })).toBeCloseTo(allReduceSeconds(gradients, 25 * 2 ** 20, 16, 8, 400e9) / 32, 10);
    expect(line({ dp: 16 })?.label).toMatch(/400 Gb\/s InfiniBand per GPU/);
    expect(line({ dp: 8 })?.label).toMatch(/NVLink 4/);
    // Tensor-parallel ranks fill a server first: 4 × 2 stays inside one, 4 × 4 spans two.
    expect(line({ tp: 4, dp: 2 })?.label).toMatch(/NVLink 4/);
    expect(line({ tp: 4, dp: 4 })?.label).toMatch(/InfiniBand/);
    // A tensor-parallel group larger than a server crosses it too.
    const tensor = estimateOrThrow({ model: 'llama-2-7b', gpu: 'h100-80gb', tp: 16 }).stepTime?.lines.find(
      (l) => l.id === 'tensor-parallel',
    );
    expect(tensor?.label).toMatch(/InfiniBand/);
  });

  test('pipeline bubble is (p − 1)/m of the compute (Narayanan et al. 2021)', () => {
    const time = estimateOrThrow({ model: 'llama-2-7b', gpu: 'h100-80gb', pp: 4, gradAccum: 8 }).stepTime;
    const compute = time?.lines.find((l) => l.id === 'compute')?.seconds ?? 0;
    const bubble = time?.lines.find((l) => l.id === 'bubble')?.seconds ?? 0;
    expect(bubble / compute).toBeCloseTo(3 / 8, 10);
  });

  test("the optimizer step names torch.optim's implementation, and none for bitsandbytes' 8-bit AdamW (its own kernel)", () => {
    const label = (options: EstimateOptions) =>
      estimateOrThrow({ model: 'gpt2', gpu: 'a100-80gb', ...options }).stepTime?.lines.find((l) => l.id === 'optimizer')?.label;
    expect(label({ optimizer: 'adamw', optimizerImpl: 'fused' })).toBe('Optimizer step (adamw, fused), memory-bound');
    expect(label({ optimizer: 'adamw-8bit' })).toBe('Optimizer step (adamw-8bit), memory-bound');
  });
});

describe('every line is labelled and sourced', () => {
  test.each<[string, EstimateOptions]>([
    ['training', { model: 'llama-3-8b', recompute: 'selective', dp: 8, zero: 3, tp: 2, sp: true, gpu: 'h100-80gb' }],
    ['inference', { model: 'mistral-7b', mode: 'infer', weights: 'awq', gpu: 'l4' }],
    ['offload', { model: 'llama-2-13b', zero: 3, dp: 2, offload: 'optimizer+params' }],
    ['amp + distillation', { model: 'gpt2', precision: 'amp-fp16', teacher: 'gpt2-large' }],
  ])('%s', (_title, options) => {
    for (const l of estimateOrThrow(options).lines) {
      expect(l.label.length).toBeGreaterThan(0);
      expect(l.source.length).toBeGreaterThan(0);
      expect(Number.isSafeInteger(l.bytes) && l.bytes >= 0).toBe(true);
    }
  });

  test('SOURCE_CHOICES lists each choice once', () => {
    const ids = SOURCE_CHOICES.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
