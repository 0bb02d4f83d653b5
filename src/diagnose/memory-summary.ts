/**
 * Reads `torch.cuda.memory_summary()` output. Layout from `memory_summary` in
 * torch/cuda/memory.py: a header with the device ID, "CUDA OOMs" and "cudaMalloc retries", then one
 * row per metric with Cur Usage | Peak Usage | Tot Alloc | Tot Freed, each followed by its "from
 * large pool" / "from small pool" rows unless abbreviated, and a closing `|===…===|` rule. Sizes come
 * from `_format_size`, which floors to the largest unit that keeps the metric's current value at 768
 * or more (B, KiB, MiB, GiB…; before PyTorch 1.10 the same binary steps were named B, KB, MB, GB), so
 * each figure is exact only to that unit; counts from `_format_count` use K and M (10^3, 10^6).
 * Pastes add a logger's prefix to every line (undone by `cleanPaste`) or to the first line only, and
 * are often cut short: every complete row is read, and the cut is said.
 */
import { MAX_TEXT_CHARS, NoteList, type UnreadNote } from './notes.ts';
import { cleanPaste } from './paste-cleanup.ts';
import { BYTES_PER_LEGACY_UNIT, MAX_PLAUSIBLE_BYTES } from './parse-size.ts';

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
  /** The table stops before its closing rule: rows after the cut are unknown, not zero. */
  cutShort: boolean;
  /** Device IDs of further summaries in the same paste, which are not read (the first table is). */
  furtherDeviceIds: number[];
  unread: UnreadNote[];
}

/** A size cell as `_format_size` prints it, in today's units or the older KB/MB/GB names. */
const SIZE_CELL = /^\s*(\d{1,16})\s*(B|KiB|MiB|GiB|TiB|PiB|KB|MB|GB|TB|PB)\s*$/;
/** A complete five-cell row at the end of a line (a logger's prefix may stand before it). */
const TABLE_ROW = /\|([^|]*)\|([^|]*)\|([^|]*)\|([^|]*)\|([^|]*)\|\s*$/;
/** The header line; a paste may glue it to the rule before it ("|====||   PyTorch CUDA memory summary…"). */
const HEADER = /PyTorch CUDA memory summary(?:, device ID (\d{1,3}))?/g;
/** The rule that closes the table (and separates the header from the rows). */
const CLOSING_RULE = /^\s*\|={20,}\|\s*$/;

/**
 * Whether `text` contains a memory_summary table: its header, or, for a paste that starts below the header,
 * an "Allocated memory" or "GPU reserved memory" row with a size in it.
 */
export function looksLikeMemorySummary(text: string): boolean {
  const head = text.slice(0, 1 << 20);
  return (
    /PyTorch CUDA memory summary/.test(head) ||
    /^\s*\| (?:Allocated memory|GPU reserved memory) +\| +\d{1,16} ?[KMGTP]?i?B /m.test(head)
  );
}

const COUNT_SCALE: Readonly<Record<string, number>> = { '': 1, K: 1e3, M: 1e6 };

/** One cell: "  1536 MiB", "   512 B  ", "  1234   ", "    12 K ". */
function readCell(cell: string, isSize: boolean): number | null {
  const match = isSize ? SIZE_CELL.exec(cell) : /^\s*(\d{1,16})\s*([KM]?)\s*$/.exec(cell);
  if (!match) return null;
  const scale = isSize ? BYTES_PER_LEGACY_UNIT[(match[2] ?? '').toLowerCase()] : COUNT_SCALE[match[2] ?? ''];
  const value = Number(match[1]) * (scale ?? Number.NaN);
  return Number.isSafeInteger(value) && value <= MAX_PLAUSIBLE_BYTES ? value : null;
}

/**
 * Reads the first memory_summary table in `text` (a logger's prefix on every line is stripped first); never throws.
 * Rows it cannot use are listed in `unread`; a table cut short keeps the rows before the cut.
 */
export function parseMemorySummary(text: string): MemorySummary {
  const notes = new NoteList();
  const lines = cleanPaste(text.slice(0, MAX_TEXT_CHARS)).linesAsPasted.split('\n');
  const headers = lines.flatMap((line, i) => [...line.matchAll(HEADER)].map((m) => ({ line: i, deviceId: m[1] ?? null })));
  // A paste of several summaries (one per rank) is read up to the second header: mixing devices would add up nonsense.
  const start = headers[0]?.line ?? 0;
  const end = headers[1]?.line ?? lines.length;
  const table = lines.slice(start, end);
  const header = table.join('\n').slice(0, 1 << 20);
  const number = (pattern: RegExp): number | null => {
    const match = pattern.exec(header);
    return match ? Number(match[1]) : null;
  };
  const summary: MemorySummary = {
    deviceId: headers[0]?.deviceId == null ? null : Number(headers[0].deviceId),
    cudaOoms: number(/CUDA OOMs: (\d{1,12})/),
    cudaMallocRetries: number(/cudaMalloc retries: (\d{1,12})/),
    metrics: {},
    cutShort: false,
    furtherDeviceIds: headers.slice(1).flatMap((h) => (h.deviceId === null ? [] : [Number(h.deviceId)])),
    unread: [],
  };
  if (headers.length === 0) notes.add(0, { code: 'noSummaryHeader' });
  const titles = Object.entries(SUMMARY_ROWS) as [SummaryRowId, string][];
  let current: SummaryRowId | null = null;
  let lastRow = -1;
  let closed = false;
  table.forEach((line, i) => {
    if (CLOSING_RULE.test(line)) {
      closed = lastRow >= 0;
      return;
    }
    const cells = TABLE_ROW.exec(line)?.slice(1);
    const title = (cells?.[0] ?? line.replace(/^\s*\|/, '').split('|')[0] ?? '').trim();
    const pool = /^from (large|small) pool$/.exec(title)?.[1];
    const id = pool === undefined ? (titles.find(([, t]) => t === title)?.[0] ?? null) : current;
    if (cells === undefined) {
      // A row title with its figures missing is where the paste was cut.
      if (/^\s*\|\s*[A-Za-z]/.test(line)) {
        lastRow = i;
        closed = false;
      }
      return;
    }
    if (id === null) {
      if (title !== 'Metric' && title !== '')
        notes.add(start + i + 1, { code: 'unknownRow', params: { title: title.slice(0, 40) } });
      return;
    }
    current = id;
    lastRow = i;
    closed = false;
    const values = cells.slice(1).map((cell) => readCell(cell, SIZE_ROWS.has(id)));
    if (values.some((v) => v === null)) {
      notes.add(start + i + 1, { code: 'rowValueUnread', params: { title, sizes: SIZE_ROWS.has(id) } });
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
  summary.cutShort = lastRow >= 0 && !closed;
  if (summary.cutShort) notes.add(start + lastRow + 1, { code: 'tableCut' });
  for (const required of ['allocated', 'reserved'] as const) {
    if (!summary.metrics[required]) notes.add(0, { code: 'noRow', params: { title: SUMMARY_ROWS[required] } });
  }
  if (headers.length > 1) notes.add(0, { code: 'moreSummaries', params: { count: headers.length - 1 } });
  summary.unread = notes.list();
  return summary;
}
