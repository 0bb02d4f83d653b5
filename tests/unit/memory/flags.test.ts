import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  ARCHS,
  ATTENTIONS,
  createFlagTable,
  createOptionReader,
  enumFlag,
  flagArgs,
  numberFlag,
  parseFlags,
  stringFlag,
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

describe('a flag table of its own: the same parser, readers and messages as the engine’s', () => {
  const table = createFlagTable([
    numberFlag({ key: 'count', flag: 'count', help: 'a count', max: 100 }),
    numberFlag({ key: 'share', flag: 'share', help: 'a share' }),
    enumFlag({ key: 'stage', flag: 'stage', default: '2', help: 'a stage' }, [1, 2, 3]),
    stringFlag({ key: 'tag', flag: 'tag', repeatable: true, help: 'a tag' }, 'TAG'),
  ]);

  test('parseFlags keeps what parses and names each value that does not', () => {
    expect(parseFlags({ count: '1k', stage: '3', tag: ['a', ' b '], share: 'x' }, table)).toEqual({
      options: { count: 1000, stage: 3, tag: ['a', 'b'] },
      errors: [
        {
          field: 'share',
          message: "expected a number, got 'x'",
          problem: { code: 'notANumber', params: { value: 'x', quoted: true } },
        },
      ],
    });
    expect(parseFlags({ count: ['1', '2'], tag: 'one' }, table)).toEqual({
      options: { tag: ['one'] },
      errors: [
        {
          field: 'count',
          message: 'give --count once',
          problem: { code: 'flagTwice', params: { flag: 'count' } },
        },
      ],
    });
  });

  test('the option readers check ranges against the table and fall back to its defaults', () => {
    const read = createOptionReader({ count: 101, share: 0.25, stage: undefined }, table);
    expect(read.count('count')).toBeUndefined();
    expect(read.amount('share')).toBe(0.25);
    expect(read.keyword('stage', [1, 2, 3])).toBe(2);
    expect(read.errors).toEqual([
      {
        field: 'count',
        message: 'count is too large (101 > 100)',
        problem: { code: 'tooLarge', params: { flag: 'count', value: 101, max: 100 } },
      },
    ]);
    const below = createOptionReader({ share: -1 }, table);
    expect(below.amount('share')).toBeUndefined();
    expect(below.errors).toEqual([
      {
        field: 'share',
        message: 'share must be above 0, got -1',
        problem: { code: 'notPositive', params: { flag: 'share', value: -1 } },
      },
    ]);
  });

  test('flagArgs writes flags as a terminal takes them, from a record or from a query with repeats', () => {
    expect(flagArgs({ model: 'gpt2', sp: 'true', dp: '2' })).toEqual(['--model', 'gpt2', '--sp', '--dp', '2']);
    expect(flagArgs(new URLSearchParams('price=a%3D1%2F1%2F1&price=b%3Dnone&no-rent=true'))).toEqual([
      '--price',
      'a=1/1/1',
      '--price',
      'b=none',
      '--no-rent',
    ]);
  });
});
