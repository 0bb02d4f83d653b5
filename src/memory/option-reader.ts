/**
 * Reading options one field at a time: each reader checks the value's kind and range, falls back to the flag table's
 * default, and records an error naming the field's flag. The validator's sections share one reader over
 * `EstimateOptions`; the planner reads its own flags' options with the same readers and messages.
 */
import { ESTIMATE_FLAG_TABLE, type FlagDefinition, type FlagTable } from './flag-table.ts';
import type { EstimateOptions, FieldError } from './options.ts';
import type { Notice } from './warnings.ts';
import { ruleError, type BrokenRule } from './rule-words.ts';

/** Largest accepted value for a count without a limit of its own (keeps every product of sizes well inside 2^53). */
const MAX_COUNT = 1e15;

/** The options being read (`O`, keyed by its flag table's keys), and what reading them found. */
export interface OptionReader<O extends object = EstimateOptions> {
  readonly options: O;
  /** Errors so far, each naming its flag. */
  readonly errors: FieldError[];
  /** Odd-but-legal input so far, as data (warnings.ts words it). */
  readonly notices: Notice[];
  /**
   * Record the error of a broken rule on `key`'s flag: its English sentence, and the rule as data. It takes no bare
   * message, so every error has words in each of the site's languages (rule-words.ts).
   */
  fail(key: keyof O & string, rule: BrokenRule): void;
  /** An enumeration: the given value if allowed, else an error; the table's default (or `derived`) when absent. */
  keyword<T extends string | number>(key: keyof O & string, allowed: readonly T[], derived?: T): T;
  /** A whole number ≥ `min` within the flag's limit, or undefined (absent, or an error recorded). */
  count(key: keyof O & string, min?: number): number | undefined;
  /** A number above 0 (fractions allowed) within the flag's limit, or undefined (absent, or an error recorded). */
  amount(key: keyof O & string): number | undefined;
  /** A boolean, or `fallback` when absent. */
  flag(key: keyof O & string, fallback: boolean): boolean;
}

/** A reader over `options`, whose flags `table` describes (the engine's table by default). */
export function createOptionReader(options: EstimateOptions): OptionReader;
export function createOptionReader<O extends object>(options: O, table: FlagTable): OptionReader<O>;
export function createOptionReader(
  options: object,
  table: FlagTable = ESTIMATE_FLAG_TABLE,
): OptionReader<Record<string, unknown>> {
  return new Reader(options as Record<string, unknown>, table);
}

/** A class rather than an object of closures: the planner reads options thousands of times per search. */
class Reader implements OptionReader<Record<string, unknown>> {
  readonly errors: FieldError[] = [];
  readonly notices: Notice[] = [];
  constructor(
    readonly options: Record<string, unknown>,
    private readonly table: FlagTable,
  ) {}

  fail(key: string, rule: BrokenRule): void {
    this.errors.push(ruleError(this.table.of(key).flag, rule));
  }

  keyword<T extends string | number>(key: string, allowed: readonly T[], derived?: T): T {
    const value = this.options[key];
    if (value !== undefined && (allowed as readonly unknown[]).includes(value)) return value as T;
    const spec = this.table.of(key);
    if (value !== undefined) {
      this.fail(key, { code: 'notAChoice', params: { flag: spec.flag, value: String(value), allowed: allowed.map(String) } });
    }
    return derived ?? tableDefault(spec, allowed);
  }

  count(key: string, min = 1): number | undefined {
    const value = this.number(key);
    if (value === undefined) return undefined;
    const { flag } = this.table.of(key);
    if (!Number.isInteger(value)) this.fail(key, { code: 'notWhole', params: { flag, value } });
    else if (value < min) this.fail(key, { code: 'belowMinimum', params: { flag, value, min } });
    else return this.withinLimit(key, value);
    return undefined;
  }

  amount(key: string): number | undefined {
    const value = this.number(key);
    if (value === undefined) return undefined;
    if (value > 0) return this.withinLimit(key, value);
    this.fail(key, { code: 'notPositive', params: { flag: this.table.of(key).flag, value } });
    return undefined;
  }

  flag(key: string, fallback: boolean): boolean {
    const value = this.options[key];
    if (value === undefined) return fallback;
    if (typeof value !== 'boolean') {
      this.fail(key, { code: 'notTrueOrFalse', params: { flag: this.table.of(key).flag, value: String(value) } });
      return fallback;
    }
    return value;
  }

  /** The value as a finite number, or undefined (absent, or an error recorded). */
  private number(key: string): number | undefined {
    const value = this.options[key];
    if (value === undefined) return undefined;
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    this.fail(key, { code: 'notANumber', params: { flag: this.table.of(key).flag, value: String(value) } });
    return undefined;
  }

  /** The value if within the flag's limit, else undefined with an error recorded. */
  private withinLimit(key: string, value: number): number | undefined {
    const spec = this.table.of(key);
    const max = spec.max ?? MAX_COUNT;
    if (value <= max) return value;
    this.fail(key, { code: 'tooLarge', params: { flag: spec.flag, value, max } });
    return undefined;
  }
}

/** The flag table's default among `allowed` (else the first), found once per flag (each flag is read with one list). */
function tableDefault<T extends string | number>(spec: FlagDefinition, allowed: readonly T[]): T {
  const found = DEFAULTS.get(spec);
  if (found !== undefined && found.allowed === allowed) return found.value as T;
  const value = allowed.find((v) => String(v) === spec.default) ?? (allowed[0] as T);
  DEFAULTS.set(spec, { allowed, value });
  return value;
}
const DEFAULTS = new Map<FlagDefinition, { readonly allowed: readonly unknown[]; readonly value: unknown }>();
