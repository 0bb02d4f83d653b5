import { GPU_PRESETS } from '../../memory/index';
import {
  EXAMPLE_PRICES,
  EXAMPLE_PRICES_DATE,
  EXAMPLE_PRICES_SOURCE,
  parsePrice,
  PRICE_TIERS,
  type PriceTier,
} from '../../planner/index';
import { strings } from './strings';

/** Editable text of one GPU's three prices. */
export type PriceDraft = Readonly<Record<PriceTier, string>>;

/** The example prices as drafts, plus an empty row for the reader's GPU. */
export function initialDrafts(ownGpu: string): Record<string, PriceDraft> {
  const drafts: Record<string, PriceDraft> = {};
  for (const [gpu, prices] of Object.entries(EXAMPLE_PRICES)) {
    drafts[gpu] = { 'on-demand': String(prices['on-demand']), reserved: String(prices.reserved), spot: String(prices.spot) };
  }
  if (drafts[ownGpu] === undefined) drafts[ownGpu] = { 'on-demand': '', reserved: '', spot: '' };
  return drafts;
}

/** Drafts that differ from the example prices, as `price` flag values (`gpu=od/res/spot`). */
export function priceFlags(drafts: Readonly<Record<string, PriceDraft>>): string[] {
  return Object.entries(drafts).flatMap(([gpu, d]) => {
    const example = EXAMPLE_PRICES[gpu];
    const empty = PRICE_TIERS.every((t) => d[t].trim() === '');
    if (empty) return [];
    if (example !== undefined && PRICE_TIERS.every((t) => Number(d[t]) === example[t] && d[t].trim() !== '')) return [];
    return [`${gpu}=${PRICE_TIERS.map((t) => d[t].trim()).join('/')}`];
  });
}

/** Error of one draft row, or null. */
export function draftError(gpu: string, draft: PriceDraft): string | null {
  if (PRICE_TIERS.every((t) => draft[t].trim() === '')) return null;
  const parsed = parsePrice(`${gpu}=${PRICE_TIERS.map((t) => draft[t].trim() || 'x').join('/')}`);
  return typeof parsed === 'string' ? parsed : null;
}

/** The price inputs: one row per GPU with a price (and the reader's), each with its error beside it. */
export default function PriceTable({
  drafts,
  onChange,
}: {
  drafts: Readonly<Record<string, PriceDraft>>;
  onChange: (gpu: string, draft: PriceDraft) => void;
}) {
  return (
    <fieldset class="planner-prices">
      <legend>{strings.prices.heading}</legend>
      <p class="calc-note">{strings.prices.note(EXAMPLE_PRICES_DATE, EXAMPLE_PRICES_SOURCE)}</p>
      <div class="widget-scroll scroll-shadows" tabIndex={0} role="region" aria-label={strings.prices.heading}>
        <table class="widget-table">
          <thead>
            <tr>
              <th scope="col">{strings.prices.gpu}</th>
              {PRICE_TIERS.map((t) => (
                <th scope="col">{strings.tiers[t]}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {Object.entries(drafts).map(([gpu, draft]) => {
              const error = draftError(gpu, draft);
              const name = GPU_PRESETS.find((g) => g.id === gpu)?.name ?? gpu;
              return (
                <tr data-price-gpu={gpu}>
                  <th scope="row">{name}</th>
                  {PRICE_TIERS.map((t) => (
                    <td>
                      <input
                        type="text"
                        inputMode="decimal"
                        aria-label={`${name} ${strings.tiers[t]}`}
                        value={draft[t]}
                        aria-invalid={error ? 'true' : undefined}
                        onInput={(e) => onChange(gpu, { ...draft, [t]: (e.currentTarget as HTMLInputElement).value })}
                      />
                    </td>
                  ))}
                  {error && (
                    <td class="widget-error" role="alert">
                      {error}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </fieldset>
  );
}
