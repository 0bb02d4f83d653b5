/**
 * Undoes what happens to text between a terminal and a paste: a prefix a logger or launcher put on
 * every line (`[rank0]: `, a timestamp and level, `# ` from a notebook cell, a Ray worker's
 * `(pid=…)`), and hard wraps at a fixed terminal width that cut words in two ("CU" / "DA out of
 * memory"). The text readers run on the result, so they never see either.
 */

/** Prefixes loggers and launchers repeat on every line, each anchored at the line start. */
const LINE_PREFIXES: readonly RegExp[] = [
  // torchrun / torch.distributed.elastic: "[rank0]: ", "[default0]:"
  /^\[(?:rank|default)\d{1,5}\]:\s?/,
  // Python logging and most log formatters: "2024-05-07 10:00:01,123 - ERROR - ", "2024-05-07T10:00:01.123Z ERROR "
  // (single spaces only: the message's own indentation, a traceback's, must survive)
  /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})? (?:[-|:] )?(?:(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL) (?:[-|:] )?)?/,
  // glog (c10 warnings): "E0507 10:00:01.123456 12345 file.cpp:12] "
  /^[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d{1,9}\s+\d{1,10} [^\]]{1,200}\] /,
  // Ray workers: "(RayWorker pid=1234, ip=10.0.0.1) "
  /^\([\w-]{1,60} pid=\d{1,10}(?:, ip=[\d.]{7,15})?\) /,
  // A notebook comment or a Markdown quote
  /^# ?/,
  /^> ?/,
];

/** A prefix is stripped only when at least this share of the non-empty lines carries it: it is the paste's, not the text's. */
export const REPEATED_PREFIX_SHARE = 0.6;
/** Lines this long or longer can be a terminal's hard wrap; shorter widths are not terminals. */
export const MIN_WRAP_WIDTH = 40;
/** At least this many different lines must reach the width exactly before it counts as a wrap. */
export const MIN_WRAPPED_LINES = 2;

/** What `cleanPaste` changed, so a reader can say so. */
export interface CleanedPaste {
  /** Prefixes stripped and wrapped lines joined. */
  text: string;
  /** Prefixes stripped, lines as pasted: a reader tries it too, since prose can hit the width by chance. */
  linesAsPasted: string;
  /** How many prefix layers were stripped from every line (0 when none). */
  strippedPrefixes: number;
  /** The width at which wrapped lines were joined, or null when the paste was not hard-wrapped. */
  wrapWidth: number | null;
}

function stripOnePrefix(lines: string[]): string[] | null {
  const nonEmpty = lines.filter((line) => line.trim() !== '');
  if (nonEmpty.length < 2) return null;
  for (const prefix of LINE_PREFIXES) {
    const carrying = nonEmpty.filter((line) => prefix.test(line)).length;
    if (carrying >= REPEATED_PREFIX_SHARE * nonEmpty.length) return lines.map((line) => line.replace(prefix, ''));
  }
  return null;
}

/**
 * The width a terminal wrapped at: the longest line length, when at least MIN_WRAPPED_LINES different lines
 * have exactly that length, two of them in a row, and they are not a table (nvidia-smi and memory_summary
 * rows all share one width).
 */
function wrapWidth(lines: string[]): number | null {
  let longest = 0;
  for (const line of lines) longest = Math.max(longest, line.length);
  if (longest < MIN_WRAP_WIDTH) return null;
  const atWidth = lines.filter((line) => line.length === longest);
  // Identical lines at the width are a repeated traceback frame, not one long line cut in pieces.
  if (new Set(atWidth).size < MIN_WRAPPED_LINES || atWidth.some((line) => /^\s*[|+]/.test(line))) return null;
  // A terminal cuts one long line into a run of full-width lines; word-wrapped prose only reaches its
  // longest length here and there, so two full-width lines in a row are required.
  const run = lines.some((line, i) => line.length === longest && lines[i + 1]?.length === longest);
  return run ? longest : null;
}

/** Strips prefixes repeated on most lines, then joins lines a terminal hard-wrapped; never throws. */
export function cleanPaste(text: string): CleanedPaste {
  let lines = text.split(/\r?\n/);
  let strippedPrefixes = 0;
  // Prefixes stack ("[rank0]: 2024-… ERROR …"), so peel a few layers.
  for (let layer = 0; layer < 3; layer++) {
    const stripped = stripOnePrefix(lines);
    if (stripped === null) break;
    lines = stripped;
    strippedPrefixes += 1;
  }
  const linesAsPasted = lines.join('\n');
  const width = wrapWidth(lines);
  if (width !== null) {
    const joined: string[] = [];
    let carry = '';
    // A line exactly as wide as the terminal was cut there, mid-word or not: it continues on the next line.
    for (const line of lines) {
      carry += line;
      if (line.length !== width) {
        joined.push(carry);
        carry = '';
      }
    }
    if (carry !== '') joined.push(carry);
    lines = joined;
  }
  return { text: lines.join('\n'), linesAsPasted, strippedPrefixes, wrapWidth: width };
}
