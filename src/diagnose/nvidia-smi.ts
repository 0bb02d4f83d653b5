/**
 * Reads nvidia-smi output into per-GPU memory samples. Three forms:
 * - CSV from `nvidia-smi --query-gpu=timestamp,index,name,memory.used,memory.total,utilization.gpu --format=csv[,nounits] -l 1`,
 *   any subset and order of those columns (and `uuid`, `pci.bus_id`), values with or without units, GPUs interleaved
 *   (field names: `nvidia-smi --help-query-gpu`); without an `index` column, rows are told apart by uuid, bus id, or
 *   the repeating order of names, and never merged when none of these can tell;
 * - the default table that `nvidia-smi` / `nvidia-smi -l 1` prints, one table per sample (with or without the banner
 *   line), where each GPU's second row holds "used MiB / total MiB", followed by the Processes table (who holds the
 *   memory) and, on a MIG-partitioned GPU, the MIG devices table (each instance's own memory);
 * - `nvidia-smi -q` (`-d MEMORY`): the "FB Memory Usage" section of each GPU (BAR1 is the PCIe window onto
 *   that memory, not more of it).
 * - `nvidia-smi dmon` with its `fb` column (`-s m`: frame buffer MB used, one row per GPU per interval).
 * `dmon` without `fb`, and `-q -x` (XML), are named and refused: dmon's `mem` is the share of time memory was busy,
 * not memory used. A Markdown quote or log prefix on every line is stripped first (`cleanPaste`).
 */
import { MIB } from '../base/bytes.ts';
import { MAX_TEXT_CHARS, NoteList, type UnreadNote, type UnreadReason } from './notes.ts';
import { cleanPaste } from './paste-cleanup.ts';
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
  /** The PCI bus id ("00000000:4E:00.0") where the output shows it, or null. */
  busId: string | null;
  /** Capacity from memory.total, or null when the log does not say. */
  totalBytes: number | null;
  samples: GpuSample[];
}

/** One row of the Processes table: a process holding memory on a GPU. */
export interface GpuProcess {
  gpuIndex: number;
  pid: number;
  /** C (compute), G (graphics), C+G, or M/M+C (MPS server). */
  type: string;
  /** As printed: nvidia-smi shortens long paths with "...". */
  name: string;
  /** Its memory, or null where the driver does not say (Windows WDDM prints N/A). */
  usedBytes: number | null;
}

/** One MIG instance's memory, from the MIG devices table (a MIG instance has its own slice of the GPU's memory). */
export interface MigDevice {
  gpuIndex: number;
  gpuInstance: number;
  computeInstance: number;
  migIndex: number;
  usedBytes: number;
  totalBytes: number;
}

/** How rows were told apart as GPUs: a column that names the GPU, the repeating order of names, or only one seen. */
export type GpuIdentity = 'index' | 'uuid' | 'pci.bus_id' | 'name-order' | 'single';

/** What `parseNvidiaSmi` returns. */
export interface NvidiaSmiLog {
  form: 'csv' | 'table' | 'query' | 'dmon';
  /** True when `t` is milliseconds from timestamps; false when it is the sample number. */
  timed: boolean;
  /** How rows were assigned to GPUs. */
  toldApartBy: GpuIdentity;
  gpus: GpuSeries[];
  /** The Processes table's rows, in order (empty when the output has none). */
  processes: GpuProcess[];
  /** The MIG devices table's rows, in order (empty when the output has none). */
  migDevices: MigDevice[];
  unread: UnreadNote[];
}

/** Columns this reader uses, by their --query-gpu names. */
const COLUMNS = ['timestamp', 'index', 'name', 'uuid', 'pci.bus_id', 'memory.used', 'memory.total', 'utilization.gpu'] as const;
type Column = (typeof COLUMNS)[number];

/** Other --query-gpu names for the same fields (`nvidia-smi --help-query-gpu`). */
const COLUMN_ALIASES: Readonly<Record<string, Column>> = {
  gpu_name: 'name',
  gpu_uuid: 'uuid',
  gpu_bus_id: 'pci.bus_id',
};

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
    const name = match?.[1]?.toLowerCase() ?? '';
    const column = COLUMNS.find((c) => c === name) ?? COLUMN_ALIASES[name];
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
  private readonly byKey = new Map<string, GpuSeries>();
  private firstTime: number | null = null;

  /** Adds a reading of the GPU `key` names; `index` is its number when the output gives one, else the order seen. */
  add(
    key: string,
    index: number | null,
    name: string | null,
    busId: string | null,
    totalBytes: number | null,
    time: number | null,
    usedBytes: number,
  ): void {
    let series = this.byKey.get(key);
    if (!series) {
      series = { index: index ?? this.byKey.size, name, busId, totalBytes, samples: [] };
      this.byKey.set(key, series);
    }
    if (series.name === null && name !== null) series.name = name;
    if (totalBytes !== null) series.totalBytes = totalBytes;
    if (time !== null && this.firstTime === null) this.firstTime = time;
    const t = time === null || this.firstTime === null ? series.samples.length : time - this.firstTime;
    series.samples.push({ t, usedBytes });
  }

  build(): GpuSeries[] {
    return [...this.byKey.values()].sort((a, b) => a.index - b.index);
  }
}

/**
 * The shortest period with which `names` repeats (names[i] = names[i mod p]), or null when it repeats only with
 * period 1 (every row the same name) or not at all: nvidia-smi prints every GPU once per sample, in index order.
 */
function namePeriod(names: readonly string[]): number | null {
  for (let p = 2; p <= names.length; p++) {
    if (names.every((name, i) => name === names[i % p]) && new Set(names.slice(0, p)).size === p) return p;
  }
  return null;
}

/** A row of a CSV log that holds a reading, with its line number. */
interface CsvRow {
  line: number;
  cells: string[];
}

/**
 * How the rows of a CSV log are assigned to GPUs: by a column that names the GPU, by the repeating order of distinct
 * names, or, when nothing can tell GPUs apart, as one GPU with a note saying so.
 */
function csvIdentity(
  rows: readonly CsvRow[],
  positions: CsvHeader['positions'],
  notes: NoteList,
): { toldApartBy: GpuIdentity; keyOf: (row: CsvRow, order: number) => string } {
  const cellOf = (row: CsvRow, column: Column): string =>
    positions[column] === undefined ? '' : (row.cells[positions[column]] ?? '').trim();
  for (const column of ['index', 'uuid', 'pci.bus_id'] as const) {
    if (positions[column] !== undefined) return { toldApartBy: column, keyOf: (row) => `${column}:${cellOf(row, column)}` };
  }
  const period = positions.name === undefined ? null : namePeriod(rows.map((row) => cellOf(row, 'name')));
  if (period !== null) return { toldApartBy: 'name-order', keyOf: (_row, order) => `order:${order % period}` };
  if (rows.length > 1) notes.add(0, { code: 'gpusNotToldApart' });
  return { toldApartBy: 'single', keyOf: () => 'single' };
}

function parseCsv(lines: string[], headerAt: number, header: CsvHeader, notes: NoteList): NvidiaSmiLog {
  const { cellCount, positions, headerUnits } = header;
  const builder = new SeriesBuilder();
  const timed = positions.timestamp !== undefined;
  const rows: CsvRow[] = [];
  for (let i = headerAt + 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '') continue;
    const cells = line.split(',');
    if (line.includes('memory.used') && readCsvHeader(line)) continue; // a second run appended to the same file repeats the header
    if (cells.length !== cellCount) {
      notes.add(i + 1, { code: 'csvFieldCount', params: { fields: cells.length, headerFields: cellCount } });
      continue;
    }
    rows.push({ line: i + 1, cells });
  }
  const { toldApartBy, keyOf } = csvIdentity(rows, positions, notes);
  rows.forEach((row, order) => {
    const cell = (column: Column): string | undefined =>
      positions[column] === undefined ? undefined : row.cells[positions[column]];
    const used = readMemoryCell(cell('memory.used'), headerUnits['memory.used']);
    if (used === null) {
      notes.add(row.line, {
        code: 'usedNotMib',
        params: { column: 'memory.used', value: (cell('memory.used') ?? '').trim().slice(0, 40) },
      });
      return;
    }
    const indexText = cell('index')?.trim();
    if (indexText !== undefined && !/^\d{1,3}$/.test(indexText)) {
      notes.add(row.line, { code: 'indexNotGpu', params: { value: indexText.slice(0, 20) } });
      return;
    }
    const total = cell('memory.total') === undefined ? null : readMemoryCell(cell('memory.total'), headerUnits['memory.total']);
    let time: number | null = null;
    if (timed) {
      time = readTimestamp(cell('timestamp') ?? '');
      if (time === null) {
        notes.add(row.line, { code: 'timestampUnread', params: { value: (cell('timestamp') ?? '').trim().slice(0, 40) } });
        return;
      }
    }
    const index = indexText === undefined ? null : Number(indexText);
    builder.add(keyOf(row, order), index, cell('name')?.trim() || null, cell('pci.bus_id')?.trim() || null, total, time, used);
  });
  return { form: 'csv', timed, toldApartBy, gpus: builder.build(), processes: [], migDevices: [], unread: notes.list() };
}

/**
 * A GPU's first table row: "|   0  NVIDIA A100-SXM4-80GB          On  |   00000000:07:00.0 Off |". On Windows the
 * Persistence-M column reads WDDM or TCC, and a long name is cut with "..." right before it.
 */
const TABLE_GPU_ROW =
  /^\|\s+(\d{1,3})\s+(.+?)\s+(?:On|Off|WDDM|TCC)\s+\|\s*([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-9A-Fa-f])?/;
/** A GPU's second row holds memory as "4MiB /  81920MiB"; process rows have a single size. */
const TABLE_MEMORY = /\|\s*(\d{1,9})\s*MiB\s*\/\s*(\d{1,9})\s*MiB\s*\|/;
/**
 * A Processes row: GPU, then GI and CI (driver 450 and later, "N/A" without MIG), PID, type, name, memory:
 * "|    0   N/A  N/A     10734      C   ...Release/foo_bar      160MiB |"; WDDM prints "N/A" for the memory.
 */
const PROCESS_ROW =
  /^\|\s+(\d{1,3})\s+(?:(?:N\/A|\d{1,5})\s+(?:N\/A|\d{1,5})\s+)?(\d{1,10})\s+(C\+G|M\+C|C|G|M)\s+(.*?)\s+(\d{1,9}\s?MiB|N\/A)\s*\|/;
/** A MIG devices row: GPU, GI, CI, MIG index, then the instance's memory "14366MiB / 19968MiB". */
const MIG_ROW = /^\|\s+(\d{1,3})\s+(\d{1,3})\s+(\d{1,3})\s+(\d{1,3})\s+\|\s*(\d{1,9})MiB\s*\/\s*(\d{1,9})MiB\s*\|/;

function parseTables(lines: string[], notes: NoteList): NvidiaSmiLog {
  const builder = new SeriesBuilder();
  const processes: GpuProcess[] = [];
  const migDevices: MigDevice[] = [];
  let time: number | null = null;
  let timed = false;
  let section: 'gpus' | 'processes' | 'mig' = 'gpus';
  let pending: { index: number; name: string; busId: string | null; line: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const date = readTableDate(line);
    if (date !== null) {
      time = date;
      timed = true;
      section = 'gpus';
      continue;
    }
    if (/^\|\s*Processes:/.test(line)) {
      section = 'processes';
      continue;
    }
    if (/^\|\s*MIG devices:/.test(line)) {
      section = 'mig';
      continue;
    }
    if (/^\|\s*NVIDIA-SMI \d/.test(line)) section = 'gpus';
    if (section === 'processes') {
      const row = PROCESS_ROW.exec(line);
      if (row) {
        const used = row[5] === 'N/A' ? null : Number.parseInt(row[5] ?? '', 10) * MIB;
        processes.push({
          gpuIndex: Number(row[1]),
          pid: Number(row[2]),
          type: row[3] ?? '',
          name: row[4] ?? '',
          usedBytes: used,
        });
      }
      continue;
    }
    if (section === 'mig') {
      const row = MIG_ROW.exec(line);
      if (row) {
        const [gpuIndex, gpuInstance, computeInstance, migIndex, used, total] = row.slice(1, 7).map(Number) as number[];
        migDevices.push({
          gpuIndex: gpuIndex ?? 0,
          gpuInstance: gpuInstance ?? 0,
          computeInstance: computeInstance ?? 0,
          migIndex: migIndex ?? 0,
          usedBytes: (used ?? 0) * MIB,
          totalBytes: (total ?? 0) * MIB,
        });
      }
      continue;
    }
    const gpu = TABLE_GPU_ROW.exec(line);
    if (gpu) {
      if (pending) notes.add(pending.line, { code: 'noMemoryRow', params: { gpu: pending.index, atEnd: false } });
      pending = { index: Number(gpu[1]), name: gpu[2] ?? '', busId: gpu[3] ?? null, line: i + 1 };
      continue;
    }
    if (!pending) continue;
    const memory = TABLE_MEMORY.exec(line);
    if (memory) {
      const { index, name, busId } = pending;
      builder.add(`index:${index}`, index, name, busId, Number(memory[2]) * MIB, time, Number(memory[1]) * MIB);
      pending = null;
    }
  }
  if (pending) notes.add(pending.line, { code: 'noMemoryRow', params: { gpu: pending.index, atEnd: true } });
  return { form: 'table', timed, toldApartBy: 'index', gpus: builder.build(), processes, migDevices, unread: notes.list() };
}

/**
 * `nvidia-smi -q`: each "GPU 00000000:01:00.0" block's "FB Memory Usage" Total and Used (frame buffer: the GPU's own
 * memory); a repeated dump (`-q -l 1`) adds a reading per Timestamp line. GPUs are numbered in the order listed,
 * which is nvidia-smi's index order.
 */
function parseQuery(lines: string[], notes: NoteList): NvidiaSmiLog {
  const builder = new SeriesBuilder();
  let time: number | null = null;
  let gpu: { busId: string; name: string | null } | null = null;
  let inFb = false;
  let total: number | null = null;
  const field = (line: string, name: string): string | null =>
    new RegExp(`^\\s*${name}\\s*:\\s*(.*?)\\s*$`).exec(line)?.[1] ?? null;
  const size = (text: string | null): number | null => {
    const match = /^(\d{1,9})\s*MiB$/.exec(text ?? '');
    return match ? Number(match[1]) * MIB : null;
  };
  lines.forEach((line, i) => {
    const stamp = field(line, 'Timestamp');
    if (stamp !== null) {
      time = readTableDate(stamp);
      return;
    }
    const block = /^GPU ([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-9A-Fa-f])\s*$/.exec(line);
    if (block) {
      gpu = { busId: block[1] ?? '', name: null };
      inFb = false;
      return;
    }
    if (gpu === null) return;
    const name = field(line, 'Product Name');
    if (name !== null) gpu.name = name;
    if (/^\s+FB Memory Usage\s*$/.test(line)) {
      inFb = true;
      total = null;
      return;
    }
    if (/^\s+\S.*(?:Memory Usage|:)\s*$/.test(line) && !/^\s+(?:Total|Reserved|Used|Free)\s*:/.test(line)) inFb = false;
    if (!inFb) return;
    const totalHere = size(field(line, 'Total'));
    if (totalHere !== null) total = totalHere;
    const used = field(line, 'Used');
    if (used !== null) {
      const bytes = size(used);
      if (bytes === null)
        notes.add(i + 1, { code: 'usedNotMib', params: { column: 'FB memory Used', value: used.slice(0, 30) } });
      else builder.add(`bus:${gpu.busId}`, null, gpu.name, gpu.busId, total, time, bytes);
      inFb = false;
    }
  });
  return {
    form: 'query',
    timed: false,
    toldApartBy: 'pci.bus_id',
    gpus: builder.build(),
    processes: [],
    migDevices: [],
    unread: notes.list(),
  };
}

/**
 * dmon's header line, "# gpu   pwr  gtemp …": a Markdown paste may escape the # as \#, and a short paste where most
 * lines start with "# " loses it to `cleanPaste`.
 */
const DMON_HEADER = /^(?:\\?#)?\s*gpu\s+(?:pwr|sm|fb|mem|temp|gtemp)\b/im;

/**
 * `nvidia-smi dmon -s m` (or `-s pucvmet`): the `fb` column is frame buffer memory used in MB (MiB, as nvidia-smi
 * counts), one row per GPU per interval, the GPU index first; a `Time` column (`-o T`) gives the clock.
 */
function parseDmon(lines: string[], notes: NoteList): NvidiaSmiLog {
  const builder = new SeriesBuilder();
  const headerAt = lines.findIndex((line) => DMON_HEADER.test(line));
  const names = (lines[headerAt] ?? '').replace(/^\\?#/, '').trim().split(/\s+/);
  const fb = names.indexOf('fb');
  const gpu = names.indexOf('gpu');
  for (let i = headerAt + 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    // The units line ("# Idx  W  C …") and any repeated header.
    if (/^\s*(?:\\?#|Idx\b|gpu\b)/.test(line) || line.trim() === '') continue;
    const cells = line.trim().split(/\s+/);
    const index = Number(cells[gpu]);
    const used = /^\d{1,9}$/.test(cells[fb] ?? '') ? Number(cells[fb]) * MIB : null;
    if (cells.length !== names.length || !Number.isInteger(index) || used === null) {
      notes.add(i + 1, { code: 'dmonRowUnread' });
      continue;
    }
    builder.add(`index:${index}`, index, null, null, null, null, used);
  }
  return {
    form: 'dmon',
    timed: false,
    toldApartBy: 'index',
    gpus: builder.build(),
    processes: [],
    migDevices: [],
    unread: notes.list(),
  };
}

/** Outputs of nvidia-smi this reader names and refuses, with why and what to run instead. */
const REFUSED_OUTPUTS: readonly { pattern: RegExp; reason: UnreadReason }[] = [
  {
    // dmon without its fb column: nothing in it is memory used.
    pattern: /^(?:\\?#)?\s*gpu\s+(?:pwr|sm|mem|temp|gtemp)\b(?!.*\bfb\b)/im,
    reason: { code: 'dmonUtilization' },
  },
  {
    pattern: /<nvidia_smi_log>/,
    reason: { code: 'xmlOutput' },
  },
];

/** Whether `text` looks like nvidia-smi output (a CSV header with memory.used, a table with or without its banner, -q, dmon). */
export function looksLikeNvidiaSmi(text: string): boolean {
  const head = cleanPaste(text.slice(0, 1 << 16)).linesAsPasted;
  return (
    DMON_HEADER.test(head) ||
    /NVIDIA-SMI \d|==============NVSMI LOG==============|^\|\s*(?:Processes|MIG devices):/m.test(head) ||
    REFUSED_OUTPUTS.some((r) => r.pattern.test(head)) ||
    head.split('\n', 5).some((line) => readCsvHeader(line) !== null) ||
    (/^\|\s+\d{1,3}\s+.+?\s+(?:On|Off|WDDM|TCC)\s+\|/m.test(head) && TABLE_MEMORY.test(head))
  );
}

/** Reads nvidia-smi CSV, table or -q output; never throws. Lines it cannot use are listed in `unread`. */
export function parseNvidiaSmi(input: string): NvidiaSmiLog {
  const notes = new NoteList();
  if (input.length > MAX_TEXT_CHARS) notes.add(0, { code: 'textCut', params: { mebiChars: MAX_TEXT_CHARS / 2 ** 20 } });
  const lines = cleanPaste(input.slice(0, MAX_TEXT_CHARS)).linesAsPasted.split('\n');
  const head = lines.slice(0, 200).join('\n');
  const refused = REFUSED_OUTPUTS.find((r) => r.pattern.test(head));
  const empty = (form: NvidiaSmiLog['form']): NvidiaSmiLog => ({
    form,
    timed: false,
    toldApartBy: 'single',
    gpus: [],
    processes: [],
    migDevices: [],
    unread: notes.list(),
  });
  if (refused) {
    notes.add(0, refused.reason);
    return empty('table');
  }
  const headerAt = lines.findIndex((line) => readCsvHeader(line) !== null);
  if (headerAt >= 0) return parseCsv(lines, headerAt, readCsvHeader(lines[headerAt] ?? '') as CsvHeader, notes);
  if (/==============NVSMI LOG==============/.test(head)) return parseQuery(lines, notes);
  if (DMON_HEADER.test(head)) return parseDmon(lines, notes);
  const table = parseTables(lines, notes);
  if (table.gpus.length === 0 && table.processes.length === 0 && table.migDevices.length === 0) {
    notes.add(0, { code: 'noNvidiaSmi' });
    return { ...empty('csv'), unread: notes.list() };
  }
  return table;
}
