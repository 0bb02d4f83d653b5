/**
 * The flag vocabulary shared by the CLI (`--zero 3`) and the site's URL query (`?zero=3`): parse a record of raw values
 * into options by a flag table, and format the engine's options back (round-trips). Syntax only (numbers,
 * enumerations, booleans); ranges and combinations are checked by the option readers (`option-reader.ts`).
 */
import { ESTIMATE_FLAG_TABLE, FLAGS, type FlagDefinition, type FlagTable } from './flag-table.ts';
import type { EstimateOptions, FieldError } from './options.ts';
import { ruleError, type BrokenRule } from './rule-words.ts';

/** One raw flag value: text, a bare flag (true), or the values of a flag given more than once. */
export type RawFlagValue = string | boolean | readonly string[];

/** Raw flag values, as node:util parseArgs or URLSearchParams give them, one value per flag. */
export type RawFlags = Record<string, string | boolean | undefined>;

/** A parsed flag value: a number, an enumeration's or a text's value, a boolean, or a repeatable flag's list. */
export type FlagValue = string | number | boolean | readonly string[];

/** Result of parsing the engine's flags. */
export type ParseFlagsResult = { ok: true; options: EstimateOptions } | { ok: false; errors: FieldError[] };

const SUFFIXES: Readonly<Record<string, number>> = { k: 1e3, m: 1e6, b: 1e9, g: 1e9, t: 1e12 };

/** Parse a number with an optional k/m/b/t suffix and `_` separators; undefined when malformed. */
export function parseNumberFlag(text: string): number | undefined {
  const match = /^([+-]?(?:\d[\d_]*)?(?:\.\d+)?(?:e[+-]?\d+)?)([kmbgt])?$/i.exec(text.trim());
  if (match === null || match[1] === undefined || match[1] === '' || /^[+-]?$/.test(match[1])) return undefined;
  const base = Number(match[1].replaceAll('_', ''));
  const scale = match[2] === undefined ? 1 : (SUFFIXES[match[2].toLowerCase()] ?? 1);
  const scaled = base * scale;
  // Snap float noise from the suffix (0.1k = 100.00000000000001) but keep real fractions like 1.5.
  const value = scale !== 1 && Math.abs(scaled - Math.round(scaled)) < 1e-6 ? Math.round(scaled) : scaled;
  return Number.isFinite(value) ? value : undefined;
}

function parseBoolean(value: string | boolean): boolean | undefined {
  if (typeof value === 'boolean') return value;
  const text = value.trim().toLowerCase();
  if (text === '' || text === 'true' || text === '1' || text === 'yes') return true;
  if (text === 'false' || text === '0' || text === 'no') return false;
  return undefined;
}

/** Options for `parseFlags` and `parseEstimateFlags`. */
export interface ParseFlagsOptions {
  /** Ignore keys that are not flags (for URL queries with other parameters); default false. */
  ignoreUnknown?: boolean;
}

/** One flag's value, or the rule it breaks (`parseFlags` names the field). */
function parseValue(name: string, spec: FlagDefinition, raw: RawFlagValue): { value: FlagValue } | { broken: BrokenRule } {
  if (spec.repeatable === true && typeof raw !== 'boolean')
    return { value: typeof raw === 'string' ? [raw.trim()] : raw.map((v) => v.trim()) };
  if (typeof raw !== 'string' && typeof raw !== 'boolean') return { broken: { code: 'flagTwice', params: { flag: name } } };
  if (spec.kind === 'boolean') {
    const value = parseBoolean(raw);
    return value === undefined ? { broken: { code: 'notTrueOrFalse', params: { value: String(raw), quoted: true } } } : { value };
  }
  if (typeof raw !== 'string' || raw.trim() === '')
    return { broken: { code: 'flagWithoutValue', params: { flag: name, placeholder: spec.placeholder } } };
  if (spec.kind === 'number') {
    const value = parseNumberFlag(raw);
    return value === undefined ? { broken: { code: 'notANumber', params: { value: raw, quoted: true } } } : { value };
  }
  if (spec.kind === 'enum') {
    const values = spec.values ?? [];
    if (!values.includes(raw)) {
      return { broken: { code: 'notAChoice', params: { flag: name, value: raw, allowed: values, quoted: true } } };
    }
    return { value: spec.numeric === true ? Number(raw) : raw };
  }
  return { value: raw.trim() };
}

/** Raw flag values, some perhaps given more than once. */
export type RawFlagValues = Readonly<Record<string, RawFlagValue | undefined>>;

/** What `parseFlags` read: the options of the flags it could parse, and an error for each it could not. */
export interface ParsedFlags<K extends string> {
  readonly options: Partial<Record<K, FlagValue>>;
  readonly errors: FieldError[];
}

/**
 * Parse raw flag values (CLI or URL query) into the options of `table`'s vocabulary. A flag that does not parse is left
 * out of the options and named in the errors, so the others can still be checked.
 * @example parseFlags({ gpus: '8', task: 'finetune' }, PLAN_FLAG_TABLE).options // { gpus: 8, task: 'finetune' }
 */
export function parseFlags<D extends FlagDefinition>(
  input: RawFlagValues,
  table: FlagTable<D>,
  { ignoreUnknown = false }: ParseFlagsOptions = {},
): ParsedFlags<D['key']> {
  const errors: FieldError[] = [];
  const options: Partial<Record<D['key'], FlagValue>> = {};
  for (const [name, raw] of Object.entries(input)) {
    if (raw === undefined) continue;
    const alias = table.alias(name);
    if (alias !== undefined) {
      const on = typeof raw === 'object' ? undefined : parseBoolean(raw);
      if (on === undefined)
        errors.push(ruleError(name, { code: 'notTrueOrFalse', params: { value: String(raw), quoted: true } }));
      else if (on) options[alias.key] = alias.value;
      continue;
    }
    const spec = table.named(name);
    if (spec === undefined) {
      if (!ignoreUnknown) errors.push(ruleError(name, { code: 'unknownFlag', params: { flag: name } }));
      continue;
    }
    const parsed = parseValue(name, spec, raw);
    if ('broken' in parsed) errors.push(ruleError(name, parsed.broken));
    else options[spec.key as D['key']] = parsed.value;
  }
  for (const alias of table.aliases) {
    const own = table.of(alias.key).flag;
    if (input[alias.flag] !== undefined && input[own] !== undefined) {
      errors.push(ruleError(alias.flag, { code: 'flagAndAlias', params: { flag: own, alias: alias.flag } }));
    }
  }
  return { options, errors };
}

/**
 * Parse raw flag values (CLI or URL query) into `EstimateOptions`.
 * @example parseEstimateFlags({ model: 'llama-2-7b', zero: '3', dp: '8' })
 */
export function parseEstimateFlags(input: RawFlagValues, options: ParseFlagsOptions = {}): ParseFlagsResult {
  const { options: parsed, errors } = parseFlags(input, ESTIMATE_FLAG_TABLE, options);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, options: parsed as EstimateOptions };
}

/**
 * Format options as flag values (the inverse of `parseEstimateFlags`), in help order.
 * Booleans become 'true' or 'false'.
 * @example new URLSearchParams(formatEstimateFlags({ model: 'llama-2-7b', zero: 3 })).toString() // "model=llama-2-7b&zero=3"
 */
export function formatEstimateFlags(options: EstimateOptions): Record<string, string> {
  const out: Record<string, string> = {};
  const record = options as Record<string, unknown>;
  for (const spec of FLAGS) {
    const value = record[spec.key];
    if (value !== undefined) out[spec.flag] = String(value);
  }
  return out;
}

/**
 * Command-line arguments of flag values (a record, or name–value pairs such as a URL query's, where a flag may
 * repeat), as a terminal takes them: `'true'` is the bare flag, `'false'` its `--no-` alias where it has one (a
 * terminal's boolean flag takes no value).
 * @example flagArgs({ model: 'gpt2', sp: 'true', 'tie-embeddings': 'false' }) // ['--model', 'gpt2', '--sp', '--no-tie-embeddings']
 */
export function flagArgs(flags: Readonly<Record<string, string>> | Iterable<readonly [string, string]>): string[] {
  const pairs = Symbol.iterator in flags ? [...(flags as Iterable<readonly [string, string]>)] : Object.entries(flags);
  return pairs.flatMap(([name, value]) => {
    if (value === 'true') return [`--${name}`];
    if (value === 'false' && ESTIMATE_FLAG_TABLE.alias(`no-${name}`) !== undefined) return [`--no-${name}`];
    return [`--${name}`, value];
  });
}
