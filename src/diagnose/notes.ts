/** What a reader could not use, so every tool can say so instead of guessing. */

/** One piece of input a reader skipped, with where it was and why. */
export interface UnreadNote {
  /** 1-based line number, or 0 when the note is about the whole input. */
  line: number;
  message: string;
}

/** At most this many notes are kept per input; the count of the rest is kept instead. */
export const MAX_NOTES = 20;

/** Collects notes up to MAX_NOTES and counts the rest, so a garbage file cannot make a huge list. */
export class NoteList {
  readonly notes: UnreadNote[] = [];
  dropped = 0;

  /** Records that `line` (1-based, 0 = whole input) could not be read, and why. */
  add(line: number, message: string): void {
    if (this.notes.length < MAX_NOTES) this.notes.push({ line, message });
    else this.dropped += 1;
  }

  /** The notes, with one closing note counting those not kept. */
  list(): UnreadNote[] {
    return this.dropped === 0
      ? [...this.notes]
      : [...this.notes, { line: 0, message: `and ${this.dropped} more lines not read` }];
  }
}

/** Most characters any text reader looks at (96 Mi): a one-day 8-GPU nvidia-smi log is about 54 MB of CSV. */
export const MAX_TEXT_CHARS = 96 * 2 ** 20;
