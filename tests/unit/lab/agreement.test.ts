import { describe, expect, test } from 'vitest';
import { agreementVerdict, agreesWithPrediction } from '../../../src/lab/measure/agreement';
import { bytesAbove, peakAbove } from '../../../src/lab/measure/measured-memory';

describe('agreesWithPrediction(kind, measured, predicted)', () => {
  test.each([
    ['webgpu-buffers', 1.3, true],
    ['webgpu-buffers', 0.79, false],
    ['webgpu-buffers', 2.1, false],
    ['wasm-heap', 0.6, true],
    ['wasm-heap', 2.1, false],
  ] as const)('%s at %f× the prediction → %s', (kind, ratio, agrees) => {
    expect(agreesWithPrediction(kind, ratio * 1_000_000, 1_000_000)).toBe(agrees);
  });

  test('a zero prediction never agrees (nothing to compare against)', () => {
    expect(agreesWithPrediction('wasm-heap', 0, 0)).toBe(false);
  });
});

describe('agreementVerdict(kind, pairs, scope)', () => {
  test('agrees only when every pair does, and says within which tolerance', () => {
    const both = agreementVerdict('webgpu-buffers', [
      [130, 100],
      [90, 100],
    ]);
    expect(both).toEqual({
      agree: true,
      sentence: "Measured and predicted agree within this backend's tolerance (0.8–2× the prediction).",
    });
    const one = agreementVerdict('webgpu-buffers', [
      [130, 100],
      [300, 100],
    ]);
    expect(one.agree).toBe(false);
    expect(one.sentence).toBe(
      "Measured and predicted differ by more than this backend's tolerance (0.8–2×); the lesson explains where such gaps come from.",
    );
  });

  test('names what was compared when the comparison covers only some figures', () => {
    expect(agreementVerdict('wasm-heap', [[100, 100]], 'for the student').sentence).toBe(
      "Measured and predicted agree within this backend's tolerance (0.5–2× the prediction) for the student.",
    );
  });
});

describe('bytes above the baseline', () => {
  test('clamp at 0 when the count fell below where the run started', () => {
    expect(bytesAbove(1000, 1500)).toBe(500);
    expect(bytesAbove(1000, 800)).toBe(0);
    expect(peakAbove({ baselineBytes: 4096, peakBytes: 10_240 })).toBe(6144);
  });
});
