import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatBytes } from '../../../../src/base/bytes';
import { tracedPeakBytes, tracedPeakFigure, tracedRuntimeVersion } from '../../../../src/components/estimate/trace-figure';
import type { ExperimentTrace } from '../../../../src/lab/runtime-model/recorded-trace';

/** A repository root holding one trace, `name.json`, with the page's `data-*` figures given. */
function rootWith(name: string, data: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'trace-figure-'));
  mkdirSync(join(root, 'tests/fixtures/lab/traces'), { recursive: true });
  const trace: ExperimentTrace = { experiment: 'leak', onnxruntimeWeb: '9.9.9', data, workers: [] };
  writeFileSync(join(root, 'tests/fixtures/lab/traces', `${name}.json`), JSON.stringify(trace));
  return root;
}

describe('tracedPeakBytes(trace, peak): a measured figure a page quotes from a committed trace', () => {
  const root = rootWith('probe', {
    measuredBeforeBytes: '3365544',
    measuredAfterBytes: '913512',
    afterDeviceBytes: '700,913512',
  });

  test('each side reads its own attribute, and a device its place in the after side’s list', () => {
    expect(tracedPeakBytes('probe', 'before', root)).toBe(3_365_544);
    expect(tracedPeakBytes('probe', 'after', root)).toBe(913_512);
    expect(tracedPeakBytes('probe', { afterDevice: 0 }, root)).toBe(700);
    expect(tracedPeakBytes('probe', { afterDevice: 1 }, root)).toBe(913_512);
  });

  test('the figure is printed as the lab’s tables print bytes', () => {
    expect(tracedPeakFigure('probe', 'after', root)).toBe(formatBytes(913_512, 'MiB', 2));
    expect(tracedRuntimeVersion('probe', root)).toBe('9.9.9');
  });

  test('a figure the trace never recorded stops the build with one line naming the trace and the field', () => {
    expect(() => tracedPeakBytes('probe', { afterDevice: 2 }, root)).toThrow(
      'trace probe: no measured byte count in data.afterDeviceBytes[2]',
    );
    const broken = rootWith('broken', { measuredBeforeBytes: 'NaN', measuredAfterBytes: '-1' });
    expect(() => tracedPeakBytes('broken', 'before', broken)).toThrow(
      'trace broken: no measured byte count in data.measuredBeforeBytes',
    );
    expect(() => tracedPeakBytes('broken', 'after', broken)).toThrow(
      'trace broken: no measured byte count in data.measuredAfterBytes',
    );
  });
});

describe('the committed traces the lessons quote', () => {
  test('gradient accumulation at width 256 raises the measured peak (lesson 3’s point), recorded with onnxruntime-web 1.30', () => {
    expect(tracedPeakBytes('gradient-accumulation.h256', 'after')).toBeGreaterThan(
      tracedPeakBytes('gradient-accumulation.h256', 'before'),
    );
    expect(tracedRuntimeVersion('gradient-accumulation.h256')).toMatch(/^1\.30\./);
  });

  test('every cluster side the lesson quotes by device has one figure per device', () => {
    for (const device of [0, 1]) expect(tracedPeakBytes('data-parallel', { afterDevice: device })).toBeGreaterThan(0);
  });
});
