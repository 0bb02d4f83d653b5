/**
 * What the measuring core's step-loop tests share: the small MLP's models built in memory, one
 * batch and seed, the one-device reference step, and the comparison every "computes the same
 * step" test makes. The loops run in Node on onnxruntime's WASM backend.
 */
import { expect } from 'vitest';
import { measureSingleRun, type SingleRunResult, type SingleRunSpec } from '../../../../src/lab/measure/single-run.ts';
import { normRelativeError } from '../../graphs/helpers.ts';
import { nodeExecutor, SMALL_VARIANTS, smallModel, utilities, type GraphFiles } from './node-executor.ts';

/** Seed of the weights and the data, the same in every run compared. */
export const SEED = 42;
/** Examples per step: divides into 4 micro-batches and into 2 or 4 devices. */
export const BATCH = 8;
/** fp32 sums in a different order (micro-batches, devices) differ in the last bits only. */
const TOLERANCE = 1e-5;

/** The graph files of every model below, by name. */
export const files: GraphFiles = new Map();
/** The small MLP's catalog variants, built, by key. */
export const models = Object.fromEntries(
  Object.entries(SMALL_VARIANTS).map(([name, variant]) => [name, smallModel(files, variant)]),
) as Record<keyof typeof SMALL_VARIANTS, ReturnType<typeof smallModel>>;
/** The Adam and accumulate utility graphs. */
export const { adam, accumulate } = utilities(files);

/** A single run of `model` at the shared batch and seed, one step unless `extra` says otherwise. */
export function spec(model: SingleRunSpec['model'], extra: Partial<SingleRunSpec> = {}): SingleRunSpec {
  return { model, batch: BATCH, microBatches: 1, seed: SEED, steps: 1, ...extra };
}

let reference: Promise<SingleRunResult> | undefined;
/** The whole batch's step on one device, kept graph by graph: what every split is compared with (run once per file). */
export function oneDeviceStep(): Promise<SingleRunResult> {
  return (reference ??= measureSingleRun(nodeExecutor(files), spec(models.keep)));
}

/** Every parameter's gradient in `a` matches `reference`'s. */
export function expectSameGradients(
  a: Readonly<Record<string, Float32Array>>,
  reference: Readonly<Record<string, Float32Array>>,
): void {
  const names = Object.keys(reference);
  expect(names.length).toBeGreaterThan(0);
  expect(Object.keys(a).sort()).toEqual([...names].sort());
  for (const name of names) expect(normRelativeError(a[name] ?? [], reference[name] ?? []), name).toBeLessThan(TOLERANCE);
}

/** The union of what every device of a cluster side returned. */
export async function clusterTensors(
  runs: Promise<{ tensors: Readonly<Record<string, Float32Array>> }>[],
): Promise<Record<string, Float32Array>> {
  return Object.assign({}, ...(await Promise.all(runs)).map((r) => r.tensors)) as Record<string, Float32Array>;
}
