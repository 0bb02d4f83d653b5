import type { Backend } from '../measure/executor';

/** The backend a run will use, and the reason, in words for the reader. */
export interface BackendChoice {
  readonly backend: Backend;
  readonly reason: string;
  /** Why WebGPU is not used, without saying what ran (the page shows it before Run); null on WebGPU. */
  readonly fallbackCause: string | null;
  /**
   * A software WebGPU adapter (SwiftShader, WARP, lavapipe): it runs every kernel on the CPU, so
   * the lab starts it at smaller sizes (see `SOFTWARE_ADAPTER_SETTINGS`).
   */
  readonly software: boolean;
}

/**
 * WebGPU when this browser has a usable adapter (with 16-bit shaders when the experiment needs
 * them), else WebAssembly on the CPU. The reason is shown next to the results.
 */
export async function chooseBackend({ needsF16 }: { needsF16: boolean }): Promise<BackendChoice> {
  if (!('gpu' in navigator) || !navigator.gpu) {
    const fallbackCause = 'This browser has no WebGPU (navigator.gpu is missing)';
    return {
      backend: 'wasm',
      software: false,
      fallbackCause,
      reason: `${fallbackCause}, so the model ran on the CPU through WebAssembly.`,
    };
  }
  const adapter = await navigator.gpu.requestAdapter().catch(() => null);
  if (!adapter) {
    const fallbackCause = 'WebGPU is present but offered no adapter (a blocklisted or missing GPU driver)';
    return { backend: 'wasm', software: false, fallbackCause, reason: `${fallbackCause}, so the model ran through WebAssembly.` };
  }
  const name = [adapter.info.vendor, adapter.info.architecture].filter(Boolean).join(' ') || 'your GPU';
  const software = isSoftwareAdapter(adapter);
  if (needsF16 && !adapter.features.has('shader-f16')) {
    const fallbackCause = `The WebGPU adapter (${name}) has no 16-bit shaders (shader-f16)`;
    return {
      backend: 'wasm',
      software: false,
      fallbackCause,
      reason: `${fallbackCause}, so both variants ran through WebAssembly, which runs the 16-bit model with casts to fp32 compute.`,
    };
  }
  return {
    backend: 'webgpu',
    software,
    fallbackCause: null,
    reason: software ? `Ran on WebGPU (${name}, a software adapter: every kernel ran on the CPU).` : `Ran on WebGPU (${name}).`,
  };
}

/**
 * `GPUAdapterInfo.isFallbackAdapter` (WebGPU spec §4.2.1; `GPUAdapter.isFallbackAdapter` in
 * older browsers), or SwiftShader's architecture name where neither is set.
 */
function isSoftwareAdapter(adapter: GPUAdapter): boolean {
  const info = adapter.info as GPUAdapterInfo & { readonly isFallbackAdapter?: boolean };
  const legacy = (adapter as GPUAdapter & { readonly isFallbackAdapter?: boolean }).isFallbackAdapter;
  return info.isFallbackAdapter === true || legacy === true || info.architecture === 'swiftshader';
}
