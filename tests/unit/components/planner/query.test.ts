import { describe, expect, test } from 'vitest';
import { flagsFromQuery, queryFromFlags } from '../../../../src/components/planner/query.ts';

describe('the planner page’s query', () => {
  test('the page’s query keeps only planner flags and round-trips repeated prices', () => {
    const flags = flagsFromQuery('model=gpt2-xl&gpu=rtx-4090&global-batch=4&price=h100-80gb=3/2/1&price=h200=4/3/2&zero=3&utm=x');
    expect(flags).toEqual({ model: 'gpt2-xl', gpu: 'rtx-4090', 'global-batch': '4', price: ['h100-80gb=3/2/1', 'h200=4/3/2'] });
    expect(flagsFromQuery(queryFromFlags(flags))).toEqual(flags);
  });
});
