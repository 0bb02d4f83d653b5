/**
 * The bytes of examples and labels a lab loop places on the device before its first step: the
 * "examples and labels" item of the gap to PyTorch (runtime-gap.ts), which the engine does not
 * count. Pure.
 */
import type { ManifestModel } from '../../graphs/browser-safe';
import { batchSlice } from '../measure/feeds';

/**
 * Bytes of the examples and labels (those `reads` selects) a run places on the device for
 * `count` examples of `model` (placed-examples.ts: float data; integer data stays on the host).
 */
export function placedExamplesBytes(
  model: ManifestModel,
  count: number,
  seed: number,
  reads: (name: string) => boolean = () => true,
): number {
  return Object.entries(batchSlice(model, count, seed, 0, count))
    .filter(([name, feed]) => reads(name) && feed.data instanceof Float32Array)
    .reduce((sum, [, feed]) => sum + feed.data.byteLength, 0);
}
