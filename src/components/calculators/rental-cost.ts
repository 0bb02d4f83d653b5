/** Prices and times the reader enters for the rent-or-buy estimate. */
export interface RentalInputs {
  /** Price of one GPU for one hour, in the reader's currency. */
  readonly pricePerGpuHour: number;
  /** Wall-clock hours the job runs on demand. */
  readonly hours: number;
  /** Spot (preemptible) discount against on-demand, percent. */
  readonly spotDiscountPercent: number;
  /** Extra time a spot run loses to preemptions and restarts from checkpoints, percent. */
  readonly restartOverheadPercent: number;
}

/** A bad input, named by field. */
/** A bad input, named by field: each field has one range, which the catalogue words (`calculator.rent.invalid`). */
export interface RentalError {
  readonly field: keyof RentalInputs;
}

export function validateRentalInputs(inputs: RentalInputs): RentalError[] {
  const errors: RentalError[] = [];
  const check = (field: keyof RentalInputs, ok: boolean) => ok || errors.push({ field });
  check('pricePerGpuHour', Number.isFinite(inputs.pricePerGpuHour) && inputs.pricePerGpuHour >= 0);
  check('hours', Number.isFinite(inputs.hours) && inputs.hours > 0);
  check(
    'spotDiscountPercent',
    Number.isFinite(inputs.spotDiscountPercent) && inputs.spotDiscountPercent >= 0 && inputs.spotDiscountPercent < 100,
  );
  check(
    'restartOverheadPercent',
    Number.isFinite(inputs.restartOverheadPercent) && inputs.restartOverheadPercent >= 0 && inputs.restartOverheadPercent <= 1000,
  );
  return errors;
}

/** On-demand and spot cost of running `gpus` GPUs for the job; spot pays for the lost time too. */
export function rentalCost(inputs: RentalInputs, gpus: number): { onDemand: number; spot: number; spotHours: number } {
  const spotHours = inputs.hours * (1 + inputs.restartOverheadPercent / 100);
  return {
    onDemand: gpus * inputs.hours * inputs.pricePerGpuHour,
    spot: gpus * spotHours * inputs.pricePerGpuHour * (1 - inputs.spotDiscountPercent / 100),
    spotHours,
  };
}
