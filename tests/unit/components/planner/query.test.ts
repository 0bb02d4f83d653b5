import { describe, expect, test } from 'vitest';
import { flagsFromQuery, queryFromFlags } from '../../../../src/components/planner/query.ts';
import { EXAMPLE_PRICES, parsePlanFlags } from '../../../../src/planner/index.ts';

describe('the planner page’s query', () => {
  test('the page’s query keeps only planner flags and round-trips repeated prices', () => {
    const flags = flagsFromQuery('model=gpt2-xl&gpu=rtx-4090&global-batch=4&price=h100-80gb=3/2/1&price=h200=4/3/2&zero=3&utm=x');
    expect(flags).toEqual({ model: 'gpt2-xl', gpu: 'rtx-4090', 'global-batch': '4', price: ['h100-80gb=3/2/1', 'h200=4/3/2'] });
    expect(flagsFromQuery(queryFromFlags(flags))).toEqual(flags);
  });

  test('an old link’s no-rent=true opens without renting and is not written back; rent=true is kept', () => {
    const old = flagsFromQuery('model=gpt2-xl&gpu=rtx-4090&global-batch=4&no-rent=true');
    const parsed = parsePlanFlags(old, EXAMPLE_PRICES);
    expect(parsed.ok && parsed.request.rent).toBe(false);
    expect(queryFromFlags(old)).not.toMatch(/rent/);
    const renting = flagsFromQuery('model=gpt2-xl&gpu=rtx-4090&global-batch=4&rent=true');
    expect(queryFromFlags(renting)).toMatch(/(^|&)rent=true(&|$)/);
  });
});
