import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { EstimateTotals } from '../../../src/memory/index.ts';
import { largestFitting, type Estimated, type Evaluation } from '../../../src/planner/micro-batch.ts';

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
