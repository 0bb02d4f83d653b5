/** What a reader could not use, so every tool can say so instead of guessing. */

/** Why a reader skipped a piece of input, as data: the CLI words it in English (`unreadWords`), a page in its language. */
export type UnreadReason =
  // Any reader.
  | { readonly kind: 'more-not-read'; readonly count: number }
  | { readonly kind: 'text-cut'; readonly mebiChars: number }
  // nvidia-smi logs.
  | { readonly kind: 'csv-field-count'; readonly fields: number; readonly headerFields: number }
  | { readonly kind: 'used-not-mib'; readonly column: 'memory.used' | 'FB memory Used'; readonly value: string }
  | { readonly kind: 'index-not-gpu'; readonly value: string }
  | { readonly kind: 'timestamp-unread'; readonly value: string }
  | { readonly kind: 'no-memory-row'; readonly gpu: number; readonly atEnd: boolean }
  | { readonly kind: 'dmon-row-unread' }
  | { readonly kind: 'dmon-utilization' }
  | { readonly kind: 'xml-output' }
  | { readonly kind: 'no-nvidia-smi' }
  | { readonly kind: 'gpus-not-told-apart' }
  // Out-of-memory messages: a figure is named by the words that print it ("total capacity").
  | { readonly kind: 'no-oom-message' }
  | { readonly kind: 'figure-unread'; readonly name: string; readonly text: string }
  | { readonly kind: 'figure-missing'; readonly name: string }
  // torch.cuda.memory_summary() tables.
  | { readonly kind: 'no-summary-header' }
  | { readonly kind: 'unknown-row'; readonly title: string }
  | { readonly kind: 'row-value-unread'; readonly title: string; readonly sizes: boolean }
  | { readonly kind: 'table-cut' }
  | { readonly kind: 'no-row'; readonly title: string }
  | { readonly kind: 'more-summaries'; readonly count: number }
  // Memory snapshots.
  | { readonly kind: 'not-a-snapshot' }
  | { readonly kind: 'segments-skipped'; readonly count: number }
  | { readonly kind: 'trace-entries-skipped'; readonly device: number; readonly count: number };

/** A reason in English, as the CLI prints it (and the `message` of every note). */
export function unreadWords(reason: UnreadReason): string {
  switch (reason.kind) {
    case 'more-not-read':
      return `and ${reason.count} more lines not read`;
    case 'text-cut':
      return `only the first ${reason.mebiChars} Mi characters were read`;
    case 'csv-field-count':
      return `${reason.fields} fields where the header has ${reason.headerFields} (a decimal comma, or a cut line?)`;
    case 'used-not-mib':
      return `${reason.column} "${reason.value}" is not a size in MiB`;
    case 'index-not-gpu':
      return `index "${reason.value}" is not a GPU number`;
    case 'timestamp-unread':
      return `timestamp "${reason.value}" is not YYYY/MM/DD HH:MM:SS`;
    case 'no-memory-row':
      return `GPU ${reason.gpu}: no memory row follows${reason.atEnd ? ' (truncated?)' : ''}`;
    case 'dmon-row-unread':
      return 'not a dmon row with a GPU index and an fb figure';
    case 'dmon-utilization':
      return `this is nvidia-smi dmon output: its "mem" column is the share of time memory was read or written, not memory used; log memory with nvidia-smi --query-gpu=timestamp,index,memory.used,memory.total --format=csv -l 1 (or nvidia-smi dmon -s m, whose fb column is memory used)`;
    case 'xml-output':
      return 'this is nvidia-smi -q -x (XML): run nvidia-smi -q -d MEMORY for a reading, or nvidia-smi --query-gpu=timestamp,index,memory.used,memory.total --format=csv -l 1 for a timeline';
    case 'no-nvidia-smi':
      return 'no CSV header naming memory.used and no nvidia-smi table found: run nvidia-smi with --format=csv (with its header line)';
    case 'gpus-not-told-apart':
      return 'no index, uuid or pci.bus_id column: if this log covers several GPUs, their rows cannot be told apart and are read as one; add index to --query-gpu';
    case 'no-oom-message':
      return 'no "CUDA out of memory. Tried to allocate …" message found';
    case 'figure-unread':
      return `could not read the "${reason.name}" figure ("${reason.text}")`;
    case 'figure-missing':
      return `the "${reason.name}" figure is not in the message`;
    case 'no-summary-header':
      return 'no "PyTorch CUDA memory summary" header: the device, CUDA OOMs and cudaMalloc retries are unknown';
    case 'unknown-row':
      return `unknown row "${reason.title}"`;
    case 'row-value-unread':
      return `row "${reason.title}" has a value that is not ${reason.sizes ? 'a size' : 'a count'}`;
    case 'table-cut':
      return 'the table is cut off here: the rows after it are unknown, not zero';
    case 'no-row':
      return `no readable "${reason.title}" row`;
    case 'more-summaries':
      return `${reason.count} more summar${reason.count === 1 ? 'y' : 'ies'} in the paste not read: paste one device's at a time`;
    case 'not-a-snapshot':
      return 'the pickle is not a memory snapshot: no "segments" or "device_traces" list';
    case 'segments-skipped':
      return `${reason.count} segments without a readable total_size were skipped`;
    case 'trace-entries-skipped':
      return `device ${reason.device}: ${reason.count} trace entries without an action were skipped`;
  }
}

/** The shape of a language's words for the reasons. */
export type UnreadWords = typeof unreadWords;

/** One piece of input a reader skipped, with where it was and why. */
export interface UnreadNote {
  /** 1-based line number, or 0 when the note is about the whole input. */
  line: number;
  /** The reason in English (the CLI's words and its JSON's). */
  message: string;
  /** The reason as data, which a page words in its language. */
  reason: UnreadReason;
}

/** At most this many notes are kept per input; the count of the rest is kept instead. */
export const MAX_NOTES = 20;

/** A note for `reason` at `line`, its message in English. */
export function unreadNote(line: number, reason: UnreadReason): UnreadNote {
  return { line, message: unreadWords(reason), reason };
}

/** Collects notes up to MAX_NOTES and counts the rest, so a garbage file cannot make a huge list. */
export class NoteList {
  readonly notes: UnreadNote[] = [];
  dropped = 0;

  /** Records that `line` (1-based, 0 = whole input) could not be read, and why. */
  add(line: number, reason: UnreadReason): void {
    if (this.notes.length < MAX_NOTES) this.notes.push(unreadNote(line, reason));
    else this.dropped += 1;
  }

  /** The notes, with one closing note counting those not kept. */
  list(): UnreadNote[] {
    return this.dropped === 0 ? [...this.notes] : [...this.notes, unreadNote(0, { kind: 'more-not-read', count: this.dropped })];
  }
}

/** Most characters any text reader looks at (96 Mi): a one-day 8-GPU nvidia-smi log is about 54 MB of CSV. */
export const MAX_TEXT_CHARS = 96 * 2 ** 20;
