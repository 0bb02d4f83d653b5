/**
 * The one way a reader walks a file's keys: each key read is typed (a wrong type is an error naming the key), each
 * effect is written down as a mapping line with its source, and whatever the reader never touched is reported as
 * ignored (when the reader lists it as known) or unknown. Readers stay declarative: which key, which rule, which source.
 */
import type { Stack } from '../memory/stacks.ts';
import type { SetupProblem } from './error-words.ts';
import {
  setupError,
  type AutoKey,
  type FileKey,
  type FileOutcome,
  type HalfPrecision,
  type MappingEffect,
  type MappingLine,
  type SetupError,
  type SetupOptionKey,
  type SetupOptions,
  type TrainingTool,
} from './mapping.ts';
import { reasonText, type SetupReason } from './reasons.ts';

/** Reads the keys of one file; see `createKeyReader`. */
export interface KeyReader {
  /** Whether the file gives `key` a value (a YAML key left empty counts as absent). */
  has(key: string): boolean;
  /** The value of `key` as a boolean, or undefined when absent; a value of another type is an error. */
  bool(key: string): boolean | undefined;
  /** The value of `key` as a positive integer. */
  count(key: string): number | undefined;
  /** The value of `key` as a number. */
  number(key: string): number | undefined;
  /** The value of `key` as text. */
  text(key: string): string | undefined;
  /** The value of `key` as a list of names: a list, or one comma-separated text. */
  names(key: string): readonly string[] | undefined;
  /** The value of `key` as the file gives it, marked read. */
  raw(key: string): unknown;
  /** Whether `key` is the text `"auto"` (DeepSpeed's and accelerate's placeholder), marking it read when it is. */
  isAuto(key: string): boolean;
  /** Record that `key` sets `option` to `to`, by the rule in `source`. */
  set<K extends SetupOptionKey>(key: string, option: K, to: NonNullable<SetupOptions[K]>, source: string): void;
  /** Record that `key` changes memory in a way the engine does not count (`what`). */
  notModelled(key: string, what: SetupReason, source: string): void;
  /** Record that `key` changes no byte the engine counts, and why. */
  noEffect(key: string, why: SetupReason, source: string): void;
  /** Record that `key` names another file. */
  namesFile(key: string, path: string, source: string): void;
  /** Record a DeepSpeed `"auto"` key that takes `option` from the Trainer's arguments. */
  auto(key: string, option: SetupOptionKey): void;
  /** Record a DeepSpeed `"auto"` key that takes its value from the model's hidden size. */
  hiddenAuto(key: string): void;
  /** Record an error on `key` (the first one is the file's answer). */
  fail(key: string, problem: SetupProblem): void;
  /** Mark keys as known and irrelevant to memory: exact keys, or every key under a prefix ending in `.`. */
  ignore(...keys: readonly string[]): void;
  /** The keys of the file, dotted. */
  keys(): readonly string[];
  /** Record the 16-bit mode the file asks for. */
  half(mode: HalfPrecision): void;
  /** Record that `key`'s meaning is left to the stack's default, and why. */
  leftToStack(key: string, why: SetupReason): void;
  /** The reading, or the first error. */
  finish(stack: Stack | null): FileOutcome;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Nested mappings as dotted keys (`zero_optimization.stage`); lists and empty mappings stay values. */
export function flattenKeys(data: Readonly<Record<string, unknown>>, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [name, value] of Object.entries(data)) {
    const key = `${prefix}${name}`;
    if (isRecord(value) && Object.keys(value).length > 0) for (const [k, v] of flattenKeys(value, `${key}.`)) out.set(k, v);
    else out.set(key, value);
  }
  return out;
}

/** HfArgumentParser's `string_to_bool` (transformers hf_argparser.py): what a command line may write for a boolean. */
const TRUE_TEXTS = new Set(['yes', 'true', 't', 'y', '1']);
const FALSE_TEXTS = new Set(['no', 'false', 'f', 'n', '0']);

/** The value as one line of text, as the mapping shows it. */
export function showValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * A reader over `entries` (dotted keys) of `file`, written by `tool`. With `fromCommandLine`, every value is text, and
 * booleans and numbers are read from text as HfArgumentParser reads them.
 */
export function createKeyReader(
  file: string,
  tool: TrainingTool,
  entries: ReadonlyMap<string, unknown>,
  fromCommandLine = false,
): KeyReader {
  const read = new Set<string>();
  const ignoredKeys = new Set<string>();
  const ignoredPrefixes: string[] = [];
  const lines: MappingLine[] = [];
  const options: SetupOptions = {};
  const autos: AutoKey[] = [];
  const hiddenAutos: FileKey[] = [];
  let error: SetupError | null = null;
  let half: HalfPrecision | null = null;

  const present = (key: string) => entries.has(key) && entries.get(key) !== null && entries.get(key) !== undefined;
  const take = (key: string): unknown => {
    read.add(key);
    return present(key) ? entries.get(key) : undefined;
  };
  const fail = (key: string, problem: SetupProblem) => {
    error ??= setupError(file, key, problem);
  };
  /** The codes of a value of the wrong type: each takes the value as the mapping shows it. */
  type WrongType = 'notNumber' | 'notBoolean' | 'notCount' | 'notText' | 'notNames';
  const wrongType = (key: string, code: WrongType, value: unknown) => {
    fail(key, { code, params: { value: showValue(value) } });
    return undefined;
  };
  const line = (key: string, effect: MappingEffect, source: string) => {
    lines.push({ file, key, value: present(key) ? showValue(entries.get(key)) : '(not set)', effect, source });
  };

  const number = (key: string): number | undefined => {
    const value = take(key);
    if (value === undefined) return undefined;
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string' && fromCommandLine && value.trim() !== '' && Number.isFinite(Number(value)))
      return Number(value);
    return wrongType(key, 'notNumber', value);
  };

  return {
    has: present,
    bool(key) {
      const value = take(key);
      if (value === undefined || typeof value === 'boolean') return value;
      if (typeof value === 'string' && fromCommandLine) {
        const lower = value.toLowerCase();
        if (TRUE_TEXTS.has(lower)) return true;
        if (FALSE_TEXTS.has(lower)) return false;
      }
      return wrongType(key, 'notBoolean', value);
    },
    count(key) {
      const value = number(key);
      if (value === undefined) return undefined;
      return Number.isSafeInteger(value) && value >= 1 ? value : wrongType(key, 'notCount', value);
    },
    number,
    text(key) {
      const value = take(key);
      if (value === undefined || typeof value === 'string') return value;
      return wrongType(key, 'notText', value);
    },
    names(key) {
      const value = take(key);
      if (value === undefined) return undefined;
      if (typeof value === 'string')
        return value
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== '');
      if (Array.isArray(value) && value.every((name) => typeof name === 'string')) return value;
      return wrongType(key, 'notNames', value);
    },
    raw: take,
    isAuto(key) {
      const auto = entries.get(key) === 'auto';
      if (auto) read.add(key);
      return auto;
    },
    set(key, option, to, source) {
      options[option] = to;
      line(key, { kind: 'option', option, to }, source);
    },
    notModelled(key, what, source) {
      line(key, { kind: 'not-modelled', what: reasonText(what), reason: what }, source);
    },
    noEffect(key, why, source) {
      read.add(key);
      line(key, { kind: 'no-effect', why: reasonText(why), reason: why }, source);
    },
    namesFile(key, path, source) {
      line(key, { kind: 'names-file', path }, source);
    },
    auto(key, option) {
      read.add(key);
      autos.push({ file, key, option });
    },
    hiddenAuto(key) {
      read.add(key);
      hiddenAutos.push({ file, key });
    },
    fail,
    half(mode) {
      half = mode;
    },
    leftToStack(key, why) {
      line(key, { kind: 'left-to-stack', why: reasonText(why), reason: why }, '');
    },
    ignore(...keys) {
      for (const key of keys) {
        if (key.endsWith('.')) ignoredPrefixes.push(key);
        else ignoredKeys.add(key);
      }
    },
    keys: () => [...entries.keys()],
    finish(stack) {
      if (error !== null) return { ok: false, error };
      const ignored: FileKey[] = [];
      const unknown: FileKey[] = [];
      for (const key of entries.keys()) {
        if (read.has(key)) continue;
        if (ignoredKeys.has(key) || ignoredPrefixes.some((prefix) => key.startsWith(prefix))) ignored.push({ file, key });
        else if (present(key)) unknown.push({ file, key });
      }
      return { ok: true, reading: { file, tool, stack, options, lines, ignored, unknown, autos, hiddenAutos, half } };
    },
  };
}
