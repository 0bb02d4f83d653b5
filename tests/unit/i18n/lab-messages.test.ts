import { describe, expect, test } from 'vitest';
import { DEFAULT_LAB_SETTINGS, validateLabSettings } from '../../../src/lab/experiments/settings';
import { MESSAGES } from '../../../src/i18n/messages/index';
import type { RunStage } from '../../../src/lab/measure/run-stage';
import { HAN } from '../../support/chinese-text';

describe('the lab’s settings errors in Chinese', () => {
  test('every error the form can show is Chinese and names the numbers the reader must change', () => {
    const words = MESSAGES['zh-cn'].lab.controls.errors;
    const choices = validateLabSettings(
      { ...DEFAULT_LAB_SETTINGS, hidden: 100, layers: 5, microBatches: 3, devices: 3 },
      ['hidden', 'layers', 'microBatches', 'devices'],
      [],
      words,
    );
    const batch = validateLabSettings({ ...DEFAULT_LAB_SETTINGS, batch: 7 }, ['batch'], [], words);
    const splits = validateLabSettings(
      { ...DEFAULT_LAB_SETTINGS, batch: 102, microBatches: 8, devices: 4 },
      ['batch', 'microBatches', 'devices'],
      ['microBatches', 'devices'],
      words,
    );
    const errors = [...choices, ...batch, ...splits];
    expect(errors.map((e) => e.field)).toEqual([
      'hidden',
      'layers',
      'microBatches',
      'devices',
      'batch',
      'microBatches',
      'devices',
    ]);
    for (const { message } of errors) {
      expect(message).toMatch(HAN);
      expect(message).not.toMatch(/must|split/);
    }
    expect(choices[0]?.message).toContain('128、256、512');
    expect(batch[0]?.message).toContain('8 到 2048');
    expect(splits[0]?.message).toContain('102');
  });
});

/** One stage of every kind a worker reports (a record, so a new kind fails to compile here until it is added). */
const SAMPLE_STAGES: Record<RunStage['kind'], RunStage> = {
  'starting-runtime': { kind: 'starting-runtime' },
  'loading-model': { kind: 'loading-model', model: 'mlp-h128-l4' },
  'loading-layers': { kind: 'loading-layers', first: 0, last: 3 },
  'compiling-shaders': { kind: 'compiling-shaders', batch: 16 },
  'warm-up': { kind: 'warm-up', stage: { kind: 'step', step: 1, steps: 1 } },
  step: { kind: 'step', step: 3, steps: 7 },
  timing: { kind: 'timing', step: 2, steps: 5 },
  'forward-loading': { kind: 'forward-loading', job: 'teacher-fp32' },
  'forward-pass': { kind: 'forward-pass', job: 'teacher-int8', compiling: true },
  'test-accuracy': { kind: 'test-accuracy', job: 'student' },
  training: { kind: 'training', targets: 'soft', step: 41, steps: 200 },
};

describe('the lab’s progress line', () => {
  test('in English it reads as the workers wrote it before the stages became data', () => {
    const { frame } = MESSAGES.en.lab;
    expect(frame.progress(['keep activations', 'recompute'].join(frame.then), frame.stage(SAMPLE_STAGES.step))).toBe(
      'keep activations, then recompute: step 3 of 7…',
    );
    expect(frame.stage(SAMPLE_STAGES['warm-up'])).toBe('compiling shaders (step 1 of 1)');
    expect(frame.stage(SAMPLE_STAGES['forward-pass'])).toBe('Teacher (int8): forward pass (compiling shaders)');
    expect(frame.stage({ kind: 'training', targets: 'hard', step: 1, steps: 200 })).toBe(
      'Training the student on hard labels only: step 1 of 200',
    );
  });

  test('in Chinese every stage is Chinese, keeps its numbers and names, and has no English words left', () => {
    const { frame } = MESSAGES['zh-cn'].lab;
    for (const stage of Object.values(SAMPLE_STAGES)) {
      const text = frame.stage(stage);
      expect(text, stage.kind).toMatch(HAN);
      // What stays Latin: the runtime's and the model's names, number formats (fp32, int8).
      const english = text.replace(/onnxruntime-web|mlp-h128-l4|fp32|int8/g, '').match(/[A-Za-z]{2,}/g);
      expect(english, `${stage.kind}: ${text}`).toBeNull();
      for (const n of Object.entries(stage).flatMap(([k, v]) => (typeof v === 'number' && k !== 'kind' ? [v] : [])))
        expect(text, stage.kind).toContain(String(n));
    }
    expect(frame.stage(SAMPLE_STAGES['warm-up'])).toContain(frame.stage({ kind: 'step', step: 1, steps: 1 }));
  });

  test('the distillation sentence hands back the two student accuracies as given, so the island can set them in bold', () => {
    for (const locale of ['en', 'zh-cn'] as const) {
      const distilled = { bold: '91.0%' };
      const hardOnly = { bold: '84.5%' };
      const parts = MESSAGES[locale].lab.distillation.accuracies(distilled, 0.7, hardOnly, '3.2', '95.1%', '94.9%');
      expect(parts.filter((p) => typeof p !== 'string')).toEqual([distilled, hardOnly]);
      expect(parts.indexOf(distilled)).toBeLessThan(parts.indexOf(hardOnly));
      expect(parts.filter((p) => typeof p === 'string').join('')).toContain('95.1%');
    }
  });
});
