/** Which onnxruntime-web build a browser gets, and what it downloads. */
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import { chooseRuntimeBuild, RUNTIME_DOWNLOAD_MB, type RuntimeBuild } from '../../../../src/lab/page/runtime-loader';

describe('chooseRuntimeBuild()', () => {
  test('JSPI where WebAssembly.Suspending exists (Chrome and Edge 137+)', () => {
    expect(chooseRuntimeBuild({ Suspending: function Suspending() {} })).toBe('jspi');
  });

  test('asyncify everywhere else', () => {
    expect(chooseRuntimeBuild({})).toBe('asyncify');
    expect(chooseRuntimeBuild({ Suspending: undefined })).toBe('asyncify');
  });
});

describe('RUNTIME_DOWNLOAD_MB', () => {
  const resolve = createRequire(import.meta.url).resolve;
  test.each(['jspi', 'asyncify'] as const)(
    '%s: the size of the installed onnxruntime-web file the page serves',
    (build: RuntimeBuild) => {
      const bytes = statSync(resolve(`onnxruntime-web/ort-wasm-simd-threaded.${build}.wasm`)).size;
      expect(RUNTIME_DOWNLOAD_MB[build]).toBe(Math.round(bytes / 1e6));
    },
  );
});
