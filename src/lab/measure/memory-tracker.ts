/**
 * Counts GPU buffer bytes as a WebGPU device allocates and frees them: live bytes, the peak,
 * a timeline, and labelled phases (e.g. "weights" vs "step"). Pure: the browser hooks in
 * webgpu-hooks.ts feed it events, and tests feed it by hand.
 *
 * onnxruntime-web keeps freed buffers in its own cache, so "live" here is what the runtime has
 * *reserved* from the device, like `torch.cuda.memory_reserved()`, not what tensors use.
 */

/** One point of the timeline: live bytes after an allocation or a free. */
export interface TimelinePoint {
  /** Milliseconds since the tracker started (from the injected clock). */
  readonly t: number;
  /** Live counted bytes after the event. */
  readonly bytes: number;
}

/** Live and peak bytes over one labelled phase. */
export interface PhaseMemory {
  readonly label: string;
  /** Live bytes when the phase began. */
  readonly startBytes: number;
  /** Highest live bytes seen during the phase. */
  readonly peakBytes: number;
  /** Live bytes when the phase ended. */
  readonly endBytes: number;
}

/** What a tracker has seen so far. */
export interface MemorySnapshot {
  readonly liveBytes: number;
  readonly peakBytes: number;
  /** Buffers created that were counted (and how many of those are still alive). */
  readonly buffersCreated: number;
  readonly buffersLive: number;
  readonly phases: readonly PhaseMemory[];
  readonly timeline: readonly TimelinePoint[];
}

/** Options of `createMemoryTracker`. */
export interface MemoryTrackerOptions {
  /** Clock in milliseconds; defaults to `performance.now`. */
  readonly now?: () => number;
  /** Most timeline points kept; older points are thinned by half when full. Defaults to 2,000. */
  readonly maxTimelinePoints?: number;
}

/** A tracker of one device's buffers. Buffer identity is whatever object the caller passes. */
export interface MemoryTracker {
  /** A buffer of `size` bytes was created. */
  allocated(buffer: object, size: number): void;
  /** A buffer was destroyed; unknown or already-destroyed buffers are ignored. */
  freed(buffer: object): void;
  /** Starts a labelled phase (ending the previous one). */
  beginPhase(label: string): void;
  /** Ends the current phase, if any. */
  endPhase(): void;
  snapshot(): MemorySnapshot;
}

export function createMemoryTracker({
  now = () => performance.now(),
  maxTimelinePoints = 2000,
}: MemoryTrackerOptions = {}): MemoryTracker {
  const sizes = new Map<object, number>();
  const start = now();
  let live = 0;
  let peak = 0;
  let created = 0;
  let timeline: TimelinePoint[] = [{ t: 0, bytes: 0 }];
  const phases: PhaseMemory[] = [];
  let phase: { label: string; startBytes: number; peakBytes: number } | undefined;

  const record = (): void => {
    peak = Math.max(peak, live);
    if (phase) phase.peakBytes = Math.max(phase.peakBytes, live);
    timeline.push({ t: now() - start, bytes: live });
    // Keep the timeline bounded for long runs, always keeping the newest point.
    if (timeline.length > maxTimelinePoints) timeline = timeline.filter((_, i) => i % 2 === 0 || i === timeline.length - 1);
  };

  const endPhase = (): void => {
    if (!phase) return;
    phases.push({ ...phase, endBytes: live });
    phase = undefined;
  };

  return {
    allocated(buffer, size) {
      if (sizes.has(buffer) || !(size >= 0)) return;
      sizes.set(buffer, size);
      created += 1;
      live += size;
      record();
    },
    freed(buffer) {
      const size = sizes.get(buffer);
      if (size === undefined) return;
      sizes.delete(buffer);
      live -= size;
      record();
    },
    beginPhase(label) {
      endPhase();
      phase = { label, startBytes: live, peakBytes: live };
    },
    endPhase,
    snapshot() {
      const open = phase ? [{ ...phase, endBytes: live }] : [];
      return {
        liveBytes: live,
        peakBytes: peak,
        buffersCreated: created,
        buffersLive: sizes.size,
        phases: [...phases, ...open],
        timeline: [...timeline],
      };
    },
  };
}
