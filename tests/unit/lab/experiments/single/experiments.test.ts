import { describe, expect, test } from 'vitest';
import type { Manifest } from '../../../../../src/graphs/manifest';
import { demoCatalog } from '../../../../../src/graphs/catalog';
import { generateModel } from '../../../../../src/graphs/factory';
import { SINGLE_EXPERIMENTS, findSingleModel, predictSideBytes } from '../../../../../src/lab/experiments/single/experiments';
import { DEFAULT_LAB_SETTINGS, LAB_LAYERS, LAB_WIDTHS } from '../../../../../src/lab/experiments/settings';
import { measuredSteps } from '../../../../../src/lab/experiments/warm-up';

const manifest = {
  version: 1,
  opset: 17,
  batchDim: 'batch',
  models: demoCatalog().flatMap((demo) => demo.variants.map((v) => generateModel(demo, v).entry)),
} as unknown as Manifest;

describe('SINGLE_EXPERIMENTS', () => {
  describe.each(Object.values(SINGLE_EXPERIMENTS))('$id', (experiment) => {
    test.each(LAB_WIDTHS.flatMap((h) => LAB_LAYERS.flatMap((l) => (['webgpu', 'wasm'] as const).map((b) => [h, l, b] as const))))(
      'has both sides for width %i, %i layers on %s',
      (hidden, layers, backend) => {
        const settings = { ...DEFAULT_LAB_SETTINGS, hidden, layers };
        const before = findSingleModel(manifest, experiment.before, settings, backend);
        const after = findSingleModel(manifest, experiment.after, settings, backend);
        // The two sides differ in the model they run or in how they run it (a leaky loop, streamed weights).
        const runsDiffer =
          experiment.before.loop?.retain !== experiment.after.loop?.retain ||
          experiment.before.weights !== experiment.after.weights;
        expect(before.id !== after.id || runsDiffer).toBe(true);
        expect(before.family).toBe(after.family);
      },
    );

    test('the engine predicts less memory after the technique than before (default sizes)', () => {
      const settings = { ...DEFAULT_LAB_SETTINGS, ...experiment.defaults };
      const predict = (side: typeof experiment.before) =>
        predictSideBytes(
          side,
          findSingleModel(manifest, side, settings, 'webgpu'),
          settings,
          experiment.steps ?? measuredSteps('webgpu'),
        );
      expect(predict(experiment.after)).toBeLessThan(predict(experiment.before));
    });
  });
});

describe('SINGLE_EXPERIMENTS.offload', () => {
  const { offload } = SINGLE_EXPERIMENTS;
  test.each(LAB_LAYERS)(
    'streams one layer at a time: both sides run %i layer graphs forward and back, plus the loss',
    (layers) => {
      const settings = { ...DEFAULT_LAB_SETTINGS, ...offload.defaults, layers };
      for (const side of [offload.before, offload.after]) {
        const model = findSingleModel(manifest, side, settings, 'webgpu');
        expect(model.graphs).toHaveLength(2 * layers + 1);
        expect(
          model.graphs.filter((g) => g.role === 'stage-forward').every((g) => g.layers && g.layers[1] - g.layers[0] === 1),
        ).toBe(true);
      }
    },
  );

  test('only the after side streams its weights and sends its gradients to the host', () => {
    expect([offload.before.weights ?? 'resident', offload.before.gradients]).toEqual(['resident', 'gpu']);
    expect([offload.after.weights, offload.after.gradients]).toEqual(['streamed', 'host']);
  });

  test('refuses to run without WebGPU, with a reason', () => {
    expect(offload.needsWebGpu).toMatch(/needs WebGPU/);
  });
});
