import { EXPLAIN_EN } from '../../../diagnose/explain';
import { KNOWN_ERROR_NAMES } from '../../../diagnose/known-errors';
import { UNREAD_WORDS } from '../../../diagnose/notes';
import { SNAPSHOT_REFUSAL_WORDS } from '../../../diagnose/snapshot';

/**
 * The diagnose tools' words in English (src/components/diagnose), one object per tool. The sentences about the
 * analysis itself come from the pure layer's English words (src/diagnose/explain.ts), which the CLI prints too.
 */
export const DIAGNOSE_EN = {
  /** The sentences the analysis produces: findings, verdicts, remedies, what each figure means. */
  explain: EXPLAIN_EN,
  /** What a pasted error that is not an allocator OOM is, by id. */
  knownErrors: KNOWN_ERROR_NAMES,
  /** Strings the input panel of every tool shares. */
  input: {
    privacy: 'Read in your browser: nothing you paste or drop leaves this page.',
    chooseFile: 'Choose or drop a file',
    pasteLabel: 'Or paste it here',
    analyse: 'Read it',
    examples: 'Try an example:',
    progress: (read: string, total: string) => `Reading… ${read} of ${total}`,
    /** The analysis worker died (out of memory, say): the browser's reason, when it gave one, is shown as it is. */
    failed: (browserReason: string | null) =>
      browserReason === null ? 'The analysis stopped.' : `The analysis stopped: ${browserReason}`,
    dropHere: 'Drop the file here',
    terminal: 'In a terminal, where the file is:',
    copyCommand: 'Copy as command',
    copiedCommand: 'Copied',
    /** Before a skipped line's reason, in the "Not read" list. */
    unreadLine: (line: number) => `line ${line}: `,
    /** Why a reader skipped a line (src/diagnose/notes.ts), the CLI's words. */
    unreadReasons: UNREAD_WORDS,
    /** After a label, before what it introduces ("Verdict: …"). */
    labelEnd: ': ',
    /** Between the parts of a list of facts ("CUDA, current wording, GPU 0"). */
    listSeparator: ', ',
    /** After a remedy's title, before its reason. */
    titleEnd: '. ',
    /** A list's title with how many it holds. */
    counted: (title: string, count: number) => `${title} (${count})`,
  },
  /** The nvidia-smi log reader. */
  nvidiaSmi: {
    title: 'nvidia-smi log',
    placeholder:
      'timestamp, index, name, memory.used [MiB], memory.total [MiB], utilization.gpu [%]\n2025/03/14 10:00:00.000, 0, NVIDIA A100-SXM4-80GB, 31500 MiB, 81920 MiB, 97 %',
    examples: {
      leak: 'two GPUs, a leak (CSV)',
      spike: 'a spike (CSV, nounits)',
      nearLimit: 'near the limit (nvidia-smi -l 1 tables)',
    },
    noSamples: 'No GPU memory samples found in this input.',
    chartLabel: (gpus: number) =>
      `Memory used over time for ${gpus} GPU${gpus === 1 ? '' : 's'}, with each GPU's capacity as a dashed line`,
    xTime: 'seconds from the first sample',
    xSample: 'sample',
    yUsed: 'memory used (GiB)',
    gpu: (index: number, name: string | null) => `GPU ${index}${name ? ` · ${name}` : ''}`,
    samples: (n: number) => `${n} samples`,
    next: 'Read next',
    unread: 'Not read',
  },
  /** The OOM message decoder. */
  oom: {
    title: 'OOM message',
    placeholder: 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of …',
    examples: {
      current: 'PyTorch 2.x, fragmented cache',
      otherProcess: 'another process on the GPU',
      legacy: 'PyTorch 1.x wording',
    },
    notFound: 'No CUDA, HIP or MPS "out of memory" message from PyTorch\'s allocator found in this input.',
    knownError: (name: string) => `This is ${name}, not an out-of-memory message from PyTorch's allocator.`,
    platform: { cuda: 'CUDA', hip: 'HIP (ROCm)', mps: 'MPS (Apple)' },
    figure: 'Figure',
    value: 'Value',
    source: 'Read or derived',
    rows: {
      tried: 'Tried to allocate',
      total: 'Total capacity',
      free: 'Free on the GPU',
      process: 'In use by this process (non-PyTorch included)',
      allocated: 'Allocated by PyTorch (live tensors)',
      reserved: 'Reserved by PyTorch',
      reservedUnallocated: 'Reserved by PyTorch but unallocated',
      privatePools: 'In private pools (CUDA Graphs)',
      allowed: 'Allowed (set_per_process_memory_fraction, or the MPS maximum)',
      nonPyTorch: "In this process but not PyTorch's",
      otherProcess: (pid: number) => `Process ${pid}`,
      fragmentation: 'Fragmentation share (reserved but unallocated ÷ reserved)',
    },
    read: 'read',
    findings: 'What does not add up',
    verdict: 'Verdict',
    rounding: 'PyTorch prints two decimals, so each figure is exact to about 0.01 of its unit.',
    remedies: 'What to try, most promising first',
    unread: 'Not read',
    summary: (deviceId: number | null) =>
      `The memory_summary in the same paste${deviceId === null ? '' : ` (device ${deviceId})`}`,
    summaryUnreadable: 'Nothing in it could be read; the message above is read on its own.',
    summaryUnread: 'Not read in the memory_summary',
    gpus: 'GPUs in this job (optional)',
    gpusHint: 'Sharding advice (ZeRO, FSDP) only helps with several GPUs; say how many and it stops being conditional.',
    traceback: 'Where it ran out',
  },
  /** The memory_summary reader. */
  summary: {
    title: 'memory_summary',
    placeholder:
      '|===========================================================================|\n|                  PyTorch CUDA memory summary, device ID 0                 |',
    examples: { finetune: 'a fine-tune after one OOM' },
    notFound: 'No readable "Allocated memory" or "GPU reserved memory" row in this input.',
    chartLabel: 'Allocated and reserved memory, current and peak',
    xGiB: 'GiB',
    current: 'now',
    peak: 'peak',
    allocated: 'allocated',
    reserved: 'reserved',
    figure: 'Figure',
    value: 'Value',
    meaning: 'What it means for you',
    rounding: 'memory_summary rounds each size down to its unit (B, KiB, MiB, GiB).',
    unread: 'Not read',
  },
  /** The snapshot viewer. */
  snapshot: {
    title: 'Memory snapshot',
    example: 'a 24 GiB card that runs out at the logits',
    /** A file that asked to import or run code, with why (`refusal`). */
    refused: (refusal: string) => `Refused: ${refusal}`,
    /** A file that could not be read, with why (`refusal`). */
    failed: (refusal: string) => `Could not read this file: ${refusal}`,
    /** Why a file was not read (src/diagnose/snapshot.ts), the CLI's words. */
    refusals: SNAPSHOT_REFUSAL_WORDS,
    peak: (bytes: string) => `Peak active memory ${bytes}`,
    timelineLabel: 'Active and reserved memory over the recorded trace, out-of-memory events marked',
    oomMark: 'OOM',
    xEvent: 'trace event',
    xMs: 'milliseconds from the first event',
    yGiB: 'memory (GiB)',
    active: 'active (live tensors)',
    reserved: 'reserved (segments)',
    largest: 'Largest live allocations at the peak',
    size: 'Size',
    where: 'Allocated at',
    noFrames: 'no stack recorded (record with _record_memory_history(stacks="python"))',
    segments: 'Segments against allocations',
    segmentsNote: (shown: number, total: number, idle: string) =>
      `The ${shown} largest of ${total} segments at snapshot time; ${idle} of reserved memory is not in use.`,
    segmentsLabel: "Each segment's size split into active and free bytes",
    segmentAxis: 'segment (largest first)',
    inUse: 'active',
    free: 'free',
    ooms: 'Out-of-memory events',
    noOoms: 'No OOM recorded in this trace.',
    device: (d: number, events: number) => `Device ${d} · ${events} trace events`,
    unread: 'Not read',
  },
};

/** The shape of the diagnose tools' words in every language. */
export type DiagnoseMessages = typeof DIAGNOSE_EN;
