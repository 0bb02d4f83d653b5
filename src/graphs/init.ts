/**
 * Deterministic weight initialisation from a seed, run in the browser (weights are graph inputs,
 * not stored in the .onnx files). Each parameter has its own stream derived from (seed, name), so
 * a layer's weights do not change when the reader changes the number of layers, and a stage
 * graph can initialise only its own parameters.
 */
import type { ParamSpec } from './params.ts';
import { parameterSize } from './params.ts';
import { createNormal, hashString } from './random.ts';

/** Initial values of one parameter. */
export function initParameter(param: ParamSpec, seed: number): Float32Array {
  const values = new Float32Array(parameterSize(param));
  const { init } = param;
  if (init.kind === 'ones') values.fill(1);
  else if (init.kind === 'normal') {
    const normal = createNormal(hashString(`${seed}:${param.name}`));
    for (let i = 0; i < values.length; i++) values[i] = normal() * init.std;
  }
  return values;
}

/**
 * Initial values of every parameter, by name (fp32 master weights; fp16 graphs cast inside).
 * @example const weights = initWeights(entry.parameters, 42);
 */
export function initWeights(params: readonly ParamSpec[], seed: number): Record<string, Float32Array> {
  const weights: Record<string, Float32Array> = {};
  for (const p of params) weights[p.name] = initParameter(p, seed);
  return weights;
}
