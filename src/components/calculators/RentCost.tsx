import { useState } from 'preact/hooks';
import type { EstimateResult } from '../../memory/index';
import { useMessages } from '../../i18n/use-messages';
import WidgetField from '../WidgetField';
import { rentalCost, validateRentalInputs, type RentalInputs } from './rental-cost';

/**
 * What renting the configuration costs, from prices the reader types in: cloud prices change
 * weekly and differ by region, so the site states none as fact.
 */
export default function RentCost({ result }: { result: EstimateResult }) {
  const messages = useMessages();
  const text = messages.calculator.rent;
  const number = messages.format.number;
  const [inputs, setInputs] = useState<Record<keyof RentalInputs, string>>({
    pricePerGpuHour: '2.00',
    hours: '24',
    spotDiscountPercent: '60',
    restartOverheadPercent: '10',
  });
  const parsed: RentalInputs = {
    pricePerGpuHour: Number(inputs.pricePerGpuHour),
    hours: Number(inputs.hours),
    spotDiscountPercent: Number(inputs.spotDiscountPercent),
    restartOverheadPercent: Number(inputs.restartOverheadPercent),
  };
  const gpus = result.resolved.dp * result.resolved.tp * result.resolved.pp;
  const errors = validateRentalInputs(parsed);
  const cost = errors.length === 0 ? rentalCost(parsed, gpus) : null;
  const field = (name: keyof RentalInputs, label: string) => (
    <WidgetField label={label} error={errors.some((e) => e.field === name) ? text.invalid[name] : undefined}>
      <input
        type="text"
        inputMode="decimal"
        value={inputs[name]}
        aria-invalid={errors.some((e) => e.field === name) ? 'true' : undefined}
        onInput={(e) => setInputs({ ...inputs, [name]: (e.currentTarget as HTMLInputElement).value })}
      />
    </WidgetField>
  );
  return (
    <div class="calc-rent">
      <h3>{text.heading}</h3>
      <div class="calc-fields">
        {field('pricePerGpuHour', text.price)}
        {field('hours', text.hours)}
        {field('spotDiscountPercent', text.spotDiscount)}
        {field('restartOverheadPercent', text.restartOverhead)}
      </div>
      {cost && (
        <p>
          {text.gpus(gpus, result.gpu?.name ?? text.noGpu)}
          {result.fits === false ? text.doesNotFit : ''}
          {text.onDemand}
          <strong>{number(cost.onDemand, 2)}</strong>
          {text.spot}
          <strong>{number(cost.spot, 2)}</strong>
          {text.spotHours(number(cost.spotHours, 1))}
        </p>
      )}
    </div>
  );
}
