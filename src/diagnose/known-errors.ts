/**
 * Names errors people paste for an OOM message that are not one: each is raised outside PyTorch's
 * caching allocator, so none has the figures the OOM reader needs, and the refusal says what it is instead.
 */

/** The errors recognised, by id. */
export type KnownErrorId = 'cuda-driver' | 'cublas' | 'cudnn' | 'nccl' | 'tensorflow' | 'device-assert' | 'hip-driver';

/** What each error is, and where to look instead: the words a refusal quotes (the English; a page may give its own). */
export const KNOWN_ERROR_NAMES: Readonly<Record<KnownErrorId, string>> = {
  'cuda-driver':
    'a CUDA driver "out of memory" error (raised by a kernel or library, not by PyTorch\'s allocator, so it carries no figures; rerun with CUDA_LAUNCH_BLOCKING=1 to see which call)',
  cublas: 'a cuBLAS error',
  cudnn: 'a cuDNN error',
  nccl: 'an NCCL error',
  tensorflow: 'a TensorFlow out-of-memory error',
  'device-assert': 'a CUDA device-side assert (an index out of range, usually)',
  'hip-driver': 'a HIP driver "out of memory" error (raised outside PyTorch\'s allocator, so it carries no figures)',
};

/** A recognisable non-OOM error: the pattern that gives it away. */
interface KnownError {
  pattern: RegExp;
  id: KnownErrorId;
}

/** Most specific first: a driver OOM also contains "out of memory". */
const KNOWN_ERRORS: readonly KnownError[] = [
  { pattern: /CUDA error: out of memory|cudaErrorMemoryAllocation|CUDA_ERROR_OUT_OF_MEMORY/i, id: 'cuda-driver' },
  { pattern: /CUBLAS_STATUS_ALLOC_FAILED|CUBLAS_STATUS_\w+/, id: 'cublas' },
  { pattern: /CUDNN_STATUS_\w+|cuDNN error/i, id: 'cudnn' },
  { pattern: /NCCL (?:error|WARN)|ncclSystemError|ncclInternalError|ncclUnhandledCudaError/, id: 'nccl' },
  { pattern: /ResourceExhaustedError|OOM when allocating tensor/, id: 'tensorflow' },
  { pattern: /device-side assert triggered/, id: 'device-assert' },
  { pattern: /HIP error: out of memory|hipErrorOutOfMemory/i, id: 'hip-driver' },
];

/** Which known error `text` is when it is one that is not an allocator OOM message, or null. */
export function recognizeKnownError(text: string): KnownErrorId | null {
  const head = text.slice(0, 1 << 20);
  return KNOWN_ERRORS.find((e) => e.pattern.test(head))?.id ?? null;
}
