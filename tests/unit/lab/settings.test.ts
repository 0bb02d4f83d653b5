import { describe, expect, test } from 'vitest';
import { DEFAULT_LAB_SETTINGS, validateLabSettings } from '../../../src/lab/settings';

describe('validateLabSettings(settings)', () => {
  test('the defaults are valid, with and without accumulation', () => {
    expect(validateLabSettings(DEFAULT_LAB_SETTINGS)).toEqual([]);
    expect(validateLabSettings(DEFAULT_LAB_SETTINGS, { accumulate: true })).toEqual([]);
  });

  test.each([
    [{ hidden: 100 }, 'hidden'],
    [{ layers: 5 }, 'layers'],
    [{ batch: 0 }, 'batch'],
    [{ batch: 12.5 }, 'batch'],
    [{ batch: Number.NaN }, 'batch'],
    [{ batch: 1_000_000 }, 'batch'],
  ] as const)('%o is rejected on field %s', (change, field) => {
    const errors = validateLabSettings({ ...DEFAULT_LAB_SETTINGS, ...change });
    expect(errors.map((e) => e.field)).toEqual([field]);
    expect(errors[0]?.message).toMatch(/must/);
  });

  test('accumulation needs a batch that splits evenly into the micro-batches', () => {
    const errors = validateLabSettings({ ...DEFAULT_LAB_SETTINGS, batch: 100, microBatches: 8 }, { accumulate: true });
    expect(errors).toEqual([{ field: 'microBatches', message: 'A batch of 100 does not split into 8 equal micro-batches.' }]);
  });

  test('micro-batches are only checked for accumulation experiments', () => {
    expect(validateLabSettings({ ...DEFAULT_LAB_SETTINGS, microBatches: 3 })).toEqual([]);
  });
});
