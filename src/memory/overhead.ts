/** Fixed overheads outside the model: CUDA context, cuBLAS workspace, and the recommended free margin. */
import type { GpuSpec } from './gpus.ts';
import { GIB, MIB } from '../base/bytes.ts';

/**
 * CUDA context per process, bytes. Measured 700–800 MiB before CUDA 11.7 lazy module loading
 * (PyTorch forums: discuss.pytorch.org/t/73021 "723 MiB", /t/81330 "~800mb"); lazy loading
 * (CUDA C++ Programming Guide, "Lazy Loading", default in PyTorch 2.x) cuts it; we take 500 MiB.
 */
export const CUDA_CONTEXT_BYTES = 500 * MIB;

/**
 * cuBLAS/cuBLASLt workspace per stream, bytes: PyTorch ATen CUDABlas.cpp (PR #120925, following the
 * cuBLAS docs for cublasSetWorkspace): 32 MiB on compute capability ≥ 9.0, 4 MiB on 8.x GPUs with
 * ≥ 24 GiB, else 1 MiB. Unknown GPU: 32 MiB (upper bound).
 */
export function cublasWorkspaceBytes(gpu: GpuSpec | null): number {
  const cc = gpu?.computeCapability ?? null;
  if (cc === null) return 32 * MIB;
  if (cc >= 9) return 32 * MIB;
  if (cc >= 8 && gpu !== null && gpu.memoryBytes >= 24 * GIB) return 4 * MIB;
  return 1 * MIB;
}

/** Default free margin to keep against allocator fragmentation, percent of GPU memory (the site recommends 5–10 %). */
export const DEFAULT_HEADROOM_PERCENT = 10;

/** Recommended free margin in bytes: floor(memory × percent / 100). */
export function headroomBytes(gpu: GpuSpec, percent: number): number {
  return Math.floor((gpu.memoryBytes * percent) / 100);
}
