/**
 * One figure of a lesson, computed by the engine at build time: flags in (the CLI's words), a formatted value out.
 * A configuration the engine refuses, or a path it does not have, throws, so the build stops instead of printing
 * a stale number.
 */
import { formatBytes } from '../../base/bytes';
import {
  estimateMemory,
  formatCount,
  formatStepShare,
  formatStepTime,
  parseEstimateFlags,
  type EstimateResult,
  type RawFlags,
} from '../../memory/index';

/**
 * How a figure is printed. `seconds` is the step's total with its error band; `share` is one part of the step
 * (`time.<id>`) as its share of that total.
 */
export type FigureUnit = 'GiB' | 'GB' | 'count' | 'seconds' | 'share' | 'text';

/** Split `--model gpt2 --sp --seq 1024` into raw flags (a flag without a value is `true`). */
export function parseFlagString(flags: string): RawFlags {
  const words = flags
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  const raw: RawFlags = {};
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (!word.startsWith('--')) throw new Error(`estimate flags: expected --flag, got '${word}' in "${flags}"`);
    const [name, inline] = word.slice(2).split('=', 2) as [string, string | undefined];
    const next = words[i + 1];
    if (inline !== undefined) raw[name] = inline;
    else if (next !== undefined && !next.startsWith('--')) {
      raw[name] = next;
      i++;
    } else raw[name] = true;
  }
  return raw;
}

/** Run the engine on a flag string; throws with the engine's messages when it refuses. */
export function estimateFor(flags: string): EstimateResult {
  const parsed = parseEstimateFlags(parseFlagString(flags));
  if (!parsed.ok) throw new Error(`estimate ${flags}: ${parsed.errors.map((e) => `--${e.field}: ${e.message}`).join('; ')}`);
  const outcome = estimateMemory(parsed.options);
  if (!outcome.ok) throw new Error(`estimate ${flags}: ${outcome.errors.map((e) => `--${e.field}: ${e.message}`).join('; ')}`);
  return outcome.result;
}

/**
 * The value at `path` in a result: a dotted path into the JSON (`perGpu.total`, `shortfall`, `trainableParams`,
 * `stepTime.totalSeconds`), `line.<id>` for one breakdown line's bytes, `moment.<id>` for the bytes alive at a
 * timeline moment (`moment.<id>.<category>` for one category's share of them), or `time.<id>` for one step-time line's
 * seconds.
 */
export function valueAt(result: EstimateResult, path: string): number | string {
  const [head, rest] = path.split(/\.(.*)/s, 2) as [string, string | undefined];
  if (rest !== undefined) {
    if (head === 'line') return named(result.lines, (l) => l.id, rest, 'line').bytes;
    if (head === 'moment') {
      // `moment.<id>.<category>` splits a moment into the parts a reader adds up (weights, gradients, …).
      const [id, category] = rest.split('.', 2) as [string, string | undefined];
      const moment = named(result.timeline, (m) => m.moment, id, 'moment');
      if (category === undefined) return moment.bytes;
      if (!Object.hasOwn(moment.byCategory, category))
        throw new Error(`no category '${category}' at moment '${id}' (categories: ${Object.keys(moment.byCategory).join(', ')})`);
      return moment.byCategory[category as keyof typeof moment.byCategory];
    }
    if (head === 'time') return named(result.stepTime?.lines ?? [], (l) => l.id, rest, 'step-time line').seconds;
  }
  let value: unknown = result;
  for (const key of path.split('.')) {
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  }
  if (typeof value !== 'number' && typeof value !== 'string')
    throw new Error(`'${path}' is not a number or text in the estimate`);
  return value;
}

/** The item of `items` named `name`, or an error listing the names there are. */
function named<T>(items: readonly T[], nameOf: (item: T) => string, name: string, what: string): T {
  const found = items.find((item) => nameOf(item) === name);
  if (found === undefined) throw new Error(`no ${what} '${name}' (${what}s: ${items.map(nameOf).join(', ')})`);
  return found;
}

/** The figure as the lesson prints it. */
export function estimateFigure(flags: string, show: string, unit: FigureUnit, digits = 2): string {
  checkTimeUnit(show, unit);
  const result = estimateFor(flags);
  const value = valueAt(result, show);
  if (unit === 'text' || typeof value === 'string') return String(value);
  if (unit === 'count') return formatCount(value);
  // A step's total carries the model's measured error band; a part of it prints as its share of that total.
  if (unit === 'seconds') return formatStepTime(value, result.stepTime?.band ?? null);
  if (unit === 'share') return formatStepShare(value, result.stepTime?.totalSeconds ?? 0);
  return formatBytes(value, unit, digits);
}

/**
 * Times print only with what the model can stand behind: the step's total with its measured band, and a part of the
 * step as its share of the total. The band was measured on whole steps only, so a part printed in seconds would carry
 * none; this stops the build instead.
 */
function checkTimeUnit(show: string, unit: FigureUnit): void {
  if (unit === 'seconds' && show.startsWith('time.'))
    throw new Error(
      `show="${show}" unit="seconds" prints a part of the step as bare seconds, without the error band that only whole steps have: use unit="share"`,
    );
  if (unit === 'seconds' && show !== 'stepTime.totalSeconds')
    throw new Error(`unit="seconds" prints the step's total with its error band: show="stepTime.totalSeconds", not "${show}"`);
  if (unit === 'share' && !show.startsWith('time.'))
    throw new Error(`unit="share" prints a part of the step as its share of it: show="time.<id>", not "${show}"`);
}
