import { describe, expect, test } from 'vitest';
import { packResult, packSearch, unpackResult, unpackSearch } from '../../../../src/components/planner/plan-transfer.ts';
import {
  planHardware,
  planModel,
  planTraining,
  searchHardware,
  searchParts,
  type RawFlagValues,
} from '../../../../src/planner/index.ts';
import { planRequest } from '../../support/plan-request.ts';

/**
 * Answers whose plans have no cost (an unpriced GPU), a cost per step, and a cost per step and per epoch with a token
 * budget's run; and none.
 */
const CASES: [string, RawFlagValues][] = [
  [
    'gpt2-xl on an unpriced rtx-4090, renting compared',
    { model: 'gpt2-xl', gpu: 'rtx-4090', 'global-batch': '4', seq: '512', rent: true },
  ],
  [
    'llama-2-7b, 8 × a100-80gb, with the tokens of an epoch and a token budget, ranked by cost per epoch',
    {
      model: 'llama-2-7b',
      gpu: 'a100-80gb',
      gpus: '8',
      'global-batch': '64',
      seq: '4096',
      'epoch-tokens': '1000000000',
      'train-tokens': '20000000000',
      'rank-by': 'epoch-cost',
      'price-tier': 'spot',
      rent: true,
    },
  ],
  [
    'nothing fits: llama-2-70b, 2 × rtx-4090, host 64 GB',
    { model: 'llama-2-70b', gpu: 'rtx-4090', gpus: '2', 'global-batch': '8', seq: '4096', 'max-host-gb': '64' },
  ],
];

/** Plans cross between the page and its workers packed; what arrives must equal what was sent, after postMessage's copy. */
describe('plans packed for the page and its workers', () => {
  test.each(CASES)('%s: the answer arrives equal, ranks and costs included', { timeout: 60_000 }, (_name, raw) => {
    const result = planTraining(planRequest(raw));
    const arrived = unpackResult(structuredClone(packResult(result)));
    expect(arrived).toEqual(result);
    // Objects the plans share arrive shared, as structuredClone would keep them.
    const [a, b] = arrived.plans;
    if (a !== undefined && b !== undefined && a.hardware.gpu.id === b.hardware.gpu.id) expect(a.base).toBe(b.base);
  });

  test('the cases cover no cost, a cost per step, and a cost per step and epoch', () => {
    const costs = CASES.flatMap(([, raw]) => planTraining(planRequest(raw)).plans.map((p) => p.cost));
    expect(costs.some((c) => c === null)).toBe(true);
    expect(costs.some((c) => c !== null && c.perEpoch === null)).toBe(true);
    expect(costs.some((c) => c !== null && c.perEpoch !== null)).toBe(true);
  });

  test.each(CASES)('%s: searches and shares of searches arrive equal', { timeout: 60_000 }, (_name, raw) => {
    const req = planRequest(raw);
    const model = planModel(req);
    const hardware = planHardware(req);
    for (const search of searchHardware(req, hardware, model)) {
      expect(unpackSearch(structuredClone(packSearch(search)))).toEqual(search);
    }
    for (const part of searchParts(req, hardware, model, undefined, { index: 1, of: 2 })) {
      expect(unpackSearch(structuredClone(packSearch(part)))).toEqual(part);
    }
  });

  test('an answer is not read from plans packed without their ranks', () => {
    const result = planTraining(planRequest(CASES[0]?.[1] ?? {}));
    const packed = packResult(result);
    expect(() => unpackResult({ ...packed, plans: packSearch(result).plans })).toThrow('ranks');
  });
});
