/**
 * Reads nvidia-smi output into per-GPU memory samples. Two forms:
 * - CSV from `nvidia-smi --query-gpu=timestamp,index,name,memory.used,memory.total,utilization.gpu --format=csv[,nounits] -l 1`,
 *   any subset and order of those columns, values with or without units, GPUs interleaved
 *   (field names: `nvidia-smi --help-query-gpu`);
 * - the default table that `nvidia-smi` / `nvidia-smi -l 1` prints, one table per sample, where each
 *   GPU's second row holds "used MiB / total MiB".
 */
import { MIB } from '../base/bytes.ts';
import { MAX_TEXT_CHARS, NoteList, type UnreadNote } from './notes.ts';
import { sizeToBytes } from './parse-size.ts';

/** One reading of one GPU. */
export interface GpuSample {
  /** Milliseconds since the first timestamp in the log, or the sample's position when the log has no timestamps. */
  t: number;
  usedBytes: number;
}

/** Everything read about one GPU. */
export interface GpuSeries {
  index: number;
  name: string | null;
  /** Capacity from memory.total, or null when the log does not say. */
  totalBytes: number | null;
  samples: GpuSample[];
}

/** What `parseNvidiaSmi` returns. */
export interface NvidiaSmiLog {
  form: 'csv' | 'table';
  /** True when `t` is milliseconds from timestamps; false when it is the sample number. */
  timed: boolean;
  gpus: GpuSeries[];
  unread: UnreadNote[];
}

/** Columns this reader uses, by their --query-gpu names. */
const COLUMNS = ['timestamp', 'index', 'name', 'memory.used', 'memory.total', 'utilization.gpu'] as const;
type Column = (typeof COLUMNS)[number];

/** Parsed header of a CSV log: which column is where, and the unit the header names for memory. */
interface CsvHeader {
  /** Cells in the header: a row with more or fewer (a decimal comma, a cut line) is not trusted. */
  cellCount: number;
  positions: Partial<Record<Column, number>>;
  headerUnits: Partial<Record<Column, string>>;
}

/** Reads "timestamp, index, memory.used [MiB]" (with `--format=csv`'s bracketed units) as a header, or null. */
function readCsvHeader(line: string): CsvHeader | null {
  const positions: Partial<Record<Column, number>> = {};
  const headerUnits: Partial<Record<Column, string>> = {};
  line.split(',').forEach((cell, position) => {
    const match = /^\s*([a-z._]+)\s*(?:\[([^\]]*)\])?\s*$/i.exec(cell);
    const name = match?.[1]?.toLowerCase();
    const column = COLUMNS.find((c) => c === name);
    if (column === undefined) return;
    positions[column] = position;
    if (match?.[2] !== undefined) headerUnits[column] = match[2];
  });
  return positions['memory.used'] === undefined ? null : { cellCount: line.split(',').length, positions, headerUnits };
}

/** A memory cell: "1234 MiB" (csv) or "1234" (csv,nounits, unit from the header). */
function readMemoryCell(cell: string | undefined, headerUnit: string | undefined): number | null {
  const match = /^\s*([^\s]+)\s*([A-Za-z]*)\s*$/.exec(cell ?? '');
  if (!match) return null;
  return sizeToBytes(match[1] ?? '', match[2] !== '' ? (match[2] ?? '') : (headerUnit ?? 'MiB'));
}

/** nvidia-smi's timestamp, "2024/05/07 10:00:01.123" (local time, no zone), as milliseconds on a fixed clock. */
export function readTimestamp(text: string): number | null {
  const match = /^\s*(\d{4})[/-](\d{2})[/-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?\s*$/.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  const fraction = match[7] === undefined ? 0 : Number(`0.${match[7]}`) * 1000;
  return Date.UTC(year, month - 1, day, hour, minute, second) + fraction;
}

/** The date line nvidia-smi prints above each table, "Tue May  7 10:00:01 2024", as milliseconds, or null. */
function readTableDate(line: string): number | null {
  const match = /^\s*[A-Z][a-z]{2}\s+([A-Z][a-z]{2})\s+(\d{1,2})\s+(\d{2}):(\d{2}):(\d{2})\s+(\d{4})\s*$/.exec(line);
  if (!match) return null;
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'].indexOf(match[1] ?? '');
  if (month < 0) return null;
  return Date.UTC(Number(match[6]), month, Number(match[2]), Number(match[3]), Number(match[4]), Number(match[5]));
}

class SeriesBuilder {
  private readonly byIndex = new Map<number, GpuSeries>();
  private firstTime: number | null = null;

  add(index: number, name: string | null, totalBytes: number | null, time: number | null, usedBytes: number): void {
    let series = this.byIndex.get(index);
    if (!series) {
      series = { index, name, totalBytes, samples: [] };
      this.byIndex.set(index, series);
    }
    if (series.name === null && name !== null) series.name = name;
    if (totalBytes !== null) series.totalBytes = totalBytes;
    if (time !== null && this.firstTime === null) this.firstTime = time;
    const t = time === null || this.firstTime === null ? series.samples.length : time - this.firstTime;
    series.samples.push({ t, usedBytes });
  }

  build(): GpuSeries[] {
    return [...this.byIndex.values()].sort((a, b) => a.index - b.index);
  }
}

function parseCsv(lines: string[], headerAt: number, header: CsvHeader, notes: NoteList): NvidiaSmiLog {
  const { cellCount, positions, headerUnits } = header;
  const builder = new SeriesBuilder();
  const timed = positions.timestamp !== undefined;
  for (let i = headerAt + 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '') continue;
    const cells = line.split(',');
    if (line.includes('memory.used') && readCsvHeader(line)) continue; // a second run appended to the same file repeats the header
    if (cells.length !== cellCount) {
      notes.add(i + 1, `${cells.length} fields where the header has ${cellCount} (a decimal comma, or a cut line?)`);
      continue;
    }
    const cell = (column: Column): string | undefined => (positions[column] === undefined ? undefined : cells[positions[column]]);
    const used = readMemoryCell(cell('memory.used'), headerUnits['memory.used']);
    if (used === null) {
      notes.add(i + 1, `memory.used "${(cell('memory.used') ?? '').trim().slice(0, 40)}" is not a size in MiB`);
      continue;
    }
    const indexText = cell('index')?.trim();
    const index = indexText === undefined ? 0 : /^\d{1,3}$/.test(indexText) ? Number(indexText) : null;
    if (index === null) {
      notes.add(i + 1, `index "${indexText?.slice(0, 20)}" is not a GPU number`);
      continue;
    }
    const total = cell('memory.total') === undefined ? null : readMemoryCell(cell('memory.total'), headerUnits['memory.total']);
    let time: number | null = null;
    if (timed) {
      time = readTimestamp(cell('timestamp') ?? '');
      if (time === null) {
        notes.add(i + 1, `timestamp "${(cell('timestamp') ?? '').trim().slice(0, 40)}" is not YYYY/MM/DD HH:MM:SS`);
        continue;
      }
    }
    builder.add(index, cell('name')?.trim() || null, total, time, used);
  }
  return { form: 'csv', timed, gpus: builder.build(), unread: notes.list() };
}

/** A GPU's first table row: "|   0  NVIDIA A100-SXM4-80GB          On  |   00000000:07:00.0 Off |". */
const TABLE_GPU_ROW = /^\|\s+(\d{1,3})\s+(.+?)\s+(?:On|Off)\s+\|/;
/** A GPU's second row holds memory as "4MiB /  81920MiB"; process rows have a single size. */
const TABLE_MEMORY = /\|\s*(\d{1,9})\s*MiB\s*\/\s*(\d{1,9})\s*MiB\s*\|/;

function parseTables(lines: string[], notes: NoteList): NvidiaSmiLog {
  const builder = new SeriesBuilder();
  let time: number | null = null;
  let timed = false;
  let pending: { index: number; name: string; line: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const date = readTableDate(line);
    if (date !== null) {
      time = date;
      timed = true;
      continue;
    }
    const gpu = TABLE_GPU_ROW.exec(line);
    if (gpu) {
      if (pending) notes.add(pending.line, `GPU ${pending.index}: no memory row follows`);
      pending = { index: Number(gpu[1]), name: gpu[2] ?? '', line: i + 1 };
      continue;
    }
    if (!pending) continue;
    const memory = TABLE_MEMORY.exec(line);
    if (memory) {
      builder.add(pending.index, pending.name, Number(memory[2]) * MIB, time, Number(memory[1]) * MIB);
      pending = null;
    }
  }
  if (pending) notes.add(pending.line, `GPU ${pending.index}: no memory row follows (truncated?)`);
  return { form: 'table', timed, gpus: builder.build(), unread: notes.list() };
}

/** Whether `text` looks like nvidia-smi output (a CSV header with memory.used, or a table). */
export function looksLikeNvidiaSmi(text: string): boolean {
  const head = text.slice(0, 4096);
  return /NVIDIA-SMI \d/.test(head) || head.split('\n', 5).some((line) => readCsvHeader(line) !== null);
}

/** Reads nvidia-smi CSV or table output; never throws. Lines it cannot use are listed in `unread`. */
export function parseNvidiaSmi(input: string): NvidiaSmiLog {
  const notes = new NoteList();
  if (input.length > MAX_TEXT_CHARS) notes.add(0, `only the first ${MAX_TEXT_CHARS / 2 ** 20} Mi characters were read`);
  const lines = input.slice(0, MAX_TEXT_CHARS).split(/\r?\n/);
  const headerAt = lines.findIndex((line) => readCsvHeader(line) !== null);
  if (headerAt >= 0) return parseCsv(lines, headerAt, readCsvHeader(lines[headerAt] ?? '') as CsvHeader, notes);
  const table = parseTables(lines, notes);
  if (table.gpus.length === 0 && !/NVIDIA-SMI/.test(input.slice(0, 4096))) {
    notes.add(
      0,
      'no CSV header naming memory.used and no nvidia-smi table found: run nvidia-smi with --format=csv (with its header line)',
    );
    return { ...table, form: 'csv', unread: notes.list() };
  }
  return table;
}
