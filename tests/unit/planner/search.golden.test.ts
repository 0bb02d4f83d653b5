/**
 * The planner's largest search, the one `npm run bench -- planner` times (Llama 3 70B on 64 H100s, batch 512 × 4096,
 * renting compared): its whole outcome, every part's plans with their numbers, rejections and counts, on file.
 *
 * Why: the search is tuned for speed (docs/PERFORMANCE.md § Planner search), and a faster walk must find exactly what
 * the slower one found. The outcome is too large to keep readable (thousands of plans), so the file holds its counts
 * and a SHA-256 of the canonical JSON: a change of one plan's step time by one bit fails it.
 *
 * An engine change that moves the numbers moves it too; then update it and say why in the commit:
 *   npx vitest run --project unit -u tests/unit/planner/search.golden.test.ts
 */
import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { DIMENSIONS, planHardware, planModel, searchParts } from '../../../src/planner/index.ts';
import { planRequest } from '../support/plan-request.ts';

/** `value` as JSON with every object's keys sorted, so the text depends on the values alone. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

test('the largest search with renting compared finds what it found before', async () => {
  const request = planRequest({
    model: 'llama-3-70b',
    gpu: 'h100-80gb',
    gpus: '64',
    'global-batch': '512',
    seq: '4096',
    rent: true,
  });
  const parts = searchParts(request, planHardware(request), planModel(request), DIMENSIONS);
  const summary = parts.map((part) => ({
    gpu: part.hardware.gpu.id,
    rented: part.hardware.rented,
    combinations: part.combinations,
    evaluations: part.evaluations,
    plans: part.plans.length,
    rejected: part.rejected.length,
    sha256: createHash('sha256').update(canonical(part)).digest('hex'),
  }));
  await expect(`${JSON.stringify(summary, null, 2)}\n`).toMatchFileSnapshot('../../golden/planner/largest-search.json');
});
