/**
 * Reads `torch.cuda.memory_summary()` output. Layout from `memory_summary` in
 * torch/cuda/memory.py: a header with the device ID, "CUDA OOMs" and "cudaMalloc retries", then one
 * row per metric with Cur Usage | Peak Usage | Tot Alloc | Tot Freed, each followed by its "from
 * large pool" / "from small pool" rows unless abbreviated. Sizes come from `_format_size`, which
 * floors to the largest unit that keeps the metric's current value at 768 or more (B, KiB, MiB,
 * GiB…), so each figure is exact only to that unit; counts from `_format_count` use K and M (10^3, 10^6).
 */
import { MAX_TEXT_CHARS, NoteList, type UnreadNote } from './notes.ts';
import { BYTES_PER_UNIT, MAX_PLAUSIBLE_BYTES } from './parse-size.ts';

/** One metric's four columns (bytes for sizes, a count for counts). */
export interface SummaryFigures {
  current: number;
  peak: number;
  totalAllocated: number;
  totalFreed: number;
}

/** A metric's overall row and its large/small pool rows where printed. */
export interface SummaryMetric {
  all: SummaryFigures;
  largePool: SummaryFigures | null;
  smallPool: SummaryFigures | null;
}

/** The rows this reader knows, keyed by a stable id; the value is the row title PyTorch prints. */
export const SUMMARY_ROWS = {
  allocated: 'Allocated memory',
  active: 'Active memory',
  requested: 'Requested memory',
  reserved: 'GPU reserved memory',
  nonReleasable: 'Non-releasable memory',
  allocations: 'Allocations',
  activeAllocs: 'Active allocs',
  segments: 'GPU reserved segments',
  nonReleasableAllocs: 'Non-releasable allocs',
  oversizeAllocations: 'Oversize allocations',
  oversizeSegments: 'Oversize GPU segments',
} as const;

/** A row id of SUMMARY_ROWS. */
export type SummaryRowId = keyof typeof SUMMARY_ROWS;

const SIZE_ROWS: ReadonlySet<SummaryRowId> = new Set(['allocated', 'active', 'requested', 'reserved', 'nonReleasable']);

/** What `parseMemorySummary` returns. */
export interface MemorySummary {
  deviceId: number | null;
  cudaOoms: number | null;
  cudaMallocRetries: number | null;
  metrics: Partial<Record<SummaryRowId, SummaryMetric>>;
  unread: UnreadNote[];
}

/** Whether `text` contains a memory_summary table. */
export function looksLikeMemorySummary(text: string): boolean {
  return /PyTorch CUDA memory summary/.test(text.slice(0, 1 << 20));
}

const COUNT_SCALE: Readonly<Record<string, number>> = { '': 1, K: 1e3, M: 1e6 };

/** One cell: "  1536 MiB", "   512 B  ", "  1234   ", "    12 K ". */
function readCell(cell: string, isSize: boolean): number | null {
  const match = isSize ? /^\s*(\d{1,16})\s*(B|KiB|MiB|GiB|TiB|PiB)\s*$/.exec(cell) : /^\s*(\d{1,16})\s*([KM]?)\s*$/.exec(cell);
  if (!match) return null;
  const scale = isSize ? BYTES_PER_UNIT[(match[2] ?? '').toLowerCase()] : COUNT_SCALE[match[2] ?? ''];
  const value = Number(match[1]) * (scale ?? Number.NaN);
  return Number.isSafeInteger(value) && value <= MAX_PLAUSIBLE_BYTES ? value : null;
}

/** Reads a memory_summary table; never throws. Rows it cannot use are listed in `unread`. */
export function parseMemorySummary(text: string): MemorySummary {
  const notes = new NoteList();
  const lines = text.slice(0, MAX_TEXT_CHARS).split(/\r?\n/);
  const header = text.slice(0, 1 << 20);
  const number = (pattern: RegExp): number | null => {
    const match = pattern.exec(header);
    return match ? Number(match[1]) : null;
  };
  const summary: MemorySummary = {
    deviceId: number(/memory summary, device ID (\d{1,3})/),
    cudaOoms: number(/CUDA OOMs: (\d{1,12})/),
    cudaMallocRetries: number(/cudaMalloc retries: (\d{1,12})/),
    metrics: {},
    unread: [],
  };
  if (!looksLikeMemorySummary(text))
    notes.add(0, 'no "PyTorch CUDA memory summary" header: is this torch.cuda.memory_summary() output?');
  const titles = Object.entries(SUMMARY_ROWS) as [SummaryRowId, string][];
  let current: SummaryRowId | null = null;
  lines.forEach((line, i) => {
    const cells = line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|');
    if (cells.length !== 5) return;
    const title = (cells[0] ?? '').trim();
    const pool = /^from (large|small) pool$/.exec(title)?.[1];
    const id = pool === undefined ? (titles.find(([, t]) => t === title)?.[0] ?? null) : current;
    if (id === null) {
      if (title !== 'Metric') notes.add(i + 1, `unknown row "${title.slice(0, 40)}"`);
      return;
    }
    current = id;
    const values = cells.slice(1).map((cell) => readCell(cell, SIZE_ROWS.has(id)));
    if (values.some((v) => v === null)) {
      notes.add(i + 1, `row "${title}" has a value that is not ${SIZE_ROWS.has(id) ? 'a size' : 'a count'}`);
      return;
    }
    const [cur, peak, totalAllocated, totalFreed] = values as [number, number, number, number];
    const figures: SummaryFigures = { current: cur, peak, totalAllocated, totalFreed };
    if (pool === undefined) summary.metrics[id] = { all: figures, largePool: null, smallPool: null };
    else {
      const metric = summary.metrics[id];
      if (metric) metric[pool === 'large' ? 'largePool' : 'smallPool'] = figures;
    }
  });
  for (const required of ['allocated', 'reserved'] as const) {
    if (!summary.metrics[required]) notes.add(0, `no readable "${SUMMARY_ROWS[required]}" row`);
  }
  summary.unread = notes.list();
  return summary;
}
