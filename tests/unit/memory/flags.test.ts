import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  ARCHS, FLAG_SPECS, formatEstimateFlags, MODEL_PRESETS, OFFLOADS, OPTIMIZERS, parseEstimateFlags, parseNumberFlag, PRECISIONS,
  RECOMPUTES, WEIGHT_DTYPES, type EstimateOptions,
} from '../../../src/memory/index.ts';

describe('parseEstimateFlags(input)', () => {
  test('parses a URL query the same way as CLI flags', () => {
    const query = Object.fromEntries(new URLSearchParams('model=llama-2-7b&zero=3&dp=8&flash-attention'));
    expect(parseEstimateFlags(query)).toEqual({ ok: true, options: { model: 'llama-2-7b', zero: 3, dp: 8, flashAttention: true } });
  });

  test('parses CLI booleans and kebab-case names', () => {
    expect(parseEstimateFlags({ 'micro-batch': '4', 'kv-heads': '8', 'no-dropout': true, sp: true })).toEqual({
      ok: true, options: { microBatch: 4, kvHeads: 8, dropout: false, sp: true },
    });
  });

  test.each<[string, number | undefined]>([
    ['7.5b', 7_500_000_000], ['7.5e9', 7_500_000_000], ['1_000', 1000], ['70B', 70_000_000_000], ['4k', 4000],
    ['0.1k', 100], ['1.5', 1.5], ['-1', -1], ['abc', undefined], ['', undefined], ['1e', undefined], ['--', undefined],
  ])('parseNumberFlag(%j) = %j', (text, value) => {
    expect(parseNumberFlag(text)).toBe(value);
  });

  test.each<[string, Record<string, string | boolean>, string]>([
    ['unknown flag', { foo: '1' }, 'foo'],
    ['not a number', { dp: 'eight' }, 'dp'],
    ['bad enumeration', { precision: 'fp8' }, 'precision'],
    ['bad ZeRO stage', { zero: '4' }, 'zero'],
    ['bad boolean', { sp: 'maybe' }, 'sp'],
    ['missing value', { model: '' }, 'model'],
    ['both dropout flags', { dropout: true, 'no-dropout': true }, 'no-dropout'],
  ])('%s → error on field %s', (_title, input, field) => {
    const result = parseEstimateFlags(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.map((e) => e.field)).toContain(field);
  });

  test('ignoreUnknown skips foreign query parameters', () => {
    expect(parseEstimateFlags({ utm_source: 'x', model: 'gpt2' }, { ignoreUnknown: true })).toEqual({ ok: true, options: { model: 'gpt2' } });
  });

  test('every flag in FLAG_SPECS has help text', () => {
    for (const spec of FLAG_SPECS) expect(spec.help.length).toBeGreaterThan(0);
  });
});

describe('formatEstimateFlags(options)', () => {
  test('formats to a shareable query', () => {
    expect(new URLSearchParams(formatEstimateFlags({ model: 'llama-2-7b', zero: 3, dp: 8 })).toString()).toBe('model=llama-2-7b&dp=8&zero=3');
  });

  const optionsArbitrary: fc.Arbitrary<EstimateOptions> = fc.record(
    {
      model: fc.constantFrom(...MODEL_PRESETS.map((p) => p.id)),
      arch: fc.constantFrom(...ARCHS),
      hidden: fc.integer({ min: 1, max: 1e6 }),
      kvHeads: fc.integer({ min: 1, max: 128 }),
      params: fc.integer({ min: 1, max: 1e13 }),
      precision: fc.constantFrom(...PRECISIONS),
      weights: fc.constantFrom(...WEIGHT_DTYPES),
      optimizer: fc.constantFrom(...OPTIMIZERS),
      microBatch: fc.integer({ min: -5, max: 1000 }),
      recompute: fc.constantFrom(...RECOMPUTES),
      flashAttention: fc.boolean(),
      dropout: fc.boolean(),
      zero: fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<0 | 1 | 2 | 3>,
      sp: fc.boolean(),
      offload: fc.constantFrom(...OFFLOADS),
      headroom: fc.double({ min: 0, max: 50, noNaN: true }),
    },
    { requiredKeys: [] },
  );

  test('round-trips: parseEstimateFlags(formatEstimateFlags(o)) = o', () => {
    fc.assert(fc.property(optionsArbitrary, (options) => {
      expect(parseEstimateFlags(formatEstimateFlags(options))).toEqual({ ok: true, options });
    }));
  });
});
