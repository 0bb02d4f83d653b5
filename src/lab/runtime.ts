import wasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import { downloadWithProgress, type DownloadProgress } from './download';

let runtime: Promise<ArrayBuffer> | undefined;

/**
 * The onnxruntime-web WebAssembly binary (the `webgpu` build, which also runs the WASM backend),
 * served by this site (never a CDN) and downloaded once per page, on the first Run.
 */
export function loadRuntimeBinary(onProgress: (p: DownloadProgress) => void): Promise<ArrayBuffer> {
  runtime ??= downloadWithProgress(wasmUrl, onProgress).catch((error: unknown) => {
    runtime = undefined;
    throw error;
  });
  return runtime;
}
