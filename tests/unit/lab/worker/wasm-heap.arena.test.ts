import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';

/**
 * Why the WebAssembly path's only memory figure is the heap's size (src/lab/worker/wasm-heap.ts): onnxruntime-web
 * gives JavaScript no allocator statistics. Its WebAssembly module exports the functions `onnxruntime/wasm/api.h`
 * declares (sessions, tensors, bindings, runs, `OrtEndProfiling`) and no `AllocatorGetStats`. If an upgrade exports
 * one, this fails, and the lab can measure its WebAssembly path from the arena instead.
 */
const DIST = dirname(createRequire(import.meta.url).resolve('onnxruntime-web'));
const ALLOCATOR_STATISTICS = /alloc\w*stat|arena|heapstat|memoryinfo/i;

/** The exports of a build whose names are kept (the JSPI build; the others are minified and named by their loader). */
function namedExports(file: string): string[] {
  return WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(join(DIST, file)))).map((entry) => entry.name);
}

/** The `Module._Ort…` functions a minified build's loader assigns, by name. */
function loaderExports(file: string): string[] {
  return [...new Set([...readFileSync(join(DIST, file), 'utf8').matchAll(/\._(Ort\w+)=/g)].map((match) => match[1]!))];
}

describe('onnxruntime-web exposes no allocator statistics to JavaScript (the WebAssembly heap is the only figure)', () => {
  test('the JSPI build’s named exports: the api.h functions, none reading the arena', () => {
    const names = namedExports('ort-wasm-simd-threaded.jspi.wasm');
    expect(names).toContain('OrtEndProfiling');
    expect(names).toContain('OrtCreateSessionOptions');
    expect(names.filter((name) => ALLOCATOR_STATISTICS.test(name))).toEqual([]);
  });

  test.each(['ort-wasm-simd-threaded.mjs', 'ort-wasm-simd-threaded.jsep.mjs', 'ort-wasm-simd-threaded.asyncify.mjs'])(
    '%s: the Module’s Ort functions, none reading the arena',
    (file) => {
      const names = loaderExports(file);
      expect(names).toContain('OrtRun');
      expect(names.filter((name) => ALLOCATOR_STATISTICS.test(name))).toEqual([]);
    },
  );
});
