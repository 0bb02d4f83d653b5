/**
 * Why a run failed, in the terms the page explains to the reader. `needs-webgpu` is not a
 * failure but an experiment that has nothing to show without WebGPU, refusing to start.
 */
export type FailureKind = 'out-of-memory' | 'device-lost' | 'limits' | 'unsupported' | 'error' | 'needs-webgpu';

/**
 * Sorts a runtime error into what the page tells the reader. Matches the wording that
 * WebGPU (`GPUOutOfMemoryError`, device loss) and onnxruntime-web use in their messages.
 */
export function classifyFailure(message: string): FailureKind {
  if (/out of memory|GPUOutOfMemoryError|Failed to allocate|Cannot allocate|\bOOM\b|allocation failed/i.test(message))
    return 'out-of-memory';
  if (/device (was )?lost|GPUDevice.*lost|device is lost/i.test(message)) return 'device-lost';
  if (/exceeds.*limit|maxBufferSize|maxStorageBufferBindingSize|larger than the maximum/i.test(message)) return 'limits';
  if (/requires f16|shader-f16|not supported|no available backend|Failed to get GPU adapter/i.test(message)) return 'unsupported';
  return 'error';
}
