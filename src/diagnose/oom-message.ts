/**
 * Reads a CUDA out-of-memory message. Wording by PyTorch version, from
 * c10/cuda/CUDACachingAllocator.cpp (`malloc`, the OOM branch) and its `format_size`, which
 * prints sizes with two decimals in bytes/KiB/MiB/GiB, so every figure here is exact only to
 * that rounding:
 * - current (2.1 and later): "Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.54 GiB
 *   of which 1.12 GiB is free. [Process 123 has 1.00 GiB memory in use.] Including non-PyTorch
 *   memory, this process has 22.40 GiB memory in use. [2.00 GiB allowed;] Of the allocated memory
 *   19.87 GiB is allocated by PyTorch, [with 1.00 GiB allocated in private pools (e.g., CUDA Graphs),]
 *   and 2.05 GiB is reserved by PyTorch but unallocated."
 * - older (1.x, 2.0): "Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total capacity; 6.22 GiB
 *   already allocated; 11.25 MiB free; [6.00 GiB allowed;] 6.44 GiB reserved in total by PyTorch)",
 *   and before 1.6 "... cached)" instead of "reserved in total by PyTorch".
 */
import { MAX_TEXT_CHARS, type UnreadNote } from './notes.ts';
import { sizeToBytes } from './parse-size.ts';

/** Which wording the message used. */
export type OomWording = 'current' | 'legacy';

/** Another process the message names as holding memory on the same GPU. */
export interface OtherProcess {
  pid: number;
  bytes: number;
}

/** Every figure an OOM message can hold, in bytes; null where this message does not say. */
export interface OomMessage {
  wording: OomWording;
  gpuIndex: number | null;
  triedToAllocateBytes: number | null;
  totalBytes: number | null;
  freeBytes: number | null;
  /** "this process has ... memory in use", non-PyTorch memory included (current wording only). */
  processInUseBytes: number | null;
  /** Allocated by PyTorch (live tensors), private pools included as the message counts them. */
  allocatedBytes: number | null;
  /** Reserved by PyTorch minus allocated: cached blocks that are free but held. */
  reservedUnallocatedBytes: number | null;
  /** Reserved by PyTorch (caching allocator segments) = allocated + reserved-but-unallocated. */
  reservedBytes: number | null;
  /** "with X allocated in private pools (e.g., CUDA Graphs)". */
  privatePoolsBytes: number | null;
  /** "X allowed;": the cap set by `torch.cuda.set_per_process_memory_fraction`. */
  allowedBytes: number | null;
  /** In use by this process but not by PyTorch's allocator: CUDA context, cuBLAS/cuDNN workspaces, NCCL. */
  nonPyTorchBytes: number | null;
  otherProcesses: OtherProcess[];
  /** Reserved-but-unallocated over reserved: the share of PyTorch's cache that is idle. */
  fragmentationShare: number | null;
}

/** What `parseOomMessage` returns: the figures (or null when no OOM message was found) and what was not read. */
export interface OomParse {
  message: OomMessage | null;
  unread: UnreadNote[];
}

/** A size as format_size prints it; captures number and unit. */
const SIZE = String.raw`(\S+)\s+(bytes|KiB|MiB|GiB|TiB|PiB)`;

const size = (match: RegExpExecArray | null, at = 1): number | null =>
  match ? sizeToBytes(match[at] ?? '', match[at + 1] ?? '') : null;

/** Whether `text` contains a CUDA out-of-memory message. */
export function looksLikeOomMessage(text: string): boolean {
  return /out of memory\.?\s+Tried to allocate/i.test(text.slice(0, MAX_TEXT_CHARS));
}

/** Reads the last CUDA OOM message in `text` (tracebacks around it are fine); never throws. */
export function parseOomMessage(text: string): OomParse {
  const unread: UnreadNote[] = [];
  // Messages are often wrapped or pasted from logs: one space per run of whitespace.
  const flat = text.slice(0, MAX_TEXT_CHARS).replace(/\s+/g, ' ');
  let start = -1;
  for (const match of flat.matchAll(/CUDA out of memory\. Tried to allocate/gi)) start = match.index;
  if (start < 0) {
    unread.push({ line: 0, message: 'no "CUDA out of memory. Tried to allocate …" message found' });
    return { message: null, unread };
  }
  const body = flat.slice(start, start + 4000);
  const wording: OomWording = /has a total capacity of/.test(body) ? 'current' : 'legacy';
  const find = (pattern: string): RegExpExecArray | null => new RegExp(pattern, 'i').exec(body);
  const tried = size(find(`Tried to allocate ${SIZE}`));
  const gpu = /GPU (\d{1,3})/.exec(body);
  let total: number | null;
  let free: number | null;
  let allocated: number | null;
  let reserved: number | null = null;
  let reservedUnallocated: number | null = null;
  let processInUse: number | null = null;
  let privatePools: number | null = null;
  if (wording === 'current') {
    total = size(find(`total capacity of ${SIZE}`));
    free = size(find(`of which ${SIZE} is free`));
    processInUse = size(find(`this process has ${SIZE} memory in use`));
    allocated = size(find(`Of the allocated memory ${SIZE} is allocated by PyTorch`));
    privatePools = size(find(`with ${SIZE} allocated in private pools`));
    reservedUnallocated = size(find(`and ${SIZE} is reserved by PyTorch but unallocated`));
    if (allocated !== null && reservedUnallocated !== null) reserved = allocated + reservedUnallocated;
  } else {
    total = size(find(`${SIZE} total capacity`));
    free = size(find(`${SIZE} free`));
    allocated = size(find(`${SIZE} already allocated`));
    reserved = size(find(`${SIZE} (?:reserved in total by PyTorch|cached)`));
    if (allocated !== null && reserved !== null) reservedUnallocated = Math.max(0, reserved - allocated);
  }
  const allowed = size(find(`${SIZE} allowed;`));
  const otherProcesses: OtherProcess[] = [];
  for (const match of body.matchAll(new RegExp(`Process (\\d{1,10}) has ${SIZE} memory in use`, 'gi'))) {
    const bytes = sizeToBytes(match[2] ?? '', match[3] ?? '');
    if (bytes !== null) otherProcesses.push({ pid: Number(match[1]), bytes });
  }
  const fields: [string, number | null][] = [
    ['tried to allocate', tried],
    ['total capacity', total],
    ['free', free],
    ['allocated by PyTorch', allocated],
    ['reserved by PyTorch', reserved],
  ];
  if (wording === 'current') fields.push(['in use by this process', processInUse]);
  for (const [name, value] of fields)
    if (value === null) unread.push({ line: 0, message: `could not read the "${name}" figure` });
  const nonPyTorch = processInUse !== null && reserved !== null ? Math.max(0, processInUse - reserved) : null;
  return {
    message: {
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
      otherProcesses,
      fragmentationShare:
        reserved !== null && reserved > 0 && reservedUnallocated !== null ? reservedUnallocated / reserved : null,
    },
    unread,
  };
}
