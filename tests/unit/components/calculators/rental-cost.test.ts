import { describe, expect, test } from 'vitest';
import { rentalCost, validateRentalInputs } from '../../../../src/components/calculators/rental-cost';

const inputs = { pricePerGpuHour: 2, hours: 10, spotDiscountPercent: 60, restartOverheadPercent: 10 };

describe('rentalCost(inputs, gpus)', () => {
  test('on demand is GPUs × hours × price', () => {
    expect(rentalCost(inputs, 4).onDemand).toBe(80);
  });

  test('spot pays the discounted price for the hours lost to preemption as well', () => {
    const { spot, spotHours } = rentalCost(inputs, 4);
    expect(spotHours).toBeCloseTo(11, 10);
    expect(spot).toBeCloseTo(4 * 11 * 2 * 0.4, 10);
  });
});

describe('validateRentalInputs(inputs)', () => {
  test('accepts sensible inputs', () => {
    expect(validateRentalInputs(inputs)).toEqual([]);
  });

  test.each([
    [{ pricePerGpuHour: -1 }, 'pricePerGpuHour'],
    [{ hours: 0 }, 'hours'],
    [{ hours: Number.NaN }, 'hours'],
    [{ spotDiscountPercent: 100 }, 'spotDiscountPercent'],
    [{ restartOverheadPercent: Number.POSITIVE_INFINITY }, 'restartOverheadPercent'],
  ] as const)('%o is rejected on %s', (change, field) => {
    expect(validateRentalInputs({ ...inputs, ...change }).map((e) => e.field)).toEqual([field]);
  });
});
