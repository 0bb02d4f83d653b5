import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { EstimateTotals } from '../../../src/memory/index.ts';
import type { Choice } from '../../../src/planner/dimensions.ts';
import { divisors } from '../../../src/planner/index.ts';
import { chooseMicroBatch, largestFitting, type Estimated, type Evaluation } from '../../../src/planner/micro-batch.ts';

/**
 * The bisection behind the largest micro-batch that fits: whatever the starting guess, it finds the last index that
 * fits (the fit never returns once lost, a property test of the engine), and with a right guess it needs two estimates.
 */
describe('largestFitting', () => {
  const fitting = (fitsUpTo: number) => {
    const asked: number[] = [];
    const at = (index: number): Estimated => {
      asked.push(index);
      return { totals: {} as EstimateTotals, hostBytes: 0, fitsGpu: index <= fitsUpTo, fitsHost: true };
    };
    return { at, asked };
  };
  const fits = (e: Evaluation) => e.fitsGpu && e.fitsHost;

  test('finds the last index that fits from any guess, in at most two estimates more than a bisection', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.nat(), fc.nat(), (end, k, g) => {
        const fitsUpTo = k % end;
        const guess = g % (end + 1);
        const { at, asked } = fitting(fitsUpTo);
        expect(largestFitting(at, fits, end, guess)).toBe(fitsUpTo);
        expect(asked.length).toBeLessThanOrEqual(Math.ceil(Math.log2(end + 1)) + 2);
      }),
      { numRuns: 2000 },
    );
  });

  test('a right guess costs two estimates: itself and the one after it', () => {
    for (let end = 3; end < 20; end++) {
      for (let fitsUpTo = 1; fitsUpTo < end - 1; fitsUpTo++) {
        const { at, asked } = fitting(fitsUpTo);
        expect(largestFitting(at, fits, end, fitsUpTo)).toBe(fitsUpTo);
        expect(asked).toEqual([fitsUpTo, fitsUpTo + 1]);
      }
    }
  });
});

/**
 * Where the largest micro-batch that fits is fastest (one pipeline stage) and the whole batch in one micro-batch does
 * not fit, the search guesses from that estimate alone. Whatever the guess, it takes the largest micro-batch with
 * accumulation that fits; a right guess costs three estimates, the whole batch's, the guess's and the next one's.
 */
describe('chooseMicroBatch, one pipeline stage', () => {
  const batch = 48;
  const values: Choice[] = divisors(batch).map((b) => ({
    value: `${b} × ${batch / b}`,
    patch: { microBatch: b, gradAccum: batch / b },
    lessons: [],
  }));
  const last = values.length - 1;
  /** Micro-batches up to `fitsUpTo` (an index) fit; the whole batch reports `activations` and `shortfall`. */
  const scenario = (fitsUpTo: number, activations: number, shortfall: number) => {
    const asked: number[] = [];
    // The search's `at` caches its estimates: only the first ask costs one.
    const at = (index: number): Estimated => {
      if (!asked.includes(index)) asked.push(index);
      const totals = { perGpu: { activations }, shortfall, spare: 0 } as unknown as EstimateTotals;
      return { totals, hostBytes: 0, fitsGpu: index !== last && index <= fitsUpTo, fitsHost: true };
    };
    return { at, asked };
  };
  const fits = (e: Evaluation) => e.fitsGpu && e.fitsHost;

  test('takes the largest micro-batch with accumulation that fits, or none, whatever the guess', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1, max: last - 1 }), fc.nat(1e6), fc.nat(1e6), (fitsUpTo, activations, shortfall) => {
        const { at } = scenario(fitsUpTo, activations, shortfall);
        const choice = chooseMicroBatch(at, fits, values, { pp: 1 });
        expect(choice).toEqual(fitsUpTo < 0 ? { kind: 'nothing-fits' } : { kind: 'plan', index: fitsUpTo });
      }),
      { numRuns: 2000 },
    );
  });

  test('a right guess from the whole batch costs three estimates', () => {
    // 48 sequences of 1,000 bytes, 40,000 bytes short: 8 sequences per micro-batch would fit.
    const index = values.findIndex((v) => v.patch.microBatch === 8);
    const { at, asked } = scenario(index, 48_000, 40_000);
    expect(chooseMicroBatch(at, fits, values, { pp: 1 })).toEqual({ kind: 'plan', index });
    expect(asked).toEqual([last, index, index + 1]);
  });
});
