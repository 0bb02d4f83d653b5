import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { formatBytes } from '../../../../src/base/bytes';
import { labPredictionFigure } from '../../../../src/components/estimate/lab-figure';
import type { Manifest } from '../../../../src/graphs/browser-safe';
import { findSingleModel, predictSideBytes, SINGLE_EXPERIMENTS } from '../../../../src/lab/experiments/single/experiments';
import { DEFAULT_LAB_SETTINGS } from '../../../../src/lab/experiments/settings';
import { measuredSteps } from '../../../../src/lab/experiments/warm-up';

const manifest = JSON.parse(readFileSync('public/models/manifest.json', 'utf8')) as Manifest;

describe('labPredictionFigure(experiment, side): what the page predicts on WebGPU at its defaults', () => {
  test.each(['gradient-accumulation', 'gradient-checkpointing', 'mixed-precision'] as const)(
    '%s: both sides are the run path’s own prediction (run.ts predictSideBytes)',
    (id) => {
      const experiment = SINGLE_EXPERIMENTS[id];
      for (const side of ['before', 'after'] as const) {
        const model = findSingleModel(manifest, experiment[side], DEFAULT_LAB_SETTINGS, 'webgpu');
        const bytes = predictSideBytes(
          experiment[side],
          model,
          DEFAULT_LAB_SETTINGS,
          experiment.steps ?? measuredSteps('webgpu'),
        );
        expect(labPredictionFigure(id, side)).toBe(formatBytes(bytes, 'MiB', 2));
      }
    },
  );

  test('another depth takes that depth’s model: checkpointing saves more at 16 layers than at 8', () => {
    const saving = (layers: number) =>
      Number.parseFloat(labPredictionFigure('gradient-checkpointing', 'before', layers)) -
      Number.parseFloat(labPredictionFigure('gradient-checkpointing', 'after', layers));
    expect(saving(16)).toBeGreaterThan(saving(8));
  });
});
