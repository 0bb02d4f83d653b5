import { describe, expect, test } from 'vitest';
import { agreesWithPrediction } from '../../../../src/lab/results/agreement';

describe('agreesWithPrediction(kind, measured, predicted)', () => {
  test.each([
    ['webgpu-buffers', 1.3, true],
    ['webgpu-buffers', 0.79, false],
    ['webgpu-buffers', 3.1, false],
    ['wasm-heap', 0.6, true],
    ['wasm-heap', 2.1, false],
  ] as const)('%s at %f× the prediction → %s', (kind, ratio, agrees) => {
    expect(agreesWithPrediction(kind, ratio * 1_000_000, 1_000_000)).toBe(agrees);
  });

  test('a zero prediction never agrees (nothing to compare against)', () => {
    expect(agreesWithPrediction('wasm-heap', 0, 0)).toBe(false);
  });
});
