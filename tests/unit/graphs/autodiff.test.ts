/** The hand-rolled backward of every case's step graph, against central finite differences (finite-differences.ts). */
import { describe, test } from 'vitest';
import { allParameters } from '../../../src/graphs/model.ts';
import { buildTrainStepGraph } from '../../../src/graphs/variants.ts';
import { expectGradientsMatchFiniteDifferences } from './finite-differences.ts';
import { CASES } from './fixtures.ts';
import { createRunner } from './helpers.ts';

const BATCH = 3;

describe.each(CASES)('$label', ({ model, feeds, weights }) => {
  test('fp32 and fp64 gradients match central finite differences', { timeout: 60_000 }, async () => {
    const dims = { batch: BATCH };
    const run64 = await createRunner(buildTrainStepGraph(model, { precision: 'fp64' }), dims);
    const run32 = await createRunner(buildTrainStepGraph(model), dims);
    const { data, labels } = feeds(BATCH);
    const base = Object.fromEntries(Object.entries(weights()).map(([k, v]) => [k, Float64Array.from(v)]));
    await expectGradientsMatchFiniteDifferences(run64, run32, { ...base, [model.data.name]: data, labels }, allParameters(model));
  });
});
