import type { Backend } from './protocol';

/** The backend a run will use, and the reason, in words for the reader. */
export interface BackendChoice {
  readonly backend: Backend;
  readonly reason: string;
}

/**
 * WebGPU when this browser has a usable adapter (with 16-bit shaders when the experiment needs
 * them), else WebAssembly on the CPU. The reason is shown next to the results.
 */
export async function chooseBackend({ needsF16 }: { needsF16: boolean }): Promise<BackendChoice> {
  if (!('gpu' in navigator) || !navigator.gpu) {
    return { backend: 'wasm', reason: 'This browser has no WebGPU (navigator.gpu is missing), so the model ran on the CPU through WebAssembly.' };
  }
  const adapter = await navigator.gpu.requestAdapter().catch(() => null);
  if (!adapter) {
    return { backend: 'wasm', reason: 'WebGPU is present but offered no adapter (a blocklisted or missing GPU driver), so the model ran through WebAssembly.' };
  }
  const name = [adapter.info.vendor, adapter.info.architecture].filter(Boolean).join(' ') || 'your GPU';
  if (needsF16 && !adapter.features.has('shader-f16')) {
    return {
      backend: 'wasm',
      reason: `The WebGPU adapter (${name}) has no 16-bit shaders (shader-f16), so both variants ran through WebAssembly, which runs the 16-bit model with casts to fp32 compute.`,
    };
  }
  return { backend: 'webgpu', reason: `Ran on WebGPU (${name}).` };
}
