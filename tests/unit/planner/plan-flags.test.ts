import { describe, expect, test } from 'vitest';
import { ESTIMATE_FLAG_TABLE } from '../../../src/memory/index.ts';
import {
  EXAMPLE_PRICES,
  FIXED_ESTIMATE_FLAGS,
  parsePlanFlags,
  PLAN_FLAGS,
  PLANNER_FLAG_NAMES,
  plannerFlagNamed,
} from '../../../src/planner/index.ts';

const WORKED = { model: 'gpt2-xl', gpu: 'rtx-4090', 'global-batch': '4', seq: '512', task: 'finetune' };

describe('the planner’s flags: defined, parsed and read like the engine’s', () => {
  test('every flag the planner takes is an engine flag it takes as given or one of its own, each named once', () => {
    expect(new Set(PLANNER_FLAG_NAMES).size).toBe(PLANNER_FLAG_NAMES.length);
    for (const name of FIXED_ESTIMATE_FLAGS)
      expect(ESTIMATE_FLAG_TABLE.named(name) ?? ESTIMATE_FLAG_TABLE.alias(name), name).toBeDefined();
    for (const spec of PLAN_FLAGS) {
      expect(ESTIMATE_FLAG_TABLE.named(spec.flag), `${spec.flag} is the planner's own`).toBeUndefined();
      expect(plannerFlagNamed(spec.flag)).toBe(spec);
      if (spec.kind === 'enum' && spec.default !== undefined) expect(spec.values).toContain(spec.default);
    }
  });

  test('a request takes each flag’s default where it is not given', () => {
    const parsed = parsePlanFlags(WORKED, EXAMPLE_PRICES);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const byName = (name: string) => plannerFlagNamed(name)?.default;
    expect(String(parsed.request.gpus)).toBe(byName('gpus'));
    expect(parsed.request.rankBy).toBe(byName('rank-by'));
    expect(parsed.request.priceTier).toBe(byName('price-tier'));
    expect(parsed.request.task).toBe('finetune');
    // The reader's GPUs alone unless renting is asked for (issue #31 item 8).
    expect(parsed.request.rent).toBe(false);
    expect(parsed.request.maxHostBytes).toBeNull();
  });

  test('every field’s error is reported at once, in the engine’s words', () => {
    const parsed = parsePlanFlags(
      { ...WORKED, gpus: '0', 'global-batch': '2.5', 'max-host-gb': 'x', 'rank-by': 'speed', rent: 'maybe' },
      EXAMPLE_PRICES,
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'gpus', message: 'gpus must be at least 1, got 0' }),
        expect.objectContaining({ field: 'global-batch', message: 'global-batch must be a whole number, got 2.5' }),
        expect.objectContaining({ field: 'max-host-gb', message: "expected a number, got 'x'" }),
        expect.objectContaining({ field: 'rank-by', message: "invalid rank-by: 'speed' (expected time, step-cost, epoch-cost)" }),
        expect.objectContaining({ field: 'rent', message: "expected true or false, got 'maybe'" }),
      ]),
    );
  });

  test('a link’s flag given twice is named, except the repeatable price; the rental flag reads true and false', () => {
    const twice = parsePlanFlags({ ...WORKED, gpus: ['2', '4'] }, EXAMPLE_PRICES);
    expect(twice.ok ? [] : twice.errors).toEqual([
      {
        field: 'gpus',
        message: 'give --gpus once',
        problem: { code: 'flagTwice', params: { flag: 'gpus' } },
      },
    ]);
    const priced = parsePlanFlags({ ...WORKED, price: ['rtx-4090=0.4/0.3/0.2', 'h100-80gb=none'] }, EXAMPLE_PRICES);
    if (!priced.ok) throw new Error(JSON.stringify(priced.errors));
    expect(priced.request.prices['rtx-4090']).toEqual({ 'on-demand': 0.4, reserved: 0.3, spot: 0.2 });
    expect(priced.request.prices['h100-80gb']).toBeUndefined();
    for (const [given, rent] of [
      ['true', true],
      ['', true],
      ['false', false],
    ] as const) {
      const parsed = parsePlanFlags({ ...WORKED, rent: given }, EXAMPLE_PRICES);
      expect(parsed.ok && parsed.request.rent, `rent=${given}`).toBe(rent);
    }
  });

  test('an old link’s no-rent=true still means no renting; with rent beside it, both are named', () => {
    const old = parsePlanFlags({ ...WORKED, 'no-rent': 'true' }, EXAMPLE_PRICES);
    expect(old.ok && old.request.rent).toBe(false);
    const both = parsePlanFlags({ ...WORKED, rent: 'true', 'no-rent': 'true' }, EXAMPLE_PRICES);
    expect(both.ok ? [] : both.errors).toEqual([
      {
        field: 'no-rent',
        message: 'give either --rent or --no-rent, not both',
        problem: { code: 'flagAndAlias', params: { flag: 'rent', alias: 'no-rent' } },
      },
    ]);
  });

  test('no-rent is read, never written: the names the page’s query keeps leave it out', () => {
    expect(PLANNER_FLAG_NAMES).toContain('rent');
    expect(PLANNER_FLAG_NAMES).not.toContain('no-rent');
  });

  test('max-host-gb takes a fraction of a GB, as bytes', () => {
    const parsed = parsePlanFlags({ ...WORKED, 'max-host-gb': '0.5' }, EXAMPLE_PRICES);
    expect(parsed.ok && parsed.request.maxHostBytes).toBe(500_000_000);
  });
});
