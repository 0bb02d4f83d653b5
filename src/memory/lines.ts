/** Breakdown lines: every byte the estimate counts, with its label, its source and when it is alive. */
import type { Lifetime } from './timeline.ts';

/** What a line counts. */
export type LineCategory = 'weights' | 'gradients' | 'optimizer' | 'activations' | 'kvCache' | 'overhead';

/** Every category, in the order breakdowns list them. */
export const LINE_CATEGORIES: readonly LineCategory[] = [
  'weights',
  'gradients',
  'optimizer',
  'activations',
  'kvCache',
  'overhead',
];

/** Where the bytes live. */
export type LineDevice = 'gpu' | 'cpu' | 'nvme';

/** One line of the breakdown. */
export interface MemoryLine {
  /** Stable id, e.g. `weights`, `optimizer-moments`, `activations-layers`. */
  readonly id: string;
  /** Category the totals group by. */
  readonly category: LineCategory;
  /** Where the bytes live: one GPU, host RAM (per GPU process), or NVMe (per GPU process). */
  readonly device: LineDevice;
  /** Human-readable label with the numbers that produced it. */
  readonly label: string;
  /** Size in bytes: the most it holds at any moment of the step (a safe, non-negative integer). */
  readonly bytes: number;
  /** Bytes alive at each moment of the step, in the order of the estimate's `timeline` (see timeline.ts). */
  readonly live: Lifetime;
  /** One-line source of the formula. */
  readonly source: string;
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
  // An index loop: lifetimes come in both integer and double arrays, and for…of over them allocated an iterator result
  // per moment (why: see docs/PERFORMANCE.md § Planner search).
  for (let i = 0; i < live.length; i++) bytes = Math.max(bytes, live[i] ?? 0);
  return { id, category, device, label, bytes, live, source };
}
