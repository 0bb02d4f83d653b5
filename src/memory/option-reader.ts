/**
 * Reading `EstimateOptions` one field at a time: each reader checks the value's kind and range, falls back to the
 * flag table's default, and records an error naming the field's flag. The validator's sections share one reader.
 */
import { flagName, flagOf } from './flag-table.ts';
import type { EstimateOptions, FieldError } from './options.ts';

/** Largest accepted value for a count without a limit of its own (keeps every product of sizes well inside 2^53). */
const MAX_COUNT = 1e15;

/** The options being read, and what reading them found. */
export interface OptionReader {
  readonly options: EstimateOptions;
  /** Errors so far, each naming its flag. */
  readonly errors: FieldError[];
  /** Odd-but-legal input so far. */
  readonly warnings: string[];
  /** Record an error on `key`'s flag. */
  fail(key: keyof EstimateOptions, message: string): void;
  /** An enumeration: the given value if allowed, else an error; the table's default (or `derived`) when absent. */
  keyword<T extends string | number>(key: keyof EstimateOptions, allowed: readonly T[], derived?: T): T;
  /** A whole number ≥ `min` within the flag's limit, or undefined (absent, or an error recorded). */
  count(key: keyof EstimateOptions, min?: number): number | undefined;
  /** A boolean, or `fallback` when absent. */
  flag(key: keyof EstimateOptions, fallback: boolean): boolean;
}

/** A reader over `options`. */
export function createOptionReader(options: EstimateOptions): OptionReader {
  return new Reader(options);
}

/** A class rather than an object of closures: the planner reads options thousands of times per search. */
class Reader implements OptionReader {
  readonly errors: FieldError[] = [];
  readonly warnings: string[] = [];
  constructor(readonly options: EstimateOptions) {}

  fail(key: keyof EstimateOptions, message: string): void {
    this.errors.push({ field: flagName(key), message });
  }

  keyword<T extends string | number>(key: keyof EstimateOptions, allowed: readonly T[], derived?: T): T {
    const value = this.options[key];
    if (value !== undefined && (allowed as readonly unknown[]).includes(value)) return value as T;
    if (value !== undefined) this.fail(key, `invalid ${flagName(key)}: ${String(value)} (expected ${allowed.join(', ')})`);
    return derived ?? tableDefault(key, allowed);
  }

  count(key: keyof EstimateOptions, min = 1): number | undefined {
    const value = this.options[key];
    if (value === undefined) return undefined;
    const max = flagOf(key).max ?? MAX_COUNT;
    if (typeof value !== 'number' || !Number.isFinite(value))
      this.fail(key, `${flagName(key)} must be a number, got ${String(value)}`);
    else if (!Number.isInteger(value)) this.fail(key, `${flagName(key)} must be a whole number, got ${value}`);
    else if (value < min) this.fail(key, `${flagName(key)} must be at least ${min}, got ${value}`);
    else if (value > max) this.fail(key, `${flagName(key)} is too large (${value} > ${max})`);
    else return value;
    return undefined;
  }

  flag(key: keyof EstimateOptions, fallback: boolean): boolean {
    const value = this.options[key];
    if (value === undefined) return fallback;
    if (typeof value !== 'boolean') {
      this.fail(key, `${flagName(key)} must be true or false`);
      return fallback;
    }
    return value;
  }
}

/** The flag table's default among `allowed` (else the first), found once per key (each key is read with one list). */
function tableDefault<T extends string | number>(key: keyof EstimateOptions, allowed: readonly T[]): T {
  const found = DEFAULTS.get(key);
  if (found !== undefined && found.allowed === allowed) return found.value as T;
  const value = allowed.find((v) => String(v) === flagOf(key).default) ?? (allowed[0] as T);
  DEFAULTS.set(key, { allowed, value });
  return value;
}
const DEFAULTS = new Map<keyof EstimateOptions, { readonly allowed: readonly unknown[]; readonly value: unknown }>();
