import { describe, expect, test } from 'vitest';
import { demoCatalog } from '../../../../src/graphs/catalog';
import { generateModel } from '../../../../src/graphs/factory';
import { estimateMemory } from '../../../../src/memory/index';
import {
  labEstimateOptions,
  predictLabBytes,
  predictLeakyLoopBytes,
  predictStreamedBytes,
  STREAMED_UNITS_ON_GPU,
} from '../../../../src/lab/experiments/predict-lab-model';
import { estimateOrThrow } from '../../support/estimate-or-throw.ts';

const demo = demoCatalog().find((d) => d.family === 'mlp-h256-l8');
const entry = (match: (id: string) => boolean) => {
  const spec = demo?.variants.find((v) => match(generateModel(demo, v).entry.id));
  if (!demo || !spec) throw new Error('demo model missing');
  return generateModel(demo, spec).entry;
};
const plain = entry((id) => id.endsWith('train.keep.fp32'));
const accumulating = entry((id) => id.endsWith('train.acc.keep.fp32'));

describe('predictLabBytes(model, shape)', () => {
  test('is the engine’s peak for the same MLP, without the CUDA context and workspace', () => {
    const estimate = estimateOrThrow(labEstimateOptions(plain, { batch: 512, microBatches: 1 }));
    // The overhead lines are alive at every moment, so leaving them out leaves the peak's moment where it was.
    expect(predictLabBytes(plain, { batch: 512, microBatches: 1 })).toBe(estimate.perGpu.total - estimate.perGpu.overhead);
  });

  test('is the peak, not the sum of the lines: the forward’s activations and the gradients never coexist whole', () => {
    // Gradient accumulation's "before": one micro-batch of the whole batch.
    const shape = { batch: 128, microBatches: 1 };
    const estimate = estimateOrThrow(labEstimateOptions(accumulating, shape));
    const sumOfLines = estimate.lines
      .filter((l) => l.device === 'gpu' && l.category !== 'overhead')
      .reduce((sum, l) => sum + l.bytes, 0);
    expect(predictLabBytes(accumulating, shape)).toBeLessThan(sumOfLines);
  });

  test('counts the parameters the ONNX graph feeds (528,906 for width 256, 8 layers, 10 classes)', () => {
    expect(plain.parameterCount).toBe(528_906);
    const outcome = estimateMemory(labEstimateOptions(plain, { batch: 512, microBatches: 1 }));
    expect(outcome.ok && outcome.result.params).toBe(plain.parameterCount);
  });
});

describe('predictLeakyLoopBytes(model, shape, steps)', () => {
  test('adds one set of gradients for every step before the last', () => {
    const shape = { batch: 64, microBatches: 1 };
    const estimate = estimateOrThrow(labEstimateOptions(plain, shape));
    expect(predictLeakyLoopBytes(plain, shape, 10)).toBe(predictLabBytes(plain, shape) + 9 * estimate.perGpu.gradients);
    expect(predictLeakyLoopBytes(plain, shape, 1)).toBe(predictLabBytes(plain, shape));
  });
});

describe('predictStreamedBytes(model, shape)', () => {
  const shape = { batch: 64, microBatches: 1 };
  const layerBytes = 4 * (256 * 256 + 256);

  test('is the engine’s peak under parameter offload (ZeRO-3, weights and gradients on the host) plus the prefetched layer', () => {
    const estimate = estimateOrThrow({ ...labEstimateOptions(plain, shape), zero: 3, offload: 'optimizer+params' });
    // The engine keeps one gathered layer on the GPU; the lab's schedule holds two (running + prefetched).
    expect(estimate.lines.find((l) => l.id === 'weights-gathered')?.bytes).toBe(layerBytes);
    expect(STREAMED_UNITS_ON_GPU).toBe(2);
    expect(predictStreamedBytes(plain, shape)).toBe(estimate.perGpu.total - estimate.perGpu.overhead + layerBytes);
  });

  test('is two layers’ weights and the activations: no resident weights and no gradients', () => {
    // The peak is inside the layers' backward: nine b×h tensors (the batch and every ReLU's result) and two b×h
    // gradients. The loss's fp32 log-softmax and its two gradients (7,680 B here) are gone by then, and at the start of
    // backward, where they live, the two b×h gradients are not made yet (9 × 64 KiB + 7,680 B < 11 × 64 KiB).
    const activations = (9 + 2) * 64 * 256 * 4;
    expect(predictStreamedBytes(plain, shape)).toBe(2 * layerBytes + activations);
    expect(predictStreamedBytes(plain, shape, 1)).toBe(layerBytes + activations);
  });
});
