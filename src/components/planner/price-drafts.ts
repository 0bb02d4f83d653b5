/**
 * The price table's rows as the reader types them, and the `price` flags they stand for: drafts are text, kept as
 * typed (an error shows next to its row), and only rows that differ from the example prices become flags.
 */
import { getGpuPreset } from '../../memory/index';
import { EXAMPLE_PRICES, parsePrice, PRICE_TIERS, type PriceTier } from '../../planner/index';
import { PLANNER_EN } from '../../i18n/messages/planner/en';

/** The words of the price rows' problems, in the page's language. */
/** The price table's words, and the search's, whose request words say what is wrong with a price. */
type PriceWords = Pick<typeof PLANNER_EN, 'prices' | 'search'>;

/** Editable text of one GPU's three prices. */
export type PriceDraft = Readonly<Record<PriceTier, string>>;

const EMPTY: PriceDraft = { 'on-demand': '', reserved: '', spot: '' };

/** The example prices as drafts, plus an empty row for the reader's GPU. */
export function initialDrafts(ownGpu: string): Record<string, PriceDraft> {
  const drafts: Record<string, PriceDraft> = {};
  for (const [gpu, prices] of Object.entries(EXAMPLE_PRICES)) {
    drafts[gpu] = { 'on-demand': String(prices['on-demand']), reserved: String(prices.reserved), spot: String(prices.spot) };
  }
  if (drafts[ownGpu] === undefined) drafts[ownGpu] = EMPTY;
  return drafts;
}

/**
 * The rows a link opens with: initialDrafts with the link's `price` flags over them, so that a shared plan keeps the
 * prices it was ranked by. A value for a GPU preset becomes its row as written (a bad number then shows its error
 * next to the row, where the reader can mend it); one that names no GPU preset, or is no `GPU=…/…/…` or `GPU=none`,
 * has no row to go to and comes back in `unread`, with why.
 */
export function draftsFromLink(
  ownGpu: string,
  prices: readonly string[],
  words: PriceWords = PLANNER_EN,
): { drafts: Record<string, PriceDraft>; unread: string[] } {
  const drafts = initialDrafts(ownGpu);
  const unread: string[] = [];
  for (const text of prices) {
    const match = /^\s*([a-z0-9-]+)\s*=\s*(.*?)\s*$/i.exec(text);
    const gpu = match?.[1] ?? '';
    const parts = (match?.[2] ?? '').split('/');
    if (match === null || getGpuPreset(gpu) === undefined) {
      unread.push(match === null ? formatProblem(text, words) : words.prices.unknownGpu(gpu, text));
    } else if (parts.length === 1 && parts[0]?.toLowerCase() === 'none') {
      drafts[gpu] = EMPTY;
    } else if (parts.length === PRICE_TIERS.length) {
      drafts[gpu] = { 'on-demand': parts[0] ?? '', reserved: parts[1] ?? '', spot: parts[2] ?? '' };
    } else {
      unread.push(formatProblem(text, words));
    }
  }
  return { drafts, unread };
}

/** What parsePrice says of a malformed `price` value. */
function formatProblem(text: string, words: PriceWords): string {
  const parsed = parsePrice(text, words.search.request);
  return typeof parsed === 'string' ? parsed : words.prices.unreadable(text);
}

/**
 * Drafts that differ from the example prices, as `price` flag values (`gpu=od/res/spot`). An example GPU's row left
 * empty is `gpu=none`: that GPU is not offered for rent, as the table says, rather than keeping its example price.
 */
export function priceFlags(drafts: Readonly<Record<string, PriceDraft>>): string[] {
  return Object.entries(drafts).flatMap(([gpu, d]) => {
    const example = EXAMPLE_PRICES[gpu];
    if (PRICE_TIERS.every((t) => d[t].trim() === '')) return example === undefined ? [] : [`${gpu}=none`];
    if (example !== undefined && PRICE_TIERS.every((t) => Number(d[t]) === example[t] && d[t].trim() !== '')) return [];
    return [`${gpu}=${PRICE_TIERS.map((t) => d[t].trim()).join('/')}`];
  });
}

/** Error of one draft row, or null: all three prices, or none. */
export function draftError(gpu: string, draft: PriceDraft, words: PriceWords = PLANNER_EN): string | null {
  const blank = PRICE_TIERS.filter((t) => draft[t].trim() === '').length;
  if (blank === PRICE_TIERS.length) return null;
  if (blank > 0) return words.prices.partRow;
  const parsed = parsePrice(`${gpu}=${PRICE_TIERS.map((t) => draft[t].trim()).join('/')}`, words.search.request);
  return typeof parsed === 'string' ? parsed : null;
}
