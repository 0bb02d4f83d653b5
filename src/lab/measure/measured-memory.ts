/**
 * What every measurement reports, single device, virtual GPU or distillation model alike, and
 * the one way bytes are read from it: above the baseline the run started from, never below 0.
 */
import type { PhaseMemory, TimelinePoint } from './memory-tracker';

/** What a measurement counts: WebGPU storage buffers, or the WebAssembly heap's high-water mark. */
export type MemoryKind = 'webgpu-buffers' | 'wasm-heap';

/** What a measured run counted, in the unit of its `kind`. */
export interface MeasuredMemory {
  readonly kind: MemoryKind;
  /** Counted bytes when the run started (runtime and device set up, no session). */
  readonly baselineBytes: number;
  /** Highest counted bytes during the run. */
  readonly peakBytes: number;
  /** Counted bytes at rest: sessions created, weights (and any optimizer state) placed, nothing run. */
  readonly atRestBytes: number;
  /** Counted bytes after the last step (what stays between steps). */
  readonly heldBytes: number;
  /** The tracker's labelled phases so far (WebGPU; none on WASM). */
  readonly phases: readonly PhaseMemory[];
  /**
   * Bytes over the run: on WebGPU every allocation and free, relative to the baseline; on WASM
   * the heap's size sampled around each graph run.
   */
  readonly timeline: readonly TimelinePoint[];
}

/** Bytes counted above a baseline, clamped at 0 (a cache may hand back what the baseline held). */
export function bytesAbove(baselineBytes: number, bytes: number): number {
  return Math.max(0, bytes - baselineBytes);
}

/** What a run added over its fresh runtime at its peak. */
export function peakAbove(memory: Pick<MeasuredMemory, 'baselineBytes' | 'peakBytes'>): number {
  return bytesAbove(memory.baselineBytes, memory.peakBytes);
}
