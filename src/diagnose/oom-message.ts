/**
 * Reads an out-of-memory message from PyTorch's CUDA, ROCm (HIP) or Apple (MPS) allocator. Wording by
 * version, from c10/cuda/CUDACachingAllocator.cpp (`malloc`, the OOM branch) and its `format_size`,
 * which prints sizes with two decimals in bytes/KiB/MiB/GiB, so every figure here is exact only to
 * that rounding. ROCm builds hipify the same source, so their messages say "HIP" where CUDA's say "CUDA".
 * - current (2.2 and later): "Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.54 GiB
 *   of which 1.12 GiB is free. [Process 123 has 1.00 GiB memory in use.] [Including non-PyTorch
 *   memory, this process has 22.40 GiB memory in use.] [2.00 GiB allowed;] Of the allocated memory
 *   19.87 GiB is allocated by PyTorch, [with 1.00 GiB allocated in private pools (e.g., CUDA Graphs),]
 *   and 2.05 GiB is reserved by PyTorch but unallocated." The "this process" sentence is missing when
 *   the driver's process list does not hold PyTorch's own process id (a container's PID namespace).
 * - PyTorch 2.1: the same, with "total capacty" (sic).
 * - 1.4 to 2.0: "Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total capacity; 6.22 GiB already
 *   allocated; 11.25 MiB free; [6.00 GiB allowed;] 6.44 GiB reserved in total by PyTorch)", since the
 *   allocator statistics rework (pytorch/pytorch#27361).
 * - before that: "... 11.25 MiB free; 150.86 MiB cached)", where "cached" is memory held by the
 *   allocator but not used by the program, i.e. reserved but unallocated, not the reserved total
 *   (pytorch/pytorch#13751, which introduced the message: "cached" = cached − allocated).
 * - MPS: "MPS backend out of memory (MPS allocated: 5.56 GB, other allocations: 1.10 GB, max allowed:
 *   6.80 GB). Tried to allocate 768.00 MB on private pool." (aten/src/ATen/mps/MPSAllocator.mm), whose
 *   GB/MB/KB are binary (MPSAllocator.h `format_size` divides by 1024); newer builds print GiB/MiB.
 */
import { MAX_TEXT_CHARS, unreadNote, type UnreadNote } from './notes.ts';
import { cleanPaste } from './paste-cleanup.ts';
import { BYTES_PER_LEGACY_UNIT, sizeToBytes } from './parse-size.ts';

/** Which allocator printed the message. */
export type OomPlatform = 'cuda' | 'hip' | 'mps';

/** Which wording the message used: it says which PyTorch printed it and what "cached" means. */
export type OomWording = 'current' | 'pytorch-2.1' | 'reserved-in-total' | 'cached' | 'mps';

/** Another process the message names as holding memory on the same GPU. */
export interface OtherProcess {
  pid: number;
  bytes: number;
}

/** The figures of a message, by name, for saying which were read and which derived. */
export type OomFigure =
  | 'triedToAllocateBytes'
  | 'totalBytes'
  | 'freeBytes'
  | 'processInUseBytes'
  | 'allocatedBytes'
  | 'reservedUnallocatedBytes'
  | 'reservedBytes'
  | 'privatePoolsBytes'
  | 'allowedBytes'
  | 'nonPyTorchBytes'
  | 'fragmentationShare';

/** Every figure an OOM message can hold, in bytes; null where this message does not say. */
export interface OomMessage {
  platform: OomPlatform;
  wording: OomWording;
  gpuIndex: number | null;
  triedToAllocateBytes: number | null;
  totalBytes: number | null;
  freeBytes: number | null;
  /** "this process has ... memory in use", non-PyTorch memory included; or the process taken to be this job. */
  processInUseBytes: number | null;
  /** Allocated by PyTorch (live tensors), private pools included as the message counts them; MPS: "MPS allocated". */
  allocatedBytes: number | null;
  /** Reserved by PyTorch minus allocated: cached blocks that are free but held. */
  reservedUnallocatedBytes: number | null;
  /** Reserved by PyTorch (caching allocator segments) = allocated + reserved-but-unallocated. */
  reservedBytes: number | null;
  /** "with X allocated in private pools (e.g., CUDA Graphs)". */
  privatePoolsBytes: number | null;
  /** The cap: "X allowed;" (`set_per_process_memory_fraction`), or MPS's "max allowed" (the high watermark). */
  allowedBytes: number | null;
  /** In use by this process but not by PyTorch's allocator: CUDA context, library workspaces; MPS: "other allocations". */
  nonPyTorchBytes: number | null;
  /** Processes other than this job that hold memory on the GPU. */
  otherProcesses: OtherProcess[];
  /** The process the message lists among the others that is this job (see `processInUseBytes`), or null. */
  jobPid: number | null;
  /** Reserved-but-unallocated over reserved: the share of PyTorch's cache that is idle. */
  fragmentationShare: number | null;
  /** MPS: the pool the request was for ("shared" or "private"). */
  mpsPool: 'shared' | 'private' | null;
  /** The rule behind each figure computed from others; a non-null figure not listed here was read as printed. */
  derivedBy: Partial<Record<OomFigure, string>>;
  /** The phrase the message should end with is missing: it was cut off, and figures after the cut are unknown. */
  truncated: boolean;
}

/** What `parseOomMessage` returns: the figures (or null when no OOM message was found) and what was not read. */
export interface OomParse {
  message: OomMessage | null;
  unread: UnreadNote[];
}

/** A size as the allocators print it; captures number and unit. */
const SIZE = String.raw`(\S+)\s+(bytes|KiB|MiB|GiB|TiB|PiB|KB|MB|GB|TB)`;
/**
 * Where a message starts: the sentence each allocator begins with. The platform word may hold one space, where a
 * terminal's wrap cut it ("CUD" / "A out of memory") on a line that was not full width, so the joiner left it.
 */
const MESSAGE_START = /(C ?U ?D ?A|H ?I ?P) out of memory\. Tried to allocate|MPS backend out of memory \(/gi;

/**
 * One line of text with one space per run of whitespace, and without Markdown's bold markers, which issue
 * trackers' users put around the error ("**RuntimeError: CUDA out of memory.** Tried to allocate …").
 */
const flatten = (text: string): string => text.replace(/\*\*/g, '').replace(/\s+/g, ' ');

/** Whether `text` contains a CUDA, HIP or MPS out-of-memory message (after undoing log prefixes and wraps). */
export function looksLikeOomMessage(text: string): boolean {
  const cleaned = cleanPaste(text.slice(0, 1 << 20));
  return [cleaned.text, cleaned.linesAsPasted].some((candidate) =>
    /(?:C ?U ?D ?A|H ?I ?P) out of memory\.? Tried to allocate|MPS backend out of memory \(/i.test(flatten(candidate)),
  );
}

/** How many figures a reading holds: the measure that picks between the joined and the pasted lines. */
const figuresRead = (parse: OomParse): number =>
  parse.message === null ? -1 : Object.values(parse.message).filter((v) => typeof v === 'number').length;

/**
 * Reads the last OOM message in `text` (tracebacks, log prefixes and wraps around it are fine); never throws.
 * When the paste looks hard-wrapped, both the joined and the pasted lines are read and the reading with more
 * figures is kept: a terminal's wrap cuts words ("CU" / "DA"), but prose can reach the same width by chance.
 */
export function parseOomMessage(text: string): OomParse {
  const cleaned = cleanPaste(text.slice(0, MAX_TEXT_CHARS));
  const asPasted = readFlat(flatten(cleaned.linesAsPasted));
  if (cleaned.wrapWidth === null) return asPasted;
  const joined = readFlat(flatten(cleaned.text));
  return figuresRead(joined) > figuresRead(asPasted) ? joined : asPasted;
}

/** Reads the last OOM message in `flat`, text with one space per run of whitespace. */
function readFlat(flat: string): OomParse {
  const unread: UnreadNote[] = [];
  let start = -1;
  let platformWord = '';
  for (const match of flat.matchAll(MESSAGE_START)) {
    start = match.index;
    platformWord = (match[1] ?? 'MPS').replace(' ', '').toUpperCase();
  }
  if (start < 0) {
    unread.push(unreadNote(0, { code: 'noOomMessage' }));
    return { message: null, unread };
  }
  const platform: OomPlatform = platformWord === 'HIP' ? 'hip' : platformWord === 'CUDA' ? 'cuda' : 'mps';
  const body = flat.slice(start, start + 4000);
  const figure = (name: string, pattern: string): number | null => {
    const match = new RegExp(pattern, 'i').exec(body);
    if (!match) return null;
    const bytes = sizeToBytes(match[1] ?? '', match[2] ?? '', BYTES_PER_LEGACY_UNIT);
    if (bytes === null) unread.push(unreadNote(0, { code: 'figureUnread', params: { name, text: match[0].slice(0, 60) } }));
    return bytes;
  };
  const derivedBy: Partial<Record<OomFigure, string>> = {};
  const tried = figure('tried to allocate', `Tried to allocate ${SIZE}`);
  const allowed = figure('allowed', platform === 'mps' ? `max allowed: ${SIZE}` : `${SIZE} allowed;`);
  let wording: OomWording;
  let total: number | null = null;
  let free: number | null = null;
  let allocated: number | null;
  let reserved: number | null = null;
  let reservedUnallocated: number | null = null;
  let processInUse: number | null = null;
  let privatePools: number | null = null;
  let nonPyTorch: number | null = null;
  let mpsPool: 'shared' | 'private' | null = null;
  let truncated: boolean;
  if (platform === 'mps') {
    wording = 'mps';
    allocated = figure('MPS allocated', `MPS allocated: ${SIZE}`);
    nonPyTorch = figure('other allocations', `other allocations: ${SIZE}`);
    const pool = /on (shared|private) pool/i.exec(body)?.[1]?.toLowerCase();
    mpsPool = pool === 'shared' || pool === 'private' ? pool : null;
    truncated = !/Tried to allocate/i.test(body);
  } else if (/has a total capaci?ty of/i.test(body) || new RegExp(`Tried to allocate ${SIZE}\\. GPU`, 'i').test(body)) {
    // 2.1 and later end the request with a full stop; a paste cut right after it is still that wording.
    wording = /total capacty/i.test(body) ? 'pytorch-2.1' : 'current';
    total = figure('total capacity', `total capaci?ty of ${SIZE}`);
    free = figure('free', `of which ${SIZE} is free`);
    processInUse = figure('in use by this process', `this process has ${SIZE} memory in use`);
    allocated = figure('allocated by PyTorch', `Of the allocated memory ${SIZE} is allocated by PyTorch`);
    privatePools = figure('private pools', `with ${SIZE} allocated in private pools`);
    reservedUnallocated = figure('reserved but unallocated', `and ${SIZE} is reserved by PyTorch but unallocated`);
    truncated = !/is reserved by PyTorch but unallocated/i.test(body);
    if (allocated !== null && reservedUnallocated !== null) {
      reserved = allocated + reservedUnallocated;
      derivedBy.reservedBytes = 'allocated by PyTorch + reserved by PyTorch but unallocated';
    }
  } else {
    total = figure('total capacity', `${SIZE} total capacity`);
    free = figure('free', `${SIZE} free`);
    allocated = figure('allocated by PyTorch', `${SIZE} already allocated`);
    const cached = new RegExp(`${SIZE} cached`, 'i').test(body);
    wording = cached ? 'cached' : 'reserved-in-total';
    // The last figure names the wording; a paste that stops before it lost the message's end.
    truncated = !cached && !/reserved in total by PyTorch/i.test(body);
    if (cached) {
      reservedUnallocated = figure('cached', `${SIZE} cached`);
      if (allocated !== null && reservedUnallocated !== null) {
        reserved = allocated + reservedUnallocated;
        derivedBy.reservedBytes = 'already allocated + cached (before PyTorch 1.4, "cached" is reserved but unallocated)';
      }
    } else {
      reserved = figure('reserved by PyTorch', `${SIZE} reserved in total by PyTorch`);
      // A reserved total below allocated cannot be; the consistency check says so rather than printing a negative.
      if (allocated !== null && reserved !== null && reserved >= allocated) {
        reservedUnallocated = reserved - allocated;
        derivedBy.reservedUnallocatedBytes = 'reserved in total by PyTorch − already allocated';
      }
    }
  }
  const gpu = platform === 'mps' ? null : /GPU (\d{1,3})/.exec(body);
  const listed: OtherProcess[] = [];
  for (const match of body.matchAll(new RegExp(`Process (\\d{1,10}) has ${SIZE} memory in use`, 'gi'))) {
    const bytes = sizeToBytes(match[2] ?? '', match[3] ?? '', BYTES_PER_LEGACY_UNIT);
    if (bytes !== null) listed.push({ pid: Number(match[1]), bytes });
  }
  const job = findJobProcess(listed, processInUse, reserved ?? allocated);
  if (job !== null) {
    processInUse = job.bytes;
    derivedBy.processInUseBytes = `process ${job.pid} taken to be this job: the smallest listed process whose memory covers PyTorch's reserved total (in a container PyTorch cannot match its own process id)`;
  }
  if (processInUse !== null && reserved !== null && processInUse >= reserved) {
    nonPyTorch = processInUse - reserved;
    derivedBy.nonPyTorchBytes = 'in use by this process − reserved by PyTorch';
  }
  if (tried === null && !/Tried to allocate/i.test(body))
    unread.push(unreadNote(0, { code: 'figureMissing', params: { name: 'Tried to allocate' } }));
  if (
    platform !== 'mps' &&
    total === null &&
    !unread.some((n) => n.reason.code === 'figureUnread' && n.reason.params.name === 'total capacity')
  )
    unread.push(unreadNote(0, { code: 'figureMissing', params: { name: 'total capacity' } }));
  let fragmentationShare: number | null = null;
  if (reserved !== null && reserved > 0 && reservedUnallocated !== null) {
    fragmentationShare = reservedUnallocated / reserved;
    derivedBy.fragmentationShare = 'reserved but unallocated ÷ reserved';
  }
  return {
    message: {
      platform,
      wording,
      gpuIndex: gpu ? Number(gpu[1]) : null,
      triedToAllocateBytes: tried,
      totalBytes: total,
      freeBytes: free,
      processInUseBytes: processInUse,
      allocatedBytes: allocated,
      reservedUnallocatedBytes: reservedUnallocated,
      reservedBytes: reserved,
      privatePoolsBytes: privatePools,
      allowedBytes: allowed,
      nonPyTorchBytes: nonPyTorch,
      otherProcesses: listed.filter((p) => p.pid !== job?.pid),
      jobPid: job?.pid ?? null,
      fragmentationShare,
      mpsPool,
      derivedBy,
      truncated,
    },
    unread,
  };
}

/**
 * The listed process that is this job, when the message has no usable "this process" figure (absent, or
 * "0 bytes" while PyTorch holds memory): the smallest one holding at least PyTorch's reserved total,
 * since the job's process holds its reserved memory plus its CUDA context. Null when none qualifies.
 */
function findJobProcess(listed: OtherProcess[], processInUse: number | null, reserved: number | null): OtherProcess | null {
  if ((processInUse !== null && processInUse > 0) || reserved === null || reserved <= 0) return null;
  let best: OtherProcess | null = null;
  for (const p of listed) if (p.bytes >= reserved && (best === null || p.bytes < best.bytes)) best = p;
  return best;
}

/** The index of the line where the last OOM message in `lines` starts (or of its "out of memory" words), or -1. */
export function oomMessageLine(lines: readonly string[]): number {
  for (let i = lines.length - 1; i >= 0; i--) if (/out of memory/i.test(lines[i] ?? '')) return i;
  return -1;
}
