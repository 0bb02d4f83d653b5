import asyncifyUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import jspiUrl from 'onnxruntime-web/ort-wasm-simd-threaded.jspi.wasm?url';
import { downloadWithProgress, type DownloadProgress } from './download';

/**
 * Which onnxruntime-web build runs: both carry the native WebGPU and the WASM backends, and
 * differ in how WebAssembly waits for the GPU. `jspi` uses the browser's JavaScript Promise
 * Integration (Chrome and Edge 137+), and its first session starts sooner (why: see
 * docs/PERFORMANCE.md § Lab). `asyncify` rewrites the code to pause without it, a larger file,
 * and runs everywhere else (Safari, older browsers).
 */
export type RuntimeBuild = 'jspi' | 'asyncify';

/** Each build's download in MB (10^6 bytes), rounded; tests check them against the installed files. */
export const RUNTIME_DOWNLOAD_MB: Readonly<Record<RuntimeBuild, number>> = { jspi: 17, asyncify: 27 };

/** A compiled onnxruntime-web module and the build it came from. */
export interface LabRuntime {
  readonly build: RuntimeBuild;
  readonly module: WebAssembly.Module;
}

/** JSPI when the browser has it (`WebAssembly.Suspending`), else asyncify. */
export function chooseRuntimeBuild(wasm: object = WebAssembly): RuntimeBuild {
  return typeof (wasm as { Suspending?: unknown }).Suspending === 'function' ? 'jspi' : 'asyncify';
}

let runtime: Promise<LabRuntime> | undefined;

/**
 * The onnxruntime-web WebAssembly module, served by this site (never a CDN), downloaded and
 * compiled once per page, on the first Run. Every lab worker instantiates this one module (see
 * `worker/measured-runtime.ts`), so the machine code the engine compiles lazily while the first
 * worker starts is reused by the rest, and a second worker starts far sooner (docs/PERFORMANCE.md § Lab).
 */
export function loadRuntime(onProgress: (p: DownloadProgress) => void): Promise<LabRuntime> {
  const build = chooseRuntimeBuild();
  runtime ??= downloadWithProgress(build === 'jspi' ? jspiUrl : asyncifyUrl, onProgress)
    .then(async (bytes) => ({ build, module: await WebAssembly.compile(bytes) }))
    .catch((error: unknown) => {
      runtime = undefined;
      throw error;
    });
  return runtime;
}
