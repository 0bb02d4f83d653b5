/**
 * The part of TOML (toml.io v1.0.0) that torchtitan's `train_configs/*.toml` use, read as data: `[table]` and
 * `[dotted.table]` headers, `key = value` lines (bare or dotted keys), basic and literal strings, integers, floats,
 * booleans and one-line arrays of them, `#` comments. Anything else (inline tables, arrays of tables, multi-line strings
 * or arrays, dates) is refused with its line, never guessed at: no package parses it, and nothing is evaluated.
 */

import { wordCoded, type CodedSentence, type WordsOf } from '../base/coded-words.ts';

/** Why a line is not read, by code, in English: the terminal's words (a page words the code in its language). */
export const TOML_WORDS = {
  arraysOfTables: (): string => 'arrays of tables ([[…]]) are not read',
  headerNotClosed: (p: { line: string }): string => `a table header must end with ]: ${p.line}`,
  notKeyValue: (p: { line: string }): string => `expected key = value, got ${p.line}`,
  givenTwice: (p: { key: string }): string => `${p.key} is given twice`,
  notBareKey: (p: { key: string }): string => `expected a bare key, got ${p.key}`,
  valueNotTable: (p: { key: string }): string => `${p.key} is a value, not a table`,
  noValue: (): string => 'a key needs a value',
  multiLineString: (): string => 'multi-line strings are not read',
  textAfterString: (p: { text: string }): string => `unexpected text after a string: ${p.text}`,
  inlineTable: (): string => 'inline tables ({…}) are not read',
  unknownValue: (p: { text: string }): string => `not a value this reader knows: ${p.text}`,
  unknownEscape: (p: { escape: string }): string => `unknown escape \\${p.escape}`,
  stringNotClosed: (): string => 'a string is not closed on its line',
  arrayNotClosed: (): string => 'arrays must close on their line',
  nestedArray: (): string => 'nested arrays are not read',
  noComma: (p: { text: string }): string => `expected , between array items, got ${p.text}`,
};

/** What wording a line's refusal takes: one function per code, with that code's parameters. */
export type TomlWords = WordsOf<typeof TOML_WORDS>;

/** Why a line is not read, as data. */
export type TomlProblem = CodedSentence<TomlWords>;

/** A TOML value this subset reads. */
export type TomlValue = string | number | boolean | readonly TomlValue[] | { readonly [key: string]: TomlValue };

/** The document as nested tables, or the first line it could not read. */
export type TomlOutcome =
  | { readonly ok: true; readonly data: Record<string, TomlValue> }
  | { readonly ok: false; readonly line: number; readonly problem: TomlProblem; readonly message: string };

type Table = Record<string, TomlValue>;

const BARE_KEY = /^[A-Za-z0-9_-]+$/;
const INTEGER = /^[+-]?(0|[1-9](_?\d)*)$/;
const FLOAT = /^[+-]?(0|[1-9](_?\d)*)(\.\d(_?\d)*)?([eE][+-]?\d(_?\d)*)?$/;

/** A line not read: its problem as data, worded in English as the error's message. */
class TomlError extends Error {
  constructor(readonly problem: TomlProblem) {
    super(wordCoded(problem, TOML_WORDS));
  }
}

const isTable = (value: TomlValue | undefined): value is Table =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parse `text`. */
export function parseTomlSubset(text: string): TomlOutcome {
  const root: Table = {};
  let current = root;
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    try {
      const line = stripComment(raw).trim();
      if (line === '') continue;
      if (line.startsWith('[[')) throw new TomlError({ code: 'arraysOfTables' });
      if (line.startsWith('[')) {
        if (!line.endsWith(']')) throw new TomlError({ code: 'headerNotClosed', params: { line } });
        current = tableAt(root, splitKey(line.slice(1, -1)));
        continue;
      }
      const equals = line.indexOf('=');
      if (equals < 0) throw new TomlError({ code: 'notKeyValue', params: { line } });
      const path = splitKey(line.slice(0, equals));
      const last = path.pop() as string;
      const table = tableAt(current, path);
      if (last in table) throw new TomlError({ code: 'givenTwice', params: { key: last } });
      table[last] = readValue(line.slice(equals + 1).trim());
    } catch (error) {
      if (error instanceof TomlError) return { ok: false, line: index + 1, problem: error.problem, message: error.message };
      throw error;
    }
  }
  return { ok: true, data: root };
}

/** The line without its comment: a `#` outside a string starts one. */
function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quote !== null) {
      if (char === '\\' && quote === '"') i++;
      else if (char === quote) quote = null;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '#') return line.slice(0, i);
  }
  return line;
}

/** A dotted key's parts, each bare (quoted keys are not read). */
function splitKey(key: string): string[] {
  const parts = key.split('.').map((part) => part.trim());
  for (const part of parts) if (!BARE_KEY.test(part)) throw new TomlError({ code: 'notBareKey', params: { key: key.trim() } });
  return parts;
}

/** The table at `path` under `table`, made where missing. */
function tableAt(table: Table, path: readonly string[]): Table {
  let at = table;
  for (const part of path) {
    const next = at[part];
    if (next === undefined) at = at[part] = {};
    else if (isTable(next)) at = next;
    else throw new TomlError({ code: 'valueNotTable', params: { key: part } });
  }
  return at;
}

/** One value: a string, number, boolean or one-line array. */
function readValue(text: string): TomlValue {
  if (text === '') throw new TomlError({ code: 'noValue' });
  if (text === 'true' || text === 'false') return text === 'true';
  if (text.startsWith('"""') || text.startsWith("'''")) throw new TomlError({ code: 'multiLineString' });
  if (text.startsWith('"') || text.startsWith("'")) {
    const [value, rest] = readString(text);
    if (rest.trim() !== '') throw new TomlError({ code: 'textAfterString', params: { text: rest.trim() } });
    return value;
  }
  if (text.startsWith('[')) return readArray(text);
  if (text.startsWith('{')) throw new TomlError({ code: 'inlineTable' });
  if (INTEGER.test(text)) return Number(text.replaceAll('_', ''));
  if (FLOAT.test(text)) return Number(text.replaceAll('_', ''));
  throw new TomlError({ code: 'unknownValue', params: { text } });
}

const ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };

/** A string at the start of `text`, and what follows it. */
function readString(text: string): [string, string] {
  const quote = text[0];
  let value = '';
  for (let i = 1; i < text.length; i++) {
    const char = text[i] as string;
    if (char === quote) return [value, text.slice(i + 1)];
    if (char === '\\' && quote === '"') {
      const escaped = ESCAPES[text[i + 1] ?? ''];
      if (escaped === undefined) throw new TomlError({ code: 'unknownEscape', params: { escape: text[i + 1] ?? '' } });
      value += escaped;
      i++;
    } else value += char;
  }
  throw new TomlError({ code: 'stringNotClosed' });
}

/** A one-line array: `[v, v, …]`. */
function readArray(text: string): TomlValue[] {
  if (!text.endsWith(']')) throw new TomlError({ code: 'arrayNotClosed' });
  const items: TomlValue[] = [];
  let rest = text.slice(1, -1).trim();
  while (rest !== '') {
    let item: string;
    if (rest.startsWith('"') || rest.startsWith("'")) {
      const [value, after] = readString(rest);
      items.push(value);
      rest = after.trim();
    } else {
      const comma = rest.indexOf(',');
      item = (comma < 0 ? rest : rest.slice(0, comma)).trim();
      if (item.startsWith('[')) throw new TomlError({ code: 'nestedArray' });
      items.push(readValue(item));
      rest = comma < 0 ? '' : rest.slice(comma);
    }
    if (rest.startsWith(',')) rest = rest.slice(1).trim();
    else if (rest !== '') throw new TomlError({ code: 'noComma', params: { text: rest } });
  }
  return items;
}
