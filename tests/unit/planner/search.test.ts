import { describe, expect, test } from 'vitest';
import { GPU_PRESETS } from '../../../src/memory/index.ts';
import { planModel, searchParts, type Hardware, type RawFlagValues } from '../../../src/planner/index.ts';
import { planRequest } from '../support/plan-request.ts';

/** Every GPU preset at `gpus`: cards with and without BF16 (whose rules differ), and every cuBLAS workspace size. */
function everyGpu(gpus: number): Hardware[] {
  return GPU_PRESETS.map((gpu, i) => ({ gpu, gpus, rented: i % 2 === 1 }));
}

const CASES: [string, RawFlagValues][] = [
  ['gpt2-xl, batch 8 × 1024, fine-tuning', { model: 'gpt2-xl', gpus: '1', 'global-batch': '8', seq: '1024', task: 'finetune' }],
  ['llama-2-13b, 8 GPUs, batch 32 × 4096 (many layouts)', { model: 'llama-2-13b', gpus: '8', 'global-batch': '32', seq: '4096' }],
  [
    'gpt2, 4 GPUs, batch 12 × 128, host 1.6 GB (rejections under a host limit)',
    { model: 'gpt2', gpus: '4', 'global-batch': '12', seq: '128', 'max-host-gb': '1.6' },
  ],
  [
    'llama-2-70b, 2 GPUs, batch 8 × 4096, host 64 GB (nothing fits on most: the closest combinations decide)',
    { model: 'llama-2-70b', gpus: '2', 'global-batch': '8', seq: '4096', 'max-host-gb': '64' },
  ],
];

/**
 * Renting compared, the GPUs offered for rent are searched in one walk, each set estimated from the same steps
 * (totalsOnGpus). Each set's part must be exactly what searching it alone gives: plans, rejections with their closest
 * combinations, and counts.
 */
describe('sets of GPUs searched in one walk', () => {
  test.each(CASES)(
    '%s: each set of GPUs comes out as searched alone, in any order and in shares',
    { timeout: 120_000 },
    (_name, raw) => {
      const req = planRequest({ ...raw, gpu: 'rtx-4090' });
      const model = planModel(req);
      const hardware = everyGpu(req.gpus);
      // Something to compare: plans, or combinations that did not fit, each with its closest.
      let found = 0;
      for (const order of [hardware, [...hardware].reverse()]) {
        for (const share of [undefined, { index: 1, of: 3 }]) {
          const together = searchParts(req, order, model, undefined, share);
          expect(together).toHaveLength(order.length);
          order.forEach((h, i) => {
            const [alone] = searchParts(req, [h], model, undefined, share);
            if (alone === undefined) throw new Error('one part per set of GPUs');
            expect(together[i]).toEqual(alone);
            found += alone.plans.length + alone.rejected.filter((group) => group.closest !== null).length;
          });
        }
      }
      expect(found).toBeGreaterThan(hardware.length);
    },
  );

  test('a walk searches sets of GPUs of one size only', () => {
    const req = planRequest({ model: 'gpt2', gpu: 'rtx-4090', gpus: '2', 'global-batch': '4', seq: '128' });
    const [a, b] = GPU_PRESETS;
    if (a === undefined || b === undefined) throw new Error('two presets');
    expect(() =>
      searchParts(
        req,
        [
          { gpu: a, gpus: 2, rented: false },
          { gpu: b, gpus: 4, rented: true },
        ],
        planModel(req),
      ),
    ).toThrow('one size');
    expect(searchParts(req, [], planModel(req))).toEqual([]);
  });
});
