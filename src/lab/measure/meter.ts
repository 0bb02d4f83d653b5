/**
 * Counting bytes for a measurement: the live bytes of a memory tracker (fed by the WebGPU buffer
 * hooks, or by a test) or, on WASM, the WebAssembly heap's size. A measurement starts from a
 * baseline, can be sampled (the heap has no events), and ends as a `MeasuredMemory`.
 */
import { bytesAbove, type MeasuredMemory, type MemoryKind } from './measured-memory';
import type { MemoryTracker, TimelinePoint } from './memory-tracker';

/** The WebAssembly heap's size (worker/wasm-heap.ts). */
export interface HeapSize {
  /** Current total bytes of the heaps created so far (their high-water mark). */
  bytes(): number;
}

/** One measurement in progress. */
export interface Measurement {
  /** Counted bytes when it started. */
  readonly baselineBytes: number;
  /** Counted bytes now. */
  counted(): number;
  /** Counted bytes now above the baseline. */
  aboveBaseline(): number;
  /** Records a timeline point where nothing else does (the WASM heap); a no-op on WebGPU. */
  sample(): void;
  /** Ends the measurement (and its tracker phase) with what was counted at rest and after the last step. */
  finish(atRestBytes: number, heldBytes: number): MeasuredMemory;
}

/** Counts bytes for measurements, one at a time. */
export interface Meter {
  readonly kind: MemoryKind;
  /** Counted bytes now. */
  counted(): number;
  /** Starts a measurement: a tracker phase labelled `label`, and its baseline. */
  start(label: string): Measurement;
}

/** A meter over a tracker, or over the heap when there is one (WASM). */
export function createMeter(tracker: MemoryTracker, heap?: HeapSize, now: () => number = () => performance.now()): Meter {
  const counted = (): number => heap?.bytes() ?? tracker.snapshot().liveBytes;
  return {
    kind: heap ? 'wasm-heap' : 'webgpu-buffers',
    counted,
    start(label) {
      const baselineBytes = counted();
      const timelineStart = tracker.snapshot().timeline.length;
      const started = now();
      const heapTimeline: TimelinePoint[] = [];
      const sample = (): void => {
        if (heap) heapTimeline.push({ t: now() - started, bytes: heap.bytes() });
      };
      tracker.beginPhase(label);
      sample();
      return {
        baselineBytes,
        counted,
        aboveBaseline: () => bytesAbove(baselineBytes, counted()),
        sample,
        finish(atRestBytes, heldBytes) {
          tracker.endPhase();
          const snapshot = tracker.snapshot();
          const startT = snapshot.timeline[timelineStart]?.t ?? 0;
          return {
            kind: heap ? 'wasm-heap' : 'webgpu-buffers',
            baselineBytes,
            peakBytes: heap ? heap.bytes() : (snapshot.phases.at(-1)?.peakBytes ?? snapshot.peakBytes),
            atRestBytes,
            heldBytes,
            phases: heap ? [] : snapshot.phases,
            // Both timelines count bytes above the baseline, the quantity the results table reports.
            timeline: heap
              ? heapTimeline.map((p) => ({ t: p.t, bytes: p.bytes - baselineBytes }))
              : snapshot.timeline.slice(timelineStart).map((p) => ({ t: p.t - startT, bytes: p.bytes - baselineBytes })),
          };
        },
      };
    },
  };
}
