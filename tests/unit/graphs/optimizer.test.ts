/** The flat-vector graphs the multi-device experiments run between steps. */
import { describe, expect, test } from 'vitest';
import { ADAM, adamScalars } from '../../../src/graphs/adam.ts';
import { buildAccumulateGraph, buildAdamGraph } from '../../../src/graphs/optimizer.ts';
import { createRunner, maxRelativeError } from './helpers.ts';

/** torch.optim.Adam's update written out in float64 (docs: pytorch.org/docs/stable/generated/torch.optim.Adam.html). */
function referenceAdam(p: number[], g: number[], m: number[], v: number[], lr: number, t: number) {
  const mNext = m.map((mi, i) => ADAM.beta1 * mi + (1 - ADAM.beta1) * (g[i] ?? 0));
  const vNext = v.map((vi, i) => ADAM.beta2 * vi + (1 - ADAM.beta2) * (g[i] ?? 0) ** 2);
  const mHat = mNext.map((x) => x / (1 - ADAM.beta1 ** t));
  const vHat = vNext.map((x) => x / (1 - ADAM.beta2 ** t));
  const pNext = p.map((pi, i) => pi - (lr * (mHat[i] ?? 0)) / (Math.sqrt(vHat[i] ?? 0) + ADAM.eps));
  return { pNext, mNext, vNext };
}

describe('buildAdamGraph()', () => {
  test.each([1, 2, 10])('step %i matches torch.optim.Adam written out in float64', async (t) => {
    const p = [0.5, -1.25, 2, 0.001, -0.3];
    const g = [0.1, -0.02, 3, -1e-4, 0];
    const m = t === 1 ? [0, 0, 0, 0, 0] : [0.01, -0.002, 0.3, 1e-5, 0.02];
    const v = t === 1 ? [0, 0, 0, 0, 0] : [1e-3, 4e-5, 0.9, 1e-8, 2e-4];
    const lr = 1e-3;
    const { stepSize, bias2Sqrt } = adamScalars(lr, t);
    const run = await createRunner(buildAdamGraph(), { n: p.length });
    const out = (await run({ p, g, m, v, step_size: [stepSize], bias2_sqrt: [bias2Sqrt] })).values;
    const want = referenceAdam(p, g, m, v, lr, t);
    expect(maxRelativeError(out['p_next'] ?? new Float64Array(), Float64Array.from(want.pNext))).toBeLessThan(1e-6);
    expect(maxRelativeError(out['m_next'] ?? new Float64Array(), Float64Array.from(want.mNext))).toBeLessThan(1e-6);
    expect(maxRelativeError(out['v_next'] ?? new Float64Array(), Float64Array.from(want.vNext))).toBeLessThan(1e-6);
  });

  test('a first step moves every parameter with a gradient by about lr (Adam is scale-free)', async () => {
    const { stepSize, bias2Sqrt } = adamScalars(0.01, 1);
    const run = await createRunner(buildAdamGraph(), { n: 3 });
    const out = (
      await run({ p: [0, 0, 0], g: [1e-3, -50, 7], m: [0, 0, 0], v: [0, 0, 0], step_size: [stepSize], bias2_sqrt: [bias2Sqrt] })
    ).values;
    expect([...(out['p_next'] ?? [])].map((x) => Number(x.toFixed(6)))).toEqual([-0.01, 0.01, -0.01]);
  });
});

describe('buildAccumulateGraph()', () => {
  test('adds two flat tensors of any length', async () => {
    const run = await createRunner(buildAccumulateGraph(), { n: 4 });
    const out = (await run({ a: [1, 2, 3, 4], b: [0.5, -2, 0, 1e-3] })).values;
    expect([...(out['sum'] ?? [])]).toEqual([1.5, 0, 3, Math.fround(4 + Math.fround(1e-3))]);
  });
});
