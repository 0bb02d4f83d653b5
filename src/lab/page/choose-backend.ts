import type { Backend } from '../measure/executor';

/** Why a run falls back to WebAssembly: no `navigator.gpu`, no adapter, or an adapter without 16-bit shaders. */
export type FallbackCause = 'no-webgpu' | 'no-adapter' | 'no-f16';

/** The backend a run will use, and why, as data; `backendWords` says it to the reader. */
export interface BackendChoice {
  readonly backend: Backend;
  /** Why WebGPU is not used; null on WebGPU. */
  readonly fallback: FallbackCause | null;
  /** The adapter's vendor and architecture, where WebGPU offered one that says them. */
  readonly adapterName: string | null;
  /**
   * A software WebGPU adapter (SwiftShader, WARP, lavapipe): it runs every kernel on the CPU, so
   * the lab starts it at smaller sizes (see `SOFTWARE_ADAPTER_SETTINGS`).
   */
  readonly software: boolean;
}

/**
 * What the page says of the backend, in English; a translated page passes its own words of this type, so the lab
 * never depends on the site's languages. `name` is the adapter's, or null where it gave none.
 */
export const BACKEND_WORDS = {
  /** Why WebGPU is not used, without saying what ran (the page shows it before Run). */
  fallbackCause: {
    'no-webgpu': (): string => 'This browser has no WebGPU (navigator.gpu is missing)',
    'no-adapter': (): string => 'WebGPU is present but offered no adapter (a blocklisted or missing GPU driver)',
    'no-f16': (name: string | null): string => `The WebGPU adapter (${name ?? 'your GPU'}) has no 16-bit shaders (shader-f16)`,
  },
  /** After the cause: what ran instead. */
  ranInstead: {
    'no-webgpu': (cause: string): string => `${cause}, so the model ran on the CPU through WebAssembly.`,
    'no-adapter': (cause: string): string => `${cause}, so the model ran through WebAssembly.`,
    'no-f16': (cause: string): string =>
      `${cause}, so both variants ran through WebAssembly, which runs the 16-bit model with casts to fp32 compute.`,
  },
  ranOnWebGpu: (name: string | null, software: boolean): string =>
    software
      ? `Ran on WebGPU (${name ?? 'your GPU'}, a software adapter: every kernel ran on the CPU).`
      : `Ran on WebGPU (${name ?? 'your GPU'}).`,
};

/** The words of the backend choice, in any language. */
export type BackendWords = typeof BACKEND_WORDS;

/** Why WebGPU is not used, in words; null on WebGPU. */
export function fallbackCauseWords(choice: BackendChoice, words: BackendWords = BACKEND_WORDS): string | null {
  return choice.fallback === null ? null : words.fallbackCause[choice.fallback](choice.adapterName);
}

/** Which backend ran and why, in words: shown next to the results. */
export function backendReasonWords(choice: BackendChoice, words: BackendWords = BACKEND_WORDS): string {
  const cause = fallbackCauseWords(choice, words);
  return choice.fallback === null || cause === null
    ? words.ranOnWebGpu(choice.adapterName, choice.software)
    : words.ranInstead[choice.fallback](cause);
}

/**
 * WebGPU when this browser has a usable adapter (with 16-bit shaders when the experiment needs
 * them), else WebAssembly on the CPU.
 */
export async function chooseBackend({ needsF16 }: { needsF16: boolean }): Promise<BackendChoice> {
  if (!('gpu' in navigator) || !navigator.gpu)
    return { backend: 'wasm', software: false, fallback: 'no-webgpu', adapterName: null };
  const adapter = await navigator.gpu.requestAdapter().catch(() => null);
  if (!adapter) return { backend: 'wasm', software: false, fallback: 'no-adapter', adapterName: null };
  const adapterName = [adapter.info.vendor, adapter.info.architecture].filter(Boolean).join(' ') || null;
  if (needsF16 && !adapter.features.has('shader-f16'))
    return { backend: 'wasm', software: false, fallback: 'no-f16', adapterName };
  return { backend: 'webgpu', software: isSoftwareAdapter(adapter), fallback: null, adapterName };
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
