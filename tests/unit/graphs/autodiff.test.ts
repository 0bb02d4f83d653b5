/**
 * The hand-rolled backward against central finite differences. Finite differences run on the
 * float64 build of the same forward (onnxruntime's CPU kernels), so truncation and rounding
 * error stay far below the tolerance; the fp32 gradients must match within 1e-3 relative.
 */
import { describe, expect, test } from 'vitest';
import { allParameters } from '../../../src/graphs/model.ts';
import { createUniform } from '../../../src/graphs/random.ts';
import { buildTrainStepGraph } from '../../../src/graphs/variants.ts';
import { CASES } from './fixtures.ts';
import { createRunner } from './helpers.ts';

const BATCH = 3;
const EPS = 1e-5;

describe.each(CASES)('$label', ({ model, feeds, weights }) => {
  test('fp32 and fp64 gradients match central finite differences', { timeout: 60_000 }, async () => {
    const dims = { batch: BATCH };
    const run64 = await createRunner(buildTrainStepGraph(model, { precision: 'fp64' }), dims);
    const run32 = await createRunner(buildTrainStepGraph(model), dims);
    const { data, labels } = feeds(BATCH);
    const base = Object.fromEntries(Object.entries(weights()).map(([k, v]) => [k, Float64Array.from(v)]));
    const dataName = model.data.name;
    const grads32 = (await run32({ ...base, [dataName]: data, labels })).values;
    const grads64 = (await run64({ ...base, [dataName]: data, labels })).values;
    const lossAt = async (name: string, index: number, delta: number): Promise<number> => {
      const w = Float64Array.from(base[name] ?? []);
      w[index] = (w[index] ?? 0) + delta;
      const out = await run64({ ...base, [name]: w, [dataName]: data, labels });
      return out.values['loss']?.[0] ?? NaN;
    };
    const uniform = createUniform(3);
    let checked = 0;
    for (const p of allParameters(model)) {
      const g64 = grads64[`grad.${p.name}`] ?? new Float64Array();
      const g32 = grads32[`grad.${p.name}`] ?? new Float64Array();
      // The largest-gradient coordinate plus one random coordinate per parameter tensor.
      let largest = 0;
      g64.forEach((v, i) => {
        if (Math.abs(v) > Math.abs(g64[largest] ?? 0)) largest = i;
      });
      for (const index of [largest, Math.floor(uniform() * g64.length)]) {
        const numeric = ((await lossAt(p.name, index, EPS)) - (await lossAt(p.name, index, -EPS))) / (2 * EPS);
        const scale = Math.max(Math.abs(numeric), 1e-4);
        expect(Math.abs((g64[index] ?? NaN) - numeric) / scale, `${p.name}[${index}] fp64`).toBeLessThan(1e-5);
        expect(Math.abs((g32[index] ?? NaN) - numeric) / scale, `${p.name}[${index}] fp32`).toBeLessThan(1e-3);
        checked += 1;
      }
    }
    expect(checked).toBe(2 * allParameters(model).length);
  });
});
