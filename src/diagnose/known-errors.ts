/**
 * Names errors people paste for an OOM message that are not one: each is raised outside PyTorch's
 * caching allocator, so none has the figures the OOM reader needs, and the refusal says what it is instead.
 */

/** A recognisable non-OOM error: what it is, and where to look instead. */
interface KnownError {
  pattern: RegExp;
  name: string;
}

/** Most specific first: a driver OOM also contains "out of memory". */
const KNOWN_ERRORS: readonly KnownError[] = [
  {
    pattern: /CUDA error: out of memory|cudaErrorMemoryAllocation|CUDA_ERROR_OUT_OF_MEMORY/i,
    name: 'a CUDA driver "out of memory" error (raised by a kernel or library, not by PyTorch\'s allocator, so it carries no figures; rerun with CUDA_LAUNCH_BLOCKING=1 to see which call)',
  },
  { pattern: /CUBLAS_STATUS_ALLOC_FAILED|CUBLAS_STATUS_\w+/, name: 'a cuBLAS error' },
  { pattern: /CUDNN_STATUS_\w+|cuDNN error/i, name: 'a cuDNN error' },
  { pattern: /NCCL (?:error|WARN)|ncclSystemError|ncclInternalError|ncclUnhandledCudaError/, name: 'an NCCL error' },
  { pattern: /ResourceExhaustedError|OOM when allocating tensor/, name: 'a TensorFlow out-of-memory error' },
  { pattern: /device-side assert triggered/, name: 'a CUDA device-side assert (an index out of range, usually)' },
  {
    pattern: /HIP error: out of memory|hipErrorOutOfMemory/i,
    name: 'a HIP driver "out of memory" error (raised outside PyTorch\'s allocator, so it carries no figures)',
  },
];

/** What `text` looks like when it is a known error that is not an allocator OOM message, or null. */
export function recognizeKnownError(text: string): string | null {
  const head = text.slice(0, 1 << 20);
  return KNOWN_ERRORS.find((e) => e.pattern.test(head))?.name ?? null;
}
