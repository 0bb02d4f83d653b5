/**
 * Analyses an unpickled `torch.cuda.memory._snapshot()` (what `_dump_snapshot` pickles): a dict with
 * `segments` (each with `device`, `address`, `total_size`, `segment_type` and `blocks` of
 * `address`/`size`/`state`/`frames`) and `device_traces` (one list per device of entries with
 * `action` alloc, free_requested, free_completed, segment_alloc, segment_free, segment_map,
 * segment_unmap, oom or snapshot, plus `addr`, `size`, `frames`, and `time_us` in recent versions;
 * for `oom`, `device_free`). Shapes: the `_snapshot` docstring in torch/cuda/memory.py. Active
 * memory follows PyTorch's own viewer (torch/utils/viz/MemoryViz.js): an allocation counts from
 * `alloc` until `free_completed`, and one freed in the trace without its `alloc` (the trace is a
 * ring buffer) or still active at the end was alive before the trace began.
 */
import { formatBytes, MIB } from '../base/bytes.ts';
import { wordCoded, type CodedSentence, type WordsOf } from '../base/coded-words.ts';
import { unpickle, wordPickleFault, type PickleFault, type PickleValue } from './pickle.ts';
import { NoteList, type UnreadNote } from './notes.ts';

/** One Python or C++ stack frame recorded with an allocation. */
export interface StackFrame {
  filename: string;
  line: number;
  name: string;
}

/** A live allocation at the peak. */
export interface LiveAllocation {
  address: number;
  sizeBytes: number;
  frames: StackFrame[];
}

/** A point of the active/reserved timeline. */
export interface TimelinePoint {
  /** Position in the device's trace. */
  event: number;
  /** Milliseconds since the first traced event, when the trace has `time_us`; else null. */
  ms: number | null;
  activeBytes: number;
  reservedBytes: number;
}

/** One segment at snapshot time: what cudaMalloc returned and how much of it holds live tensors. */
export interface SegmentUse {
  address: number;
  totalBytes: number;
  activeBytes: number;
  largestFreeBlockBytes: number;
  pool: 'large' | 'small' | 'unknown';
}

/** An `oom` entry of the trace. */
export interface SnapshotOom {
  device: number;
  event: number;
  /** Milliseconds since the device's first traced event, when the trace has `time_us`. */
  ms: number | null;
  requestedBytes: number;
  deviceFreeBytes: number | null;
  /** Active (allocated) bytes the trace had counted when the request failed: what was live at the OOM. */
  activeBytes: number;
  /** Reserved bytes the trace had counted then (segment events; 0 when the trace records none). */
  reservedBytes: number;
  frames: StackFrame[];
}

/** Everything the viewer shows about one device. */
export interface DeviceMemory {
  device: number;
  traceEvents: number;
  /** At most TIMELINE_POINTS points, keeping each bucket's highest active value. */
  timeline: TimelinePoint[];
  peakActiveBytes: number;
  peakEvent: number;
  /** Largest live allocations at the peak, at most TOP_ALLOCATIONS. */
  largestAtPeak: LiveAllocation[];
  segments: SegmentUse[];
  reservedBytes: number;
  activeBytesAtEnd: number;
  /** Reserved but not active at snapshot time over reserved: the idle share of the cache. */
  fragmentationShare: number | null;
}

/** What `analyzeSnapshot` returns. */
export interface SnapshotAnalysis {
  devices: DeviceMemory[];
  peakActiveBytes: number;
  oomEvents: SnapshotOom[];
  unread: UnreadNote[];
}

/** Points kept per timeline: enough for a chart as wide as a screen. */
export const TIMELINE_POINTS = 1500;
/** Live allocations listed at the peak. */
export const TOP_ALLOCATIONS = 15;
/** Frames kept per allocation. */
export const MAX_FRAMES = 12;

type Dict = Map<PickleValue, PickleValue>;

const isDict = (v: PickleValue | undefined): v is Dict => v instanceof Map;
const asList = (v: PickleValue | undefined): PickleValue[] => (Array.isArray(v) ? v : []);
/** A non-negative integer field, or null (bigints beyond 2^53 are not sizes). */
const intField = (d: Dict, key: string): number | null => {
  const v = d.get(key);
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null;
};
const strField = (d: Dict, key: string): string | null => {
  const v = d.get(key);
  return typeof v === 'string' ? v : null;
};

function readFrames(value: PickleValue | undefined): StackFrame[] {
  const frames: StackFrame[] = [];
  for (const f of asList(value)) {
    if (frames.length >= MAX_FRAMES) break;
    if (!isDict(f)) continue;
    const filename = strField(f, 'filename');
    if (filename === null || filename === '??') continue;
    frames.push({ filename, line: intField(f, 'line') ?? 0, name: strField(f, 'name') ?? '' });
  }
  return frames;
}

interface TraceEvent {
  action: string;
  addr: number;
  size: number;
  timeUs: number | null;
  source: Dict;
}

/**
 * A pickled `torch.cuda.memory_snapshot()` is the segment list alone (torch/cuda/memory.py: it returns
 * `_snapshot()["segments"]`): read it as a snapshot with segments and no trace. Anything else is returned as it is.
 */
function asSnapshot(value: PickleValue): PickleValue {
  const isSegmentList =
    Array.isArray(value) && value.length > 0 && value.every((s) => isDict(s) && intField(s, 'total_size') !== null);
  return isSegmentList ? new Map<PickleValue, PickleValue>([['segments', value]]) : value;
}

/** Whether `value` is shaped like a memory snapshot (a dict with segments or device_traces). */
export function looksLikeSnapshot(value: PickleValue): boolean {
  return isDict(value) && (Array.isArray(value.get('segments')) || Array.isArray(value.get('device_traces')));
}

/** Analyses a snapshot; never throws. Entries it cannot use are counted in `unread`. */
export function analyzeSnapshot(value: PickleValue): SnapshotAnalysis {
  const notes = new NoteList();
  if (!looksLikeSnapshot(value) || !isDict(value)) {
    notes.add(0, { code: 'notASnapshot' });
    return { devices: [], peakActiveBytes: 0, oomEvents: [], unread: notes.list() };
  }
  const segmentsByDevice = new Map<number, Dict[]>();
  let badSegments = 0;
  for (const s of asList(value.get('segments'))) {
    if (!isDict(s) || intField(s, 'total_size') === null) {
      badSegments += 1;
      continue;
    }
    const device = intField(s, 'device') ?? 0;
    const list = segmentsByDevice.get(device);
    if (list) list.push(s);
    else segmentsByDevice.set(device, [s]);
  }
  if (badSegments > 0) notes.add(0, { code: 'segmentsSkipped', params: { count: badSegments } });
  const traces = asList(value.get('device_traces'));
  const devices: DeviceMemory[] = [];
  const oomEvents: SnapshotOom[] = [];
  const deviceIds = new Set<number>([
    ...segmentsByDevice.keys(),
    ...traces.map((_, i) => i).filter((i) => asList(traces[i]).length > 0),
  ]);
  for (const device of [...deviceIds].sort((a, b) => a - b)) {
    let badEvents = 0;
    const events: TraceEvent[] = [];
    for (const e of asList(traces[device])) {
      const action = isDict(e) ? strField(e, 'action') : null;
      if (!isDict(e) || action === null) {
        badEvents += 1;
        continue;
      }
      events.push({
        action,
        addr: intField(e, 'addr') ?? -1,
        size: intField(e, 'size') ?? 0,
        timeUs: intField(e, 'time_us'),
        source: e,
      });
    }
    if (badEvents > 0) notes.add(0, { code: 'traceEntriesSkipped', params: { device, count: badEvents } });
    devices.push(analyzeDevice(device, events, segmentsByDevice.get(device) ?? [], oomEvents));
  }
  return { devices, peakActiveBytes: Math.max(0, ...devices.map((d) => d.peakActiveBytes)), oomEvents, unread: notes.list() };
}

/** Frees count from `free_completed` (MemoryViz.js); `free_requested` only marks the tensor as dropped. */
const ALLOC = 'alloc';
const FREE = 'free_completed';

function analyzeDevice(device: number, events: TraceEvent[], segments: Dict[], oomEvents: SnapshotOom[]): DeviceMemory {
  // Pass 1: allocations alive before the trace began.
  const liveInTrace = new Set<number>();
  const before = new Map<number, LiveAllocation>();
  let segmentDelta = 0;
  for (const e of events) {
    if (e.action === ALLOC) liveInTrace.add(e.addr);
    else if (e.action === FREE) {
      if (!liveInTrace.delete(e.addr) && !before.has(e.addr))
        before.set(e.addr, { address: e.addr, sizeBytes: e.size, frames: readFrames(e.source.get('frames')) });
    } else if (e.action === 'segment_alloc' || e.action === 'segment_map') segmentDelta += e.size;
    else if (e.action === 'segment_free' || e.action === 'segment_unmap') segmentDelta -= e.size;
  }
  const segmentUses: SegmentUse[] = [];
  let reservedAtEnd = 0;
  let activeAtEnd = 0;
  for (const s of segments) {
    const total = intField(s, 'total_size') ?? 0;
    let active = 0;
    let largestFree = 0;
    for (const b of asList(s.get('blocks'))) {
      if (!isDict(b)) continue;
      const size = intField(b, 'size') ?? 0;
      const state = strField(b, 'state') ?? '';
      if (state.startsWith('active')) {
        active += size;
        const address = intField(b, 'address');
        if (address !== null && !liveInTrace.has(address) && !before.has(address))
          before.set(address, { address, sizeBytes: size, frames: readFrames(b.get('frames')) });
      } else largestFree = Math.max(largestFree, size);
    }
    const type = strField(s, 'segment_type');
    segmentUses.push({
      address: intField(s, 'address') ?? 0,
      totalBytes: total,
      activeBytes: active,
      largestFreeBlockBytes: largestFree,
      pool: type === 'large' || type === 'small' ? type : 'unknown',
    });
    reservedAtEnd += total;
    activeAtEnd += active;
  }

  // Pass 2: replay for the timeline and the peak.
  const startActive = [...before.values()].reduce((sum, a) => sum + a.sizeBytes, 0);
  const live = new Map<number, number>([...before.values()].map((a) => [a.address, a.sizeBytes]));
  let active = startActive;
  let reserved = Math.max(0, reservedAtEnd - segmentDelta);
  let peakActive = startActive;
  let peakEvent = -1;
  const firstTime = events.find((e) => e.timeUs !== null)?.timeUs ?? null;
  const bucket = Math.max(1, Math.ceil(events.length / TIMELINE_POINTS));
  const timeline: TimelinePoint[] = [
    { event: 0, ms: firstTime === null ? null : 0, activeBytes: active, reservedBytes: reserved },
  ];
  let bucketBest: TimelinePoint | null = null;
  events.forEach((e, i) => {
    if (e.action === ALLOC) {
      live.set(e.addr, e.size);
      active += e.size;
    } else if (e.action === FREE) {
      const size = live.get(e.addr);
      if (size !== undefined) {
        active -= size;
        live.delete(e.addr);
      }
    } else if (e.action === 'segment_alloc' || e.action === 'segment_map') reserved += e.size;
    else if (e.action === 'segment_free' || e.action === 'segment_unmap') reserved = Math.max(0, reserved - e.size);
    else if (e.action === 'oom') {
      oomEvents.push({
        device,
        event: i + 1,
        ms: firstTime === null || e.timeUs === null ? null : (e.timeUs - firstTime) / 1000,
        requestedBytes: e.size,
        deviceFreeBytes: intField(e.source, 'device_free') ?? (e.addr >= 0 ? e.addr : null),
        activeBytes: active,
        reservedBytes: reserved,
        frames: readFrames(e.source.get('frames')),
      });
    }
    if (active > peakActive) {
      peakActive = active;
      peakEvent = i;
    }
    const point = {
      event: i + 1,
      ms: firstTime === null || e.timeUs === null ? null : (e.timeUs - firstTime) / 1000,
      activeBytes: active,
      reservedBytes: reserved,
    };
    if (bucketBest === null || point.activeBytes >= bucketBest.activeBytes) bucketBest = point;
    if ((i + 1) % bucket === 0 || i === events.length - 1) {
      timeline.push(bucketBest);
      bucketBest = null;
    }
  });

  // Pass 3: who was alive at the peak.
  // Frames are read only for the allocations listed, not for every one replayed.
  const atPeak = new Map<number, LiveAllocation | TraceEvent>(before);
  for (let i = 0; i <= peakEvent; i++) {
    const e = events[i] as TraceEvent;
    if (e.action === ALLOC) atPeak.set(e.addr, e);
    else if (e.action === FREE) atPeak.delete(e.addr);
  }
  const sizeOf = (a: LiveAllocation | TraceEvent): number => ('sizeBytes' in a ? a.sizeBytes : a.size);
  const largestAtPeak = [...atPeak.values()]
    .sort((a, b) => sizeOf(b) - sizeOf(a))
    .slice(0, TOP_ALLOCATIONS)
    .map((a) => ('sizeBytes' in a ? a : { address: a.addr, sizeBytes: a.size, frames: readFrames(a.source.get('frames')) }));
  return {
    device,
    traceEvents: events.length,
    timeline,
    peakActiveBytes: peakActive,
    peakEvent,
    largestAtPeak,
    segments: segmentUses.sort((a, b) => b.totalBytes - a.totalBytes),
    reservedBytes: reservedAtEnd,
    activeBytesAtEnd: activeAtEnd,
    fragmentationShare: reservedAtEnd > 0 ? (reservedAtEnd - activeAtEnd) / reservedAtEnd : null,
  };
}

/** Largest snapshot file accepted: 256 MiB; far larger ones would exhaust a tab's memory (docs/PERFORMANCE.md § Diagnose). */
export const MAX_SNAPSHOT_BYTES = 256 * MIB;

/** Why a snapshot file was not read, by code, in English: the CLI's words (a page words the code in its language). */
export const SNAPSHOT_REFUSAL_WORDS = {
  tooLarge: (p: { sizeBytes: number; limitBytes: number }): string =>
    `the file is ${formatBytes(p.sizeBytes, 'MiB', 0)}; this viewer reads snapshots up to ${formatBytes(p.limitBytes, 'MiB', 0)} (record fewer entries with _record_memory_history(max_entries=…))`,
  /** The unpickler's fault (pickle.ts) is worded with it, in the same language. */
  pickleUnread: (p: { fault: PickleFault }): string => wordPickleFault(p.fault),
  noSnapshotKeys: (): string =>
    'the pickle holds no "segments" or "device_traces": it is not a torch.cuda.memory._dump_snapshot() file',
};

/** What wording the refusals take: one function per code, with that code's parameters. */
export type SnapshotRefusalWords = WordsOf<typeof SNAPSHOT_REFUSAL_WORDS>;

/** Why a snapshot file was not read, as data: its code and, where its sentence has any, its parameters. */
export type SnapshotRefusal = CodedSentence<SnapshotRefusalWords>;

/** The sentence of `refusal` in `words` (English by default: what the CLI prints, and the `message` of a failed read). */
export function wordSnapshotRefusal(refusal: SnapshotRefusal, words: SnapshotRefusalWords = SNAPSHOT_REFUSAL_WORDS): string {
  return wordCoded(refusal, words);
}

/** What `readSnapshot` returns: the analysis, or why the file was not read, as data and as one English sentence. */
export type SnapshotRead =
  | { ok: true; analysis: SnapshotAnalysis }
  | {
      ok: false;
      /** Why, as data: what a page words. */
      refusal: SnapshotRefusal;
      /** Why, in English: what the CLI prints. */
      message: string;
      /** True when the pickle asked for code to be imported or run. */
      refused: boolean;
    };

/** The failed read for `refusal`, its English sentence worded from it. */
function refuse(refusal: SnapshotRefusal): SnapshotRead {
  const refused = refusal.code === 'pickleUnread' && refusal.params.fault.problem.code === 'refusedOpcode';
  return { ok: false, refusal, message: wordSnapshotRefusal(refusal), refused };
}

/** The refusal for a file of `sizeBytes` above MAX_SNAPSHOT_BYTES, or null when the size is fine (checked before reading it). */
export function refuseOversizeSnapshot(sizeBytes: number): SnapshotRead | null {
  return sizeBytes <= MAX_SNAPSHOT_BYTES
    ? null
    : refuse({ code: 'tooLarge', params: { sizeBytes, limitBytes: MAX_SNAPSHOT_BYTES } });
}

/** Size check, data-only unpickling and analysis of a snapshot file; never throws. */
export function readSnapshot(bytes: Uint8Array, onProgress?: (bytesRead: number) => void): SnapshotRead {
  const oversize = refuseOversizeSnapshot(bytes.length);
  if (oversize) return oversize;
  const result = unpickle(bytes, onProgress ? { onProgress } : {});
  if (!result.ok)
    return refuse({ code: 'pickleUnread', params: { fault: { problem: result.error.problem, at: result.error.at } } });
  const value = asSnapshot(result.value);
  if (!looksLikeSnapshot(value)) return refuse({ code: 'noSnapshotKeys' });
  return { ok: true, analysis: analyzeSnapshot(value) };
}
