import { describe, expect, test } from 'vitest';
import { draftError, draftsFromLink, initialDrafts, priceFlags } from '../../../../src/components/planner/price-drafts';
import { EXAMPLE_PRICES } from '../../../../src/planner/index';
import { planRequest } from '../../support/plan-request.ts';

const WORKED = { model: 'gpt2-xl', gpu: 'rtx-4090', 'global-batch': '4', seq: '512' };

/** The prices a request is ranked by, from the page's rows. */
function requestPrices(drafts: ReturnType<typeof initialDrafts>) {
  return planRequest({ ...WORKED, price: priceFlags(drafts) }).prices;
}

describe('price rows', () => {
  test('the example prices give no flags, and the reader’s GPU gets an empty row', () => {
    const drafts = initialDrafts('rtx-4090');
    expect(drafts['rtx-4090']).toEqual({ 'on-demand': '', reserved: '', spot: '' });
    expect(priceFlags(drafts)).toEqual([]);
    expect(requestPrices(drafts)).toEqual(EXAMPLE_PRICES);
  });

  test('an example GPU’s row emptied withdraws its price: that GPU is not offered for rent, as the table says', () => {
    const drafts = { ...initialDrafts('rtx-4090'), 'h100-80gb': { 'on-demand': '', reserved: '', spot: '' } };
    expect(priceFlags(drafts)).toEqual(['h100-80gb=none']);
    expect(requestPrices(drafts)['h100-80gb']).toBeUndefined();
    expect(requestPrices(drafts)['h200']).toEqual(EXAMPLE_PRICES['h200']);
  });

  test('a link’s prices come back as the rows that wrote them (a shared plan keeps its prices)', () => {
    const edited = {
      ...initialDrafts('rtx-4090'),
      'rtx-4090': { 'on-demand': '0.4', reserved: '0.3', spot: '0.2' },
      'h100-80gb': { 'on-demand': '', reserved: '', spot: '' },
      h200: { 'on-demand': '5', reserved: '3.5', spot: '2.5' },
    };
    const { drafts, unread } = draftsFromLink('rtx-4090', priceFlags(edited));
    expect(unread).toEqual([]);
    expect(drafts).toEqual(edited);
    expect(priceFlags(drafts)).toEqual(priceFlags(edited));
  });

  test('a link’s bad number is kept in its row, where its error shows; a price with no row is reported, not used', () => {
    const { drafts, unread } = draftsFromLink('rtx-4090', ['h100-80gb=3/x/1', 'h900=3/2/1', 'h200=4/3', 'nonsense']);
    expect(drafts['h100-80gb']).toEqual({ 'on-demand': '3', reserved: 'x', spot: '1' });
    expect(draftError('h100-80gb', drafts['h100-80gb'] ?? { 'on-demand': '', reserved: '', spot: '' })).toMatch(
      /prices must be numbers/,
    );
    expect(drafts['h200']).toEqual(initialDrafts('rtx-4090')['h200']);
    expect(unread).toHaveLength(3);
    expect(unread[0]).toMatch(/unknown gpu 'h900'/);
    expect(unread[1]).toMatch(/expected GPU=ON-DEMAND\/RESERVED\/SPOT or GPU=none/);
    expect(unread[2]).toMatch(/'nonsense'/);
  });

  test('a row with some prices but not all asks for all three or none, without quoting text the reader did not type', () => {
    const error = draftError('h100-80gb', { 'on-demand': '3', reserved: '', spot: '' });
    expect(error).toMatch(/all three prices, or none/);
    expect(error).not.toMatch(/x/);
    expect(draftError('h100-80gb', { 'on-demand': '', reserved: '', spot: '' })).toBeNull();
    expect(draftError('h100-80gb', { 'on-demand': '3', reserved: '2', spot: '1' })).toBeNull();
  });
});
