/**
 * The WebAssembly heap's size, the only memory figure the WASM backend exposes. Wraps the
 * `WebAssembly.Memory` constructor (before onnxruntime-web loads) to keep the memories it makes.
 * A heap only grows, in steps of about 20%, so its size is a coarse high-water mark: report it
 * as such, never as GPU memory. onnxruntime's own arena statistics would be finer, but
 * onnxruntime-web 1.30 gives JavaScript no way to read them: its module exports only the functions
 * `onnxruntime/wasm/api.h` declares, none of them `AllocatorGetStats`, and `endProfiling()` prints
 * per-node tensor sizes, not what the arena held (tests/unit/lab/worker/wasm-heap.arena.test.ts).
 */
export interface WasmHeapProbe {
  /** Current total bytes of every heap created since install (its high-water mark). */
  bytes(): number;
  uninstall(): void;
}

/** Starts keeping every WebAssembly memory created from now on; call before onnxruntime-web loads. */
export function installWasmHeapProbe(): WasmHeapProbe {
  const memories: WebAssembly.Memory[] = [];
  const Original = WebAssembly.Memory;
  const Probed = function (this: unknown, descriptor: WebAssembly.MemoryDescriptor) {
    const memory = new Original(descriptor);
    memories.push(memory);
    return memory;
  } as unknown as typeof WebAssembly.Memory;
  Probed.prototype = Original.prototype;
  WebAssembly.Memory = Probed;
  return {
    bytes: () => memories.reduce((sum, m) => sum + m.buffer.byteLength, 0),
    uninstall: () => {
      WebAssembly.Memory = Original;
    },
  };
}
