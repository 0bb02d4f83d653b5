/** Which onnxruntime-web build a browser gets. */
import { describe, expect, test } from 'vitest';
import { chooseRuntimeBuild } from '../../../src/lab/runtime';

describe('chooseRuntimeBuild()', () => {
  test('JSPI where WebAssembly.Suspending exists (Chrome and Edge 137+)', () => {
    expect(chooseRuntimeBuild({ Suspending: function Suspending() {} })).toBe('jspi');
  });

  test('asyncify everywhere else', () => {
    expect(chooseRuntimeBuild({})).toBe('asyncify');
    expect(chooseRuntimeBuild({ Suspending: undefined })).toBe('asyncify');
  });
});
