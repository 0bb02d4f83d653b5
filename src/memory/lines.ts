/** Breakdown lines: every byte the estimate counts, with its label and its source. */

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
  /** Size in bytes (a safe, non-negative integer). */
  bytes: number;
  /** One-line source of the formula. */
  source: string;
}

/** Create a line; zero-byte lines are kept so the breakdown's shape is stable. */
export function line(id: string, category: LineCategory, device: LineDevice, label: string, bytes: number, source: string): MemoryLine {
  return { id, category, device, label, bytes, source };
}

/** Sum the bytes of lines on `device`, optionally of one category. */
export function sumLines(lines: readonly MemoryLine[], device: LineDevice, category?: LineCategory): number {
  let total = 0;
  for (const l of lines) if (l.device === device && (category === undefined || l.category === category)) total += l.bytes;
  return total;
}
