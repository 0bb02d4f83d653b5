/**
 * The part of TOML (toml.io v1.0.0) that torchtitan's `train_configs/*.toml` use, read as data: `[table]` and
 * `[dotted.table]` headers, `key = value` lines (bare or dotted keys), basic and literal strings, integers, floats,
 * booleans and one-line arrays of them, `#` comments. Anything else (inline tables, arrays of tables, multi-line strings
 * or arrays, dates) is refused with its line, never guessed at: no package parses it, and nothing is evaluated.
 */

/** A TOML value this subset reads. */
export type TomlValue = string | number | boolean | readonly TomlValue[] | { readonly [key: string]: TomlValue };

/** The document as nested tables, or the first line it could not read. */
export type TomlOutcome =
  | { readonly ok: true; readonly data: Record<string, TomlValue> }
  | { readonly ok: false; readonly line: number; readonly message: string };

type Table = Record<string, TomlValue>;

const BARE_KEY = /^[A-Za-z0-9_-]+$/;
const INTEGER = /^[+-]?(0|[1-9](_?\d)*)$/;
const FLOAT = /^[+-]?(0|[1-9](_?\d)*)(\.\d(_?\d)*)?([eE][+-]?\d(_?\d)*)?$/;

class TomlError extends Error {}

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
      if (line.startsWith('[[')) throw new TomlError('arrays of tables ([[…]]) are not read');
      if (line.startsWith('[')) {
        if (!line.endsWith(']')) throw new TomlError(`a table header must end with ]: ${line}`);
        current = tableAt(root, splitKey(line.slice(1, -1)));
        continue;
      }
      const equals = line.indexOf('=');
      if (equals < 0) throw new TomlError(`expected key = value, got ${line}`);
      const path = splitKey(line.slice(0, equals));
      const last = path.pop() as string;
      const table = tableAt(current, path);
      if (last in table) throw new TomlError(`${last} is given twice`);
      table[last] = readValue(line.slice(equals + 1).trim());
    } catch (error) {
      if (error instanceof TomlError) return { ok: false, line: index + 1, message: error.message };
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
  for (const part of parts) if (!BARE_KEY.test(part)) throw new TomlError(`expected a bare key, got ${key.trim()}`);
  return parts;
}

/** The table at `path` under `table`, made where missing. */
function tableAt(table: Table, path: readonly string[]): Table {
  let at = table;
  for (const part of path) {
    const next = at[part];
    if (next === undefined) at = at[part] = {};
    else if (isTable(next)) at = next;
    else throw new TomlError(`${part} is a value, not a table`);
  }
  return at;
}

/** One value: a string, number, boolean or one-line array. */
function readValue(text: string): TomlValue {
  if (text === '') throw new TomlError('a key needs a value');
  if (text === 'true' || text === 'false') return text === 'true';
  if (text.startsWith('"""') || text.startsWith("'''")) throw new TomlError('multi-line strings are not read');
  if (text.startsWith('"') || text.startsWith("'")) {
    const [value, rest] = readString(text);
    if (rest.trim() !== '') throw new TomlError(`unexpected text after a string: ${rest.trim()}`);
    return value;
  }
  if (text.startsWith('[')) return readArray(text);
  if (text.startsWith('{')) throw new TomlError('inline tables ({…}) are not read');
  if (INTEGER.test(text)) return Number(text.replaceAll('_', ''));
  if (FLOAT.test(text)) return Number(text.replaceAll('_', ''));
  throw new TomlError(`not a value this reader knows: ${text}`);
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
      if (escaped === undefined) throw new TomlError(`unknown escape \\${text[i + 1] ?? ''}`);
      value += escaped;
      i++;
    } else value += char;
  }
  throw new TomlError('a string is not closed on its line');
}

/** A one-line array: `[v, v, …]`. */
function readArray(text: string): TomlValue[] {
  if (!text.endsWith(']')) throw new TomlError('arrays must close on their line');
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
      if (item.startsWith('[')) throw new TomlError('nested arrays are not read');
      items.push(readValue(item));
      rest = comma < 0 ? '' : rest.slice(comma);
    }
    if (rest.startsWith(',')) rest = rest.slice(1).trim();
    else if (rest !== '') throw new TomlError(`expected , between array items, got ${rest}`);
  }
  return items;
}
