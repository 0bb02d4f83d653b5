import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  ARCHS,
  ATTENTIONS,
  FLAG_ALIASES,
  FLAGS,
  formatEstimateFlags,
  GRADIENT_LIFETIMES,
  KERNELS,
  OPTIMIZER_IMPLS,
  FINETUNES,
  MODEL_PRESETS,
  OFFLOADS,
  OPTIMIZERS,
  parseEstimateFlags,
  parseNumberFlag,
  PRECISIONS,
  RECOMPUTES,
  WEIGHT_FORMATS,
  type EstimateOptions,
} from '../../../src/memory/index.ts';

describe('parseEstimateFlags(input)', () => {
  test('parses a URL query the same way as CLI flags', () => {
    const query = Object.fromEntries(new URLSearchParams('model=llama-2-7b&zero=3&dp=8&flash-attention'));
    expect(parseEstimateFlags(query)).toEqual({ ok: true, options: { model: 'llama-2-7b', zero: 3, dp: 8, attention: 'sdpa' } });
  });

  test('--flash-attention stays an alias of --attention sdpa, and cannot contradict it', () => {
    expect(parseEstimateFlags({ 'flash-attention': true })).toEqual({ ok: true, options: { attention: 'sdpa' } });
    const both = parseEstimateFlags({ 'flash-attention': true, attention: 'eager' });
    expect(both.ok).toBe(false);
    if (!both.ok) expect(both.errors[0]?.field).toBe('flash-attention');
  });

  test('parses the timeline and fine-tuning flags', () => {
    expect(
      parseEstimateFlags({
        grads: 'keep',
        'optimizer-impl': 'fused',
        kernels: 'fused',
        finetune: 'qlora',
        'lora-rank': '64',
        'lora-targets': 'q,v',
      }),
    ).toEqual({
      ok: true,
      options: { grads: 'keep', optimizerImpl: 'fused', kernels: 'fused', finetune: 'qlora', loraRank: 64, loraTargets: 'q,v' },
    });
  });

  test('parses CLI booleans and kebab-case names', () => {
    expect(parseEstimateFlags({ 'micro-batch': '4', 'kv-heads': '8', 'no-dropout': true, sp: true })).toEqual({
      ok: true,
      options: { microBatch: 4, kvHeads: 8, dropout: false, sp: true },
    });
  });

  test.each<[string, number | undefined]>([
    ['7.5b', 7_500_000_000],
    ['7.5e9', 7_500_000_000],
    ['1_000', 1000],
    ['70B', 70_000_000_000],
    ['4k', 4000],
    ['0.1k', 100],
    ['1.5', 1.5],
    ['-1', -1],
    ['abc', undefined],
    ['', undefined],
    ['1e', undefined],
    ['--', undefined],
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
    expect(parseEstimateFlags({ utm_source: 'x', model: 'gpt2' }, { ignoreUnknown: true })).toEqual({
      ok: true,
      options: { model: 'gpt2' },
    });
  });

  test('every flag in the table has a label and help text, and every name is unique', () => {
    for (const spec of FLAGS) {
      expect(spec.help.length).toBeGreaterThan(0);
      expect(spec.label.length).toBeGreaterThan(0);
    }
    const names = [...FLAGS.map((f) => f.flag), ...FLAG_ALIASES.map((a) => a.flag)];
    expect(new Set(names).size).toBe(names.length);
  });

  test("an enumeration's default in the table is one of its values", () => {
    for (const spec of FLAGS.filter((f) => f.kind === 'enum' && f.default !== undefined && !f.default.includes(' '))) {
      expect(spec.values).toContain(spec.default);
    }
  });
});

describe('formatEstimateFlags(options)', () => {
  test('formats to a shareable query', () => {
    expect(new URLSearchParams(formatEstimateFlags({ model: 'llama-2-7b', zero: 3, dp: 8 })).toString()).toBe(
      'model=llama-2-7b&dp=8&zero=3',
    );
  });

  const optionsArbitrary: fc.Arbitrary<EstimateOptions> = fc.record(
    {
      model: fc.constantFrom(...MODEL_PRESETS.map((p) => p.id)),
      arch: fc.constantFrom(...ARCHS),
      hidden: fc.integer({ min: 1, max: 1e6 }),
      kvHeads: fc.integer({ min: 1, max: 128 }),
      params: fc.integer({ min: 1, max: 1e13 }),
      precision: fc.constantFrom(...PRECISIONS),
      weights: fc.constantFrom(...WEIGHT_FORMATS),
      optimizer: fc.constantFrom(...OPTIMIZERS),
      microBatch: fc.integer({ min: -5, max: 1000 }),
      recompute: fc.constantFrom(...RECOMPUTES),
      attention: fc.constantFrom(...ATTENTIONS),
      kernels: fc.constantFrom(...KERNELS),
      grads: fc.constantFrom(...GRADIENT_LIFETIMES),
      optimizerImpl: fc.constantFrom(...OPTIMIZER_IMPLS),
      finetune: fc.constantFrom(...FINETUNES),
      loraRank: fc.integer({ min: 1, max: 512 }),
      dropout: fc.boolean(),
      zero: fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<0 | 1 | 2 | 3>,
      sp: fc.boolean(),
      offload: fc.constantFrom(...OFFLOADS),
      headroom: fc.double({ min: 0, max: 50, noNaN: true }),
    },
    { requiredKeys: [] },
  );

  test('round-trips: parseEstimateFlags(formatEstimateFlags(o)) = o', () => {
    fc.assert(
      fc.property(optionsArbitrary, (options) => {
        expect(parseEstimateFlags(formatEstimateFlags(options))).toEqual({ ok: true, options });
      }),
    );
  });
});
