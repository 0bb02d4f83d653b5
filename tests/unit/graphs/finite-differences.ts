/**
 * The hand-built backward against central finite differences. Finite differences run on the float64 build of the same
 * forward (onnxruntime's CPU kernels), so truncation and rounding error stay far below the tolerance; the fp32
 * gradients must match within 1e-3 relative.
 */
import { expect } from 'vitest';
import { createUniform } from '../../../src/graphs/random.ts';
import type { Runner, Values } from './helpers.ts';

/** Half the step of each central difference. */
const EPS = 1e-5;

/**
 * Checks every parameter's `grad.<name>` from the fp64 and fp32 step graphs against (L(w + ε) − L(w − ε)) / 2ε on the
 * fp64 one, at its largest-gradient coordinate and one random coordinate. `feeds` holds the weights as Float64Arrays
 * and everything else the step reads.
 */
export async function expectGradientsMatchFiniteDifferences(
  run64: Runner,
  run32: Runner,
  feeds: Readonly<Record<string, Values>>,
  parameters: readonly { readonly name: string }[],
): Promise<void> {
  expect(parameters.length).toBeGreaterThan(0);
  const grads64 = (await run64(feeds)).values;
  const grads32 = (await run32(feeds)).values;
  const lossAt = async (name: string, index: number, delta: number): Promise<number> => {
    const w = Float64Array.from(feeds[name] as Float64Array);
    w[index] = (w[index] ?? 0) + delta;
    return (await run64({ ...feeds, [name]: w })).values['loss']?.[0] ?? NaN;
  };
  const uniform = createUniform(3);
  for (const p of parameters) {
    const g64 = grads64[`grad.${p.name}`] ?? new Float64Array();
    const g32 = grads32[`grad.${p.name}`] ?? new Float64Array();
    expect(g64.length, `grad.${p.name}`).toBeGreaterThan(0);
    let largest = 0;
    g64.forEach((v, i) => {
      if (Math.abs(v) > Math.abs(g64[largest] ?? 0)) largest = i;
    });
    for (const index of [largest, Math.floor(uniform() * g64.length)]) {
      const numeric = ((await lossAt(p.name, index, EPS)) - (await lossAt(p.name, index, -EPS))) / (2 * EPS);
      const scale = Math.max(Math.abs(numeric), 1e-4);
      expect(Math.abs((g64[index] ?? NaN) - numeric) / scale, `${p.name}[${index}] fp64`).toBeLessThan(1e-5);
      expect(Math.abs((g32[index] ?? NaN) - numeric) / scale, `${p.name}[${index}] fp32`).toBeLessThan(1e-3);
    }
  }
}
