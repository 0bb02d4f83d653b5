/** Breakdown lines: every byte the estimate counts, with its label, its source and when it is alive. */
import type { Lifetime } from './timeline.ts';

/** What a line counts. */
export type LineCategory = 'weights' | 'gradients' | 'optimizer' | 'activations' | 'kvCache' | 'overhead';

/** Where the bytes live. */
export type LineDevice = 'gpu' | 'cpu' | 'nvme';

/** One line of the breakdown. */
export interface MemoryLine {
  /** Stable id, e.g. `weights`, `optimizer-moments`, `activations-layers`. */
  id: string;
  /** Category the totals group by. */
  category: LineCategory;
  /** Where the bytes live: one GPU, host RAM (per GPU process), or NVMe (per GPU process). */
  device: LineDevice;
  /** Human-readable label with the numbers that produced it. */
  label: string;
  /** Size in bytes: the most it holds at any moment of the step (a safe, non-negative integer). */
  bytes: number;
  /** Bytes alive at each moment of the step, in the order of the estimate's `timeline` (see timeline.ts). */
  live: Lifetime;
  /** One-line source of the formula. */
  source: string;
}

/** Create a line alive as `live` says; its size is its largest moment. Zero-byte lines are kept so the breakdown's shape is stable. */
export function line(
  id: string,
  category: LineCategory,
  device: LineDevice,
  label: string,
  live: Lifetime,
  source: string,
): MemoryLine {
  let bytes = 0;
  for (const alive of live) if (alive > bytes) bytes = alive;
  return { id, category, device, label, bytes, live, source };
}

/** Sum the bytes of lines on `device`, optionally of one category. */
export function sumLines(lines: readonly MemoryLine[], device: LineDevice, category?: LineCategory): number {
  let total = 0;
  for (const l of lines) if (l.device === device && (category === undefined || l.category === category)) total += l.bytes;
  return total;
}
