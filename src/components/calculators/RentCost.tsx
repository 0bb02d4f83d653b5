import { useState } from 'preact/hooks';
import type { EstimateResult } from '../../memory/index';
import WidgetField from '../WidgetField';
import { rentalCost, validateRentalInputs, type RentalInputs } from './rental-cost';

/**
 * What renting the configuration costs, from prices the reader types in: cloud prices change
 * weekly and differ by region, so the site states none as fact.
 */
export default function RentCost({ result }: { result: EstimateResult }) {
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
    <WidgetField label={label} error={errors.find((e) => e.field === name)?.message}>
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
      <h3>Renting it</h3>
      <div class="calc-fields">
        {field('pricePerGpuHour', 'Price per GPU-hour (your currency)')}
        {field('hours', 'Hours of training')}
        {field('spotDiscountPercent', 'Spot discount (%)')}
        {field('restartOverheadPercent', 'Spot: extra time lost to preemptions (%)')}
      </div>
      {cost && (
        <p>
          {gpus} GPU{gpus === 1 ? '' : 's'} ({result.gpu?.name ?? 'pick a GPU above'})
          {result.fits === false ? ', but this configuration does not fit them' : ''}: on demand{' '}
          <strong>{cost.onDemand.toFixed(2)}</strong>; spot with checkpoint-and-resume <strong>{cost.spot.toFixed(2)}</strong> (
          {cost.spotHours.toFixed(1)} h of GPU time each, preemptions included).
        </p>
      )}
    </div>
  );
}
