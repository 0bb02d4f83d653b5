import { describe, expect, test } from 'vitest';
import {
  describeAgreement,
  formatRatio,
  measuredOverPredicted,
  ratioVerdict,
} from '../../../../src/components/lab/agreement-words';

describe('ratioVerdict(kind, measured / predicted)', () => {
  test.each([
    ['webgpu-buffers', 1, 'agrees'],
    ['webgpu-buffers', 1.1, 'agrees'],
    ['webgpu-buffers', 0.9, 'agrees'],
    // A reading an earlier version called agreement: 1.92× is overhead, not agreement.
    ['webgpu-buffers', 1.92, 'above'],
    ['webgpu-buffers', 1.15, 'above'],
    ['webgpu-buffers', 0.85, 'below'],
    ['webgpu-buffers', 0.79, 'outside'],
    ['webgpu-buffers', 2.1, 'outside'],
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
  test('says "agree" only for the sides within 10%, and names the others by their cause with their ratio', () => {
    const text = describeAgreement('webgpu-buffers', [
      { label: 'fp32', ratio: 1.04 },
      { label: '16-bit', ratio: 1.92 },
    ]);
    expect(text).toContain('agree for fp32 (1.04×)');
    expect(text).toContain('above the prediction for 16-bit (1.92×)');
    expect(text).toContain('not agreement');
    expect(text).not.toContain('agree for 16-bit');
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
