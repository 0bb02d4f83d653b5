import { GPU_PRESETS } from '../../memory/index';
import { EXAMPLE_PRICES_DATE, EXAMPLE_PRICES_SOURCE, PRICE_TIERS } from '../../planner/index';
import { draftError, type PriceDraft } from './price-drafts';
import { useMessages } from '../../i18n/use-messages';

/** The price inputs: one row per GPU with a price (and the reader's), each with its error beside it. */
export default function PriceTable({
  drafts,
  onChange,
}: {
  drafts: Readonly<Record<string, PriceDraft>>;
  onChange: (gpu: string, draft: PriceDraft) => void;
}) {
  const strings = useMessages().planner;
  return (
    <fieldset class="planner-prices">
      <legend>{strings.prices.heading}</legend>
      <p class="calc-note">
        {strings.prices.note(EXAMPLE_PRICES_DATE)}
        <cite lang="en">{EXAMPLE_PRICES_SOURCE}</cite>.
      </p>
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
              const error = draftError(gpu, draft, strings);
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
