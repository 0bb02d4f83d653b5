import { describe, expect, test } from 'vitest';
import { DEFAULT_LAB_SETTINGS, SIZE_FIELDS, validateLabSettings } from '../../../../src/lab/experiments/settings';

describe('validateLabSettings(settings, fields, splits)', () => {
  test('the defaults are valid for every field and split', () => {
    expect(validateLabSettings(DEFAULT_LAB_SETTINGS)).toEqual([]);
    expect(
      validateLabSettings(DEFAULT_LAB_SETTINGS, [...SIZE_FIELDS, 'microBatches', 'devices'], ['microBatches', 'devices']),
    ).toEqual([]);
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
    const errors = validateLabSettings(
      { ...DEFAULT_LAB_SETTINGS, batch: 100, microBatches: 8 },
      [...SIZE_FIELDS, 'microBatches'],
      ['microBatches'],
    );
    expect(errors).toEqual([{ field: 'microBatches', message: 'A batch of 100 does not split into 8 equal micro-batches.' }]);
  });

  test('data parallelism needs a batch that splits evenly across the devices', () => {
    const errors = validateLabSettings(
      { ...DEFAULT_LAB_SETTINGS, batch: 102, devices: 4 },
      [...SIZE_FIELDS, 'devices'],
      ['devices'],
    );
    expect(errors).toEqual([{ field: 'devices', message: 'A batch of 102 does not split into 4 equal shards, one per device.' }]);
  });

  test('a device count outside the offered ones is rejected, not split', () => {
    const errors = validateLabSettings({ ...DEFAULT_LAB_SETTINGS, devices: 3 }, [...SIZE_FIELDS, 'devices'], ['devices']);
    expect(errors).toEqual([{ field: 'devices', message: 'Devices must be one of 2, 4.' }]);
  });

  test('fields an experiment does not show are not checked', () => {
    expect(validateLabSettings({ ...DEFAULT_LAB_SETTINGS, microBatches: 3, devices: 7 })).toEqual([]);
  });
});
