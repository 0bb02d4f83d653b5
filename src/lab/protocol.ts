/** Where a run executes. */
export type Backend = 'webgpu' | 'wasm';

/**
 * Why a run failed, in the terms the page explains to the reader. `needs-webgpu` is not a
 * failure but an experiment that has nothing to show without WebGPU, refusing to start.
 */
export type FailureKind = 'out-of-memory' | 'device-lost' | 'limits' | 'unsupported' | 'error' | 'needs-webgpu';
