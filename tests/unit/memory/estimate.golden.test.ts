/**
 * Golden files: the engine's whole answer for every model preset, kept in tests/golden/estimate/<preset>.json.
 *
 * Why: the other tests hold the engine to published figures and to properties, but a change can move numbers no test
 * names (a line's bytes at one moment, a step time, a warning). With the answers on file, every engine commit shows in
 * its diff exactly which numbers it moved, and a reviewer reads them there.
 *
 * Update after an intended change, then read the diff of tests/golden/ before committing it:
 *   npx vitest run --project unit -u tests/unit/memory/estimate.golden.test.ts
 *
 * Each file holds, per case, the options and `estimateMemory`'s result with its keys sorted, so that reordering the
 * fields in the code moves nothing on file.
 */
import { describe, expect, test } from 'vitest';
import { MODEL_PRESETS, type EstimateOptions } from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

/** The GPU every case runs on: with a GPU the answer states the fit, the headroom and the step time. */
const GPU = 'h100-80gb';

/**
 * Three cases per preset: the defaults a reader starts from; a sharded, recomputed mixed-precision run across a server
 * (ZeRO-3, 8 GPUs, full recompute), which moves every line the techniques touch; and inference (prefill and decode).
 */
const CASES: Readonly<Record<string, EstimateOptions>> = {
  train: { gpu: GPU },
  'train-zero3-recompute-8gpus': { gpu: GPU, precision: 'amp-bf16', zero: 3, dp: 8, recompute: 'full' },
  infer: { gpu: GPU, mode: 'infer' },
};

/** `value` with every object's keys in sorted order, so the JSON text depends on the values alone. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, inner]) => [key, sortedKeys(inner)]),
    );
  return value;
}

describe('estimateMemory on every model preset matches its golden file', () => {
  test.each(MODEL_PRESETS.map((preset) => preset.id))('%s', async (model) => {
    const answers = Object.entries(CASES).map(([name, options]) => {
      const caseOptions = { model, ...options };
      return [name, { options: caseOptions, result: estimateOrThrow(caseOptions) }];
    });
    const text = `${JSON.stringify(sortedKeys(Object.fromEntries(answers)), null, 2)}\n`;
    await expect(text).toMatchFileSnapshot(`../../golden/estimate/${model}.json`);
  });
});
