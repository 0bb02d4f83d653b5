/**
 * The WebAssembly heap's size, the only memory figure the WASM backend exposes. Wraps the
 * `WebAssembly.Memory` constructor (before onnxruntime-web loads) to keep the memories it makes.
 * A heap only grows, in steps of about 20%, so its size is a coarse high-water mark: report it
 * as such, never as GPU memory.
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
