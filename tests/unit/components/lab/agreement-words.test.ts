import { describe, expect, test } from 'vitest';
import {
  describeAgreement,
  formatRatio,
  measuredOverPredicted,
  ratioVerdict,
} from '../../../../src/components/lab/agreement-words';

describe('ratioVerdict(kind, measured / predicted)', () => {
  test.each([
    ['webgpu-buffers', 1, 'close'],
    ['webgpu-buffers', 1.1, 'close'],
    ['webgpu-buffers', 0.9, 'close'],
    // Printed as 1.10×: judged as printed (data parallel on SwiftShader, 1.50 MiB against 1.36 MiB).
    ['webgpu-buffers', 1.1004, 'close'],
    ['webgpu-buffers', 1.1051, 'above'],
    // A reading an earlier version called agreement: 1.92× is overhead, not agreement.
    ['webgpu-buffers', 1.92, 'above'],
    ['webgpu-buffers', 1.15, 'above'],
    ['webgpu-buffers', 0.85, 'below'],
    ['webgpu-buffers', 0.79, 'outside'],
    ['webgpu-buffers', 3.1, 'outside'],
    ['wasm-heap', 0.6, 'below'],
    ['wasm-heap', 0.49, 'outside'],
  ] as const)('%s at %f× the prediction is "%s"', (kind, ratio, verdict) => {
    expect(ratioVerdict(kind, ratio)).toBe(verdict);
  });
});

describe('measuredOverPredicted(measured, predicted) and formatRatio(ratio)', () => {
  test('divides, and prints two decimals with ×', () => {
    expect(formatRatio(measuredOverPredicted(3 * 2 ** 20, 2 * 2 ** 20))).toBe('1.50×');
  });
  test('a zero prediction gives no ratio (nothing to compare), printed as a dash, never Infinity', () => {
    expect(measuredOverPredicted(5, 0)).toBeNull();
    expect(formatRatio(null)).toBe('—');
  });
});

describe('describeAgreement(kind, sides)', () => {
  test('never says "agree" against the PyTorch prediction: within 10% is "close", which errors can offset', () => {
    const text = describeAgreement('webgpu-buffers', [
      { label: 'fp32', ratio: 1.04 },
      { label: '16-bit', ratio: 1.92 },
    ]);
    expect(text).toContain('within 10% of the prediction for fp32 (1.04×)');
    expect(text).toContain('above the prediction for 16-bit (1.92×)');
    expect(text).not.toMatch(/\bagree(s)?\b/);
    expect(text).toContain('offset');
  });

  test('names the causes of an excess largest first, the size classes’ rounding last', () => {
    const text = describeAgreement('webgpu-buffers', [{ label: 'before', ratio: 1.5 }]);
    const flush = text.indexOf('after its next flush');
    const rounding = text.indexOf('rounds each buffer up');
    expect(flush).toBeGreaterThan(0);
    expect(rounding).toBeGreaterThan(flush);
    expect(text).not.toContain('gradient sets');
  });

  test('names the second gradient set only for the sides that add gradients out of place', () => {
    const text = describeAgreement('webgpu-buffers', [
      { label: 'before', ratio: 1.3 },
      { label: 'after', ratio: 1.6, outOfPlaceGradients: true },
    ]);
    expect(text).toContain('after adds gradients out of place (acc_out = acc_in + g), so two full gradient sets exist at once');
    expect(text).not.toContain('before adds');
    expect(text.indexOf('gradient sets')).toBeLessThan(text.indexOf('rounds each buffer up'));
  });

  test('groups sides with the same verdict into one sentence', () => {
    const text = describeAgreement('wasm-heap', [
      { label: 'a', ratio: 1.3 },
      { label: 'b', ratio: 1.4 },
      { label: 'c', ratio: 1.5 },
    ]);
    expect(text).toContain('for a (1.30×), b (1.40×) and c (1.50×)');
    expect(text.match(/Measured is above/g)).toHaveLength(1);
  });

  test('leaves out sides without a ratio (a prediction for a run the backend could not show)', () => {
    expect(describeAgreement('wasm-heap', [{ label: 'after', ratio: null }])).toBe('');
  });
});
