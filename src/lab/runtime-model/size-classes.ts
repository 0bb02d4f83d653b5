/**
 * The size classes onnxruntime-web 1.30's native WebGPU provider rounds storage buffers up to, and
 * how many freed buffers of each class it keeps for reuse: `BUCKET_DEFAULT_LIMIT_TABLE` of
 * `BucketCacheManager`, the default storage-buffer cache (`storageBufferCacheMode: 'bucket'`), in
 * microsoft/onnxruntime `onnxruntime/core/providers/webgpu/buffer_manager.cc` (read at commit
 * 0568e2b6e59e68f5c47265deb3c2a2739804025c; the traces in tests/fixtures/lab/traces/, recorded with
 * onnxruntime-web 1.30.0, create storage buffers of these sizes only). Pure data and arithmetic.
 */

/** `[class size in bytes, freed buffers of that size kept for reuse]`, smallest first. */
export const SIZE_CLASSES: readonly (readonly [bytes: number, kept: number])[] = [
  [64, 250],
  [128, 200],
  [256, 200],
  [512, 200],
  [2048, 230],
  [4096, 200],
  [8192, 50],
  [16384, 50],
  [32768, 50],
  [65536, 50],
  [131072, 50],
  [262144, 50],
  [524288, 50],
  [1048576, 50],
  [2097152, 30],
  [4194304, 20],
  [8388608, 10],
  [12582912, 10],
  [16777216, 10],
  [26214400, 15],
  [33554432, 22],
  [44236800, 2],
  [58982400, 6],
  [67108864, 6],
  [134217728, 6],
  [167772160, 6],
];

/** Above the largest class, sizes round up to a multiple of 16 bytes (`NormalizeBufferSize`). */
const ALIGNMENT = 16;

/**
 * The bytes of the buffer onnxruntime creates for a tensor of `requestBytes`: the smallest class
 * that holds it (`CalculateBufferSize`'s `lower_bound`), else the size rounded up to 16 bytes. The
 * classes are 1.14× (64 MiB over 56.25 MiB) to 4× (2 KiB over 512 B) apart, so a tensor can take up
 * to four times its bytes: a 1 KiB tensor gets a 2 KiB buffer.
 */
export function bufferBytes(requestBytes: number): number {
  const sizeClass = SIZE_CLASSES.find(([bytes]) => bytes >= requestBytes);
  return sizeClass ? sizeClass[0] : Math.ceil(requestBytes / ALIGNMENT) * ALIGNMENT;
}

/** How many freed buffers of `bytes` the cache keeps (0 for a size that is no class: those are destroyed). */
export function keptOfSize(bytes: number): number {
  return SIZE_CLASSES.find(([size]) => size === bytes)?.[1] ?? 0;
}
