/**
 * The flag vocabulary shared by the CLI (`--zero 3`) and the site's URL query (`?zero=3`):
 * parse a record of raw values into `EstimateOptions`, and format options back (round-trips).
 * Syntax only (numbers, enumerations, booleans); ranges and combinations are checked by `validate.ts`.
 */
import { FLAG_ALIASES, FLAGS, flagName, flagNamed } from './flag-table.ts';
import type { EstimateOptions, FieldError } from './options.ts';

/** Raw flag values, as node:util parseArgs or URLSearchParams give them. */
export type RawFlags = Record<string, string | boolean | undefined>;

/** Result of parsing flags. */
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

const ALIAS_BY_FLAG = new Map(FLAG_ALIASES.map((alias) => [alias.flag, alias]));

/** Options for `parseEstimateFlags`. */
export interface ParseFlagsOptions {
  /** Ignore keys that are not flags (for URL queries with other parameters); default false. */
  ignoreUnknown?: boolean;
}

/**
 * Parse raw flag values (CLI or URL query) into `EstimateOptions`.
 * @example parseEstimateFlags({ model: 'llama-2-7b', zero: '3', dp: '8' })
 */
export function parseEstimateFlags(input: RawFlags, { ignoreUnknown = false }: ParseFlagsOptions = {}): ParseFlagsResult {
  const errors: FieldError[] = [];
  const options: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(input)) {
    if (raw === undefined) continue;
    const alias = ALIAS_BY_FLAG.get(name);
    if (alias !== undefined) {
      const on = parseBoolean(raw);
      if (on === undefined) errors.push({ field: name, message: `expected true or false, got '${String(raw)}'` });
      else if (on) options[alias.key] = alias.value;
      continue;
    }
    const spec = flagNamed(name);
    if (spec === undefined) {
      if (!ignoreUnknown) errors.push({ field: name, message: `unknown flag --${name}` });
      continue;
    }
    if (spec.kind === 'boolean') {
      const value = parseBoolean(raw);
      if (value === undefined) errors.push({ field: name, message: `expected true or false, got '${String(raw)}'` });
      else options[spec.key] = value;
      continue;
    }
    if (typeof raw !== 'string' || raw.trim() === '') {
      errors.push({ field: name, message: `--${name} needs a value${spec.placeholder ? ` (${spec.placeholder})` : ''}` });
      continue;
    }
    if (spec.kind === 'number') {
      const value = parseNumberFlag(raw);
      if (value === undefined) errors.push({ field: name, message: `expected a number, got '${raw}'` });
      else options[spec.key] = value;
    } else if (spec.kind === 'enum') {
      const values = spec.values ?? [];
      if (!values.includes(raw))
        errors.push({ field: name, message: `invalid ${name}: '${raw}' (expected ${values.join(', ')})` });
      else options[spec.key] = spec.key === 'zero' ? Number(raw) : raw;
    } else {
      options[spec.key] = raw.trim();
    }
  }
  if (errors.length === 0) {
    for (const alias of FLAG_ALIASES) {
      const own = flagName(alias.key);
      if (input[alias.flag] !== undefined && input[own] !== undefined) {
        errors.push({ field: alias.flag, message: `give either --${own} or --${alias.flag}, not both` });
      }
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, options: options as EstimateOptions };
}

/**
 * Format options as flag values (the inverse of `parseEstimateFlags`), in help order.
 * Booleans become 'true' (`dropout: false` becomes `no-dropout: 'true'`).
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
