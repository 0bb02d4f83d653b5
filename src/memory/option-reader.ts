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
  const errors: FieldError[] = [];
  const fail = (key: keyof EstimateOptions, message: string) => errors.push({ field: flagName(key), message });
  return {
    options,
    errors,
    warnings: [],
    fail,
    keyword<T extends string | number>(key: keyof EstimateOptions, allowed: readonly T[], derived?: T): T {
      const value = options[key];
      if (value !== undefined && (allowed as readonly unknown[]).includes(value)) return value as T;
      if (value !== undefined) fail(key, `invalid ${flagName(key)}: ${String(value)} (expected ${allowed.join(', ')})`);
      return derived ?? allowed.find((v) => String(v) === flagOf(key).default) ?? (allowed[0] as T);
    },
    count(key: keyof EstimateOptions, min = 1): number | undefined {
      const value = options[key];
      const max = flagOf(key).max ?? MAX_COUNT;
      if (value === undefined) return undefined;
      if (typeof value !== 'number' || !Number.isFinite(value))
        fail(key, `${flagName(key)} must be a number, got ${String(value)}`);
      else if (!Number.isInteger(value)) fail(key, `${flagName(key)} must be a whole number, got ${value}`);
      else if (value < min) fail(key, `${flagName(key)} must be at least ${min}, got ${value}`);
      else if (value > max) fail(key, `${flagName(key)} is too large (${value} > ${max})`);
      else return value;
      return undefined;
    },
    flag(key: keyof EstimateOptions, fallback: boolean): boolean {
      const value = options[key];
      if (value === undefined) return fallback;
      if (typeof value !== 'boolean') {
        fail(key, `${flagName(key)} must be true or false`);
        return fallback;
      }
      return value;
    },
  };
}
