import { describe, expect, test } from 'vitest';
import { buildManifest, type ManifestModel, type ManifestUtilities } from '../../../src/graphs/manifest.ts';

describe('buildManifest(models, utilities)', () => {
  const model = { id: 'm.a', family: 'm', bytes: 10 } as unknown as ManifestModel;
  const utilities = {} as unknown as ManifestUtilities;
  test('lists the entries as given, under schema version 1', () => {
    const manifest = buildManifest([model], utilities);
    expect(manifest.models).toEqual([model]);
    expect(manifest.version).toBe(1);
  });
  test('rejects duplicate ids', () =>
    expect(() => buildManifest([model, model], utilities)).toThrowError(/duplicate model id: m.a/));
});
