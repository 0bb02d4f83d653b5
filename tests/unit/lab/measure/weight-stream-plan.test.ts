import { describe, expect, test } from 'vitest';
import { demoCatalog } from '../../../../src/graphs/catalog';
import { generateModel } from '../../../../src/graphs/factory';
import { planWeightStream, streamedBytesPerStep, streamedWindowBytes } from '../../../../src/lab/measure/weight-stream-plan';

const isWeight = (name: string) => /^(w|b)\d+$|^head\./.test(name);
const run = (...inputs: string[]) => ({ inputs });

describe('planWeightStream(runs, isWeight)', () => {
  // A 2-layer layer-wise step: forward 0, forward 1, loss (head), backward 1, backward 0.
  const step = [
    run('x', 'w0', 'b0'),
    run('act1', 'w1', 'b1'),
    run('act2', 'head.w', 'head.b', 'labels'),
    run('act1', 'grad.act2', 'w1', 'b1'),
    run('x', 'grad.act1', 'w0', 'b0'),
  ];

  test('uploads the first run’s weights before it and prefetches every later run’s during the one before', () => {
    const plan = planWeightStream(step, isWeight);
    expect(plan.map((s) => [s.upload, s.prefetch])).toEqual([
      [
        ['w0', 'b0'],
        ['w1', 'b1'],
      ],
      [[], ['head.w', 'head.b']],
      [[], ['w1', 'b1']],
      [[], ['w0', 'b0']],
      [[], []],
    ]);
  });

  test('frees each run’s weights right after it, so forward weights are fetched again for the backward', () => {
    const plan = planWeightStream(step, isWeight);
    expect(plan.map((s) => s.release)).toEqual([
      ['w0', 'b0'],
      ['w1', 'b1'],
      ['head.w', 'head.b'],
      ['w1', 'b1'],
      ['w0', 'b0'],
    ]);
  });

  test('keeps a weight the next run also reads instead of uploading it twice', () => {
    const plan = planWeightStream([run('w0'), run('w0', 'w1'), run('w1')], isWeight);
    expect(plan.map((s) => [s.prefetch, s.release])).toEqual([
      [['w1'], []],
      [[], ['w0']],
      [[], ['w1']],
    ]);
  });

  test('ignores inputs that are not weights (data, activations, incoming gradients)', () => {
    expect(planWeightStream([run('x', 'act1', 'grad.act2', 'labels')], isWeight)).toEqual([
      { weights: [], upload: [], prefetch: [], release: [] },
    ]);
  });
});

describe('the plan for a real layer-wise model (mlp-h512-l8.layerwise.keep.fp32)', () => {
  const demo = demoCatalog().find((d) => d.family === 'mlp-h512-l8');
  const spec = demo?.variants.find((v) => v.key === 'layerwise.keep.fp32');
  if (!demo || !spec) throw new Error('layer-wise model missing from the catalog');
  const model = generateModel(demo, spec).entry;
  const names = new Set(model.parameters.map((p) => p.name));
  const bytesOf = (name: string) => 4 * (model.parameters.find((p) => p.name === name)?.shape.reduce((a, b) => a * b, 1) ?? 0);
  const plan = planWeightStream(
    model.graphs.map((g) => ({ inputs: g.inputs.map((i) => i.name) })),
    (name) => names.has(name),
  );
  const layerBytes = 4 * (512 * 512 + 512);
  const headBytes = 4 * (512 * 10 + 10);

  test('every parameter reaches the GPU before a graph reads it', () => {
    const live = new Set<string>();
    for (const s of plan) {
      for (const name of s.upload) live.add(name);
      for (const name of s.weights) expect(live.has(name), name).toBe(true);
      for (const name of s.prefetch) live.add(name);
      for (const name of s.release) live.delete(name);
    }
    expect(live.size).toBe(0);
  });

  test('uploads exactly what each graph reads: every layer for the forward, the head once, and for the backward only the matrices dx needs', () => {
    // The backward of layer l reads w<l> (dx = dy·wᵀ) but not its bias; layer 0's needs no dx, so no weight.
    expect(plan.at(-1)?.weights).toEqual([]);
    expect(streamedBytesPerStep(plan, bytesOf)).toBe(8 * layerBytes + headBytes + 7 * 4 * 512 * 512);
  });

  test('holds at most two layers’ weights at once: the prediction’s STREAMED_UNITS_ON_GPU', () => {
    expect(streamedWindowBytes(plan, bytesOf)).toBe(2 * layerBytes);
  });
});
