/** What a reader could not use, so every tool can say so instead of guessing. */

import { wordCoded, type CodedSentence, type WordsOf } from '../base/coded-words.ts';

/** Why a reader skipped a piece of input, by code, in English: the CLI's words (a page words the code in its language). */
export const UNREAD_WORDS = {
  // Any reader.
  moreNotRead: (p: { count: number }): string => `and ${p.count} more lines not read`,
  textCut: (p: { mebiChars: number }): string => `only the first ${p.mebiChars} Mi characters were read`,
  // nvidia-smi logs.
  csvFieldCount: (p: { fields: number; headerFields: number }): string =>
    `${p.fields} fields where the header has ${p.headerFields} (a decimal comma, or a cut line?)`,
  usedNotMib: (p: { column: 'memory.used' | 'FB memory Used'; value: string }): string =>
    `${p.column} "${p.value}" is not a size in MiB`,
  indexNotGpu: (p: { value: string }): string => `index "${p.value}" is not a GPU number`,
  timestampUnread: (p: { value: string }): string => `timestamp "${p.value}" is not YYYY/MM/DD HH:MM:SS`,
  noMemoryRow: (p: { gpu: number; atEnd: boolean }): string =>
    `GPU ${p.gpu}: no memory row follows${p.atEnd ? ' (truncated?)' : ''}`,
  dmonRowUnread: (): string => 'not a dmon row with a GPU index and an fb figure',
  dmonUtilization: (): string =>
    `this is nvidia-smi dmon output: its "mem" column is the share of time memory was read or written, not memory used; log memory with nvidia-smi --query-gpu=timestamp,index,memory.used,memory.total --format=csv -l 1 (or nvidia-smi dmon -s m, whose fb column is memory used)`,
  xmlOutput: (): string =>
    'this is nvidia-smi -q -x (XML): run nvidia-smi -q -d MEMORY for a reading, or nvidia-smi --query-gpu=timestamp,index,memory.used,memory.total --format=csv -l 1 for a timeline',
  noNvidiaSmi: (): string =>
    'no CSV header naming memory.used and no nvidia-smi table found: run nvidia-smi with --format=csv (with its header line)',
  gpusNotToldApart: (): string =>
    'no index, uuid or pci.bus_id column: if this log covers several GPUs, their rows cannot be told apart and are read as one; add index to --query-gpu',
  // Out-of-memory messages: a figure is named by the words that print it ("total capacity").
  noOomMessage: (): string => 'no "CUDA out of memory. Tried to allocate …" message found',
  figureUnread: (p: { name: string; text: string }): string => `could not read the "${p.name}" figure ("${p.text}")`,
  figureMissing: (p: { name: string }): string => `the "${p.name}" figure is not in the message`,
  // torch.cuda.memory_summary() tables.
  noSummaryHeader: (): string =>
    'no "PyTorch CUDA memory summary" header: the device, CUDA OOMs and cudaMalloc retries are unknown',
  unknownRow: (p: { title: string }): string => `unknown row "${p.title}"`,
  rowValueUnread: (p: { title: string; sizes: boolean }): string =>
    `row "${p.title}" has a value that is not ${p.sizes ? 'a size' : 'a count'}`,
  tableCut: (): string => 'the table is cut off here: the rows after it are unknown, not zero',
  noRow: (p: { title: string }): string => `no readable "${p.title}" row`,
  moreSummaries: (p: { count: number }): string =>
    `${p.count} more summar${p.count === 1 ? 'y' : 'ies'} in the paste not read: paste one device's at a time`,
  // Memory snapshots.
  notASnapshot: (): string => 'the pickle is not a memory snapshot: no "segments" or "device_traces" list',
  segmentsSkipped: (p: { count: number }): string => `${p.count} segments without a readable total_size were skipped`,
  traceEntriesSkipped: (p: { device: number; count: number }): string =>
    `device ${p.device}: ${p.count} trace entries without an action were skipped`,
};

/** What wording the reasons take: one function per code, with that code's parameters. */
export type UnreadWords = WordsOf<typeof UNREAD_WORDS>;

/** Why a reader skipped a piece of input, as data: its code and, where its sentence has any, its parameters. */
export type UnreadReason = CodedSentence<UnreadWords>;

/** The sentence of `reason` in `words` (English by default: what the CLI prints, and the `message` of every note). */
export function wordUnreadReason(reason: UnreadReason, words: UnreadWords = UNREAD_WORDS): string {
  return wordCoded(reason, words);
}

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
  return { line, message: wordUnreadReason(reason), reason };
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
    return this.dropped === 0
      ? [...this.notes]
      : [...this.notes, unreadNote(0, { code: 'moreNotRead', params: { count: this.dropped } })];
  }
}

/** Most characters any text reader looks at (96 Mi): a one-day 8-GPU nvidia-smi log is about 54 MB of CSV. */
export const MAX_TEXT_CHARS = 96 * 2 ** 20;
