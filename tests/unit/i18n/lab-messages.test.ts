import { describe, expect, test } from 'vitest';
import { DEFAULT_LAB_SETTINGS, validateLabSettings } from '../../../src/lab/experiments/settings';
import { MESSAGES } from '../../../src/i18n/messages/index';

const HAN = /\p{Script=Han}/u;

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
