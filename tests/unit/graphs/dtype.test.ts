/** The browser-side pure helpers: fp16 bits, seeded init and data, ranges, manifest. */
import { describe, expect, test } from 'vitest';
import { syntheticBatch } from '../../../src/graphs/data.ts';
import { fromHalfBits, toHalfBits } from '../../../src/graphs/dtype.ts';
import { initWeights } from '../../../src/graphs/init.ts';
import { buildManifest, type ManifestModel, type ManifestUtilities } from '../../../src/graphs/manifest.ts';
import type { ParamSpec } from '../../../src/graphs/params.ts';
import { defaultSegmentLength, segmentRanges, stageRanges } from '../../../src/graphs/segments.ts';

describe('toHalfBits / fromHalfBits', () => {
  test.each([
    [0, 0x0000],
    [1, 0x3c00],
    [-2, 0xc000],
    [65504, 0x7bff],
    [1e6, 0x7c00],
    [2 ** -24, 0x0001],
    [1 / 3, 0x3555],
  ])('toHalfBits(%d) = %i', (value, bits) => {
    expect(toHalfBits(value)).toBe(bits);
    if (bits !== 0x7c00) expect(fromHalfBits(bits)).toBeCloseTo(value, 3);
  });
});

describe('initWeights(params, seed)', () => {
  const params: ParamSpec[] = [
    { name: 'w0', shape: [64, 64], init: { kind: 'normal', std: 0.5 } },
    { name: 'b0', shape: [64], init: { kind: 'zeros' } },
    { name: 'g', shape: [4], init: { kind: 'ones' } },
  ];
  test('is deterministic, follows the init rule, and gives each parameter its own stream', () => {
    const a = initWeights(params, 42);
    expect(initWeights(params, 42)).toEqual(a);
    expect(initWeights(params, 43)['w0']).not.toEqual(a['w0']);
    expect(initWeights(params.slice(0, 1), 42)['w0']).toEqual(a['w0']);
    expect([...(a['b0'] ?? [])].every((v) => v === 0)).toBe(true);
    expect([...(a['g'] ?? [])].every((v) => v === 1)).toBe(true);
    const w = [...(a['w0'] ?? [])];
    const std = Math.sqrt(w.reduce((s, v) => s + v * v, 0) / w.length);
    expect(std).toBeGreaterThan(0.45);
    expect(std).toBeLessThan(0.55);
  });
});

describe('syntheticBatch(shape, batch, seed)', () => {
  test('mlp: x of batch×hidden and labels in range, deterministic', () => {
    const b = syntheticBatch({ arch: 'mlp', hidden: 8, classes: 3 }, 5, 1);
    expect(b.data).toHaveLength(40);
    expect([...b.labels].every((l) => l >= 0n && l < 3n)).toBe(true);
    expect(syntheticBatch({ arch: 'mlp', hidden: 8, classes: 3 }, 5, 1)).toEqual(b);
  });
  test('tiny-gpt: labels are the next tokens', () => {
    const b = syntheticBatch({ arch: 'tiny-gpt', seq: 6, vocab: 256 }, 2, 1);
    expect(b.labels.slice(0, 5)).toEqual((b.data as BigInt64Array).slice(1, 6));
  });
});

describe('layer ranges', () => {
  test.each([
    [1, 1],
    [4, 2],
    [8, 3],
    [16, 4],
  ])('defaultSegmentLength(%i) = %i', (layers, k) => expect(defaultSegmentLength(layers)).toBe(k));
  test('segmentRanges(8, 3) covers the layers with a shorter last segment', () =>
    expect(segmentRanges(8, 3)).toEqual([
      [0, 3],
      [3, 6],
      [6, 8],
    ]));
  test('stageRanges(7, 2) splits near-evenly', () =>
    expect(stageRanges(7, 2)).toEqual([
      [0, 4],
      [4, 7],
    ]));
  test('segmentRanges(8, 0) is rejected', () => expect(() => segmentRanges(8, 0)).toThrowError(/positive integer/));
});

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
