import { describe, expect, test } from 'vitest';
import {
  mergeParts,
  planHardware,
  planModel,
  planTraining,
  searchHardware,
  searchParts,
  type PartRejection,
  type RawFlagValues,
  type SearchPart,
} from '../../../src/planner/index.ts';
import { planRequest } from '../support/plan-request.ts';

/** Cases with many layouts (so that every share has some), one where nothing fits, and one that rents. */
const CASES: [string, RawFlagValues][] = [
  [
    'llama-2-13b, 8 × a100-40gb, batch 32 × 4096',
    { model: 'llama-2-13b', gpu: 'a100-40gb', gpus: '8', 'global-batch': '32', seq: '4096' },
  ],
  [
    'gpt2, 4 × t4, batch 12 × 128, host 1.6 GB (rejections under a host limit)',
    { model: 'gpt2', gpu: 't4', gpus: '4', 'global-batch': '12', seq: '128', 'max-host-gb': '1.6' },
  ],
  [
    'llama-2-70b, 2 × rtx-4090, batch 8 × 4096, host 64 GB (nothing fits: the closest combinations decide)',
    { model: 'llama-2-70b', gpu: 'rtx-4090', gpus: '2', 'global-batch': '8', seq: '4096', 'max-host-gb': '64' },
  ],
  [
    'gpt2-xl, 4 × a100-80gb, batch 16 × 1024, renting compared',
    { model: 'gpt2-xl', gpu: 'a100-80gb', gpus: '4', 'global-batch': '16', seq: '1024', rent: true },
  ],
];

/**
 * The page runs a search in shares, one per worker, and merges them. Whatever the number of shares, the merged
 * searches are the whole search's, and the plan built from them is planTraining's.
 */
describe('a search in shares', () => {
  test.each(CASES)('%s: shares merge into the whole search, for 2 to 5 shares', { timeout: 120_000 }, (_name, raw) => {
    const req = planRequest(raw);
    const model = planModel(req);
    const hardware = planHardware(req);
    const whole = searchHardware(req, hardware, model);
    for (let of = 2; of <= 5; of++) {
      const shares = Array.from({ length: of }, (_, index) => searchParts(req, hardware, model, undefined, { index, of }));
      const merged = hardware.map((_, i) =>
        mergeParts(shares.map((parts) => parts[i]).filter((part): part is SearchPart => part !== undefined)),
      );
      merged.forEach((search, i) => {
        const all = whole[i];
        if (all === undefined) throw new Error('one search per hardware');
        // The plans too, in the whole walk's order, which the ranking keeps on ties.
        expect(search).toEqual(all);
      });
      expect(planTraining(req, { searches: merged })).toEqual(planTraining(req));
    }
  });

  test('a merge keeps, of equal gaps, the combination the whole search meets first', () => {
    const req = planRequest(CASES[0]?.[1] ?? {});
    const hardware = planHardware(req)[0];
    if (hardware === undefined) throw new Error('the reader’s GPUs are searched');
    const group = (closestAt: number, microBatch: number): PartRejection => ({
      kind: 'activations',
      reason: 'over',
      count: 1,
      smallestGap: 1000,
      closest: { microBatch },
      closestShortOf: 'gpu',
      closestAt,
    });
    const part = (rejection: PartRejection): SearchPart => ({
      hardware,
      plans: [],
      plansAt: [],
      rejected: [rejection],
      combinations: 1,
      evaluations: 1,
    });
    for (const parts of [
      [part(group(7, 1)), part(group(3, 2))],
      [part(group(3, 2)), part(group(7, 1))],
    ]) {
      expect(mergeParts(parts).rejected).toEqual([
        { kind: 'activations', reason: 'over', count: 2, smallestGap: 1000, closest: { microBatch: 2 }, closestShortOf: 'gpu' },
      ]);
    }
  });

  test('every share has work in the largest case the page benchmarks (llama-3-70b, 64 × h100-80gb)', () => {
    const req = planRequest({
      model: 'llama-3-70b',
      gpu: 'h100-80gb',
      gpus: '64',
      'global-batch': '512',
      seq: '4096',
    });
    const own = planHardware(req)[0];
    if (own === undefined) throw new Error('the reader’s GPUs are searched');
    const model = planModel(req);
    const parts = Array.from({ length: 4 }, (_, index) => searchParts(req, [own], model, undefined, { index, of: 4 })[0]);
    for (const part of parts) expect(part?.plans.length).toBeGreaterThan(0);
  });
});
