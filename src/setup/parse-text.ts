/**
 * A training configuration's text turned into plain data, defensively: the size checked first, JSON or YAML parsed as
 * data only (YAML's core schema, no custom tags, so `!!python/object` and friends are refused rather than built), TOML
 * by the subset torchtitan writes (`toml-subset.ts`), and never evaluated. A script's command line is left as text for
 * `script-command-line.ts`.
 */
import { parseDocument } from 'yaml';
import type { SetupProblem } from './error-words.ts';
import { setupError, type SetupError } from './mapping.ts';
import { parseTomlSubset } from './toml-subset.ts';

/**
 * The largest file read: 1 MiB. Real training configurations are a few KB (the largest in
 * tests/fixtures/training-configs is about 5 KB); the cap keeps a wrong file (a checkpoint, a dataset) from being parsed.
 */
export const MAX_TRAINING_CONFIG_BYTES = 1_048_576;

/** What the text held: a mapping of keys, a command line, or why it was refused. */
export type ParsedText =
  | { readonly ok: true; readonly kind: 'mapping'; readonly data: Readonly<Record<string, unknown>> }
  | { readonly ok: true; readonly kind: 'command-line'; readonly text: string }
  | { readonly ok: true; readonly kind: 'torchtune-overrides'; readonly text: string }
  | { readonly ok: false; readonly error: SetupError };

/** The most YAML aliases expanded, so that a "billion laughs" file is refused instead of filling memory. */
const MAX_YAML_ALIASES = 100;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A script's command line: it starts with a `--flag`, or with Python or a launcher running the script. */
const COMMAND_LINE = /^(--[A-Za-z_]|(python3?|accelerate|torchrun|deepspeed|trl|uv)\s)/;

/** torchtune's overrides: `tune run …`, or nothing but `key=value` words (a dotted key, no spaces around `=`). */
const TORCHTUNE_OVERRIDES = /^(tune\s+run\s|[\w.]+=\S*(\s+[\w.]+=\S*)*$)/;

/** TOML: the first line that is not blank or a comment is a `[table]` header (YAML cannot start a mapping so). */
const TOML_START = /^(\s*(#.*)?\n)*\s*\[[A-Za-z0-9_.-]+\]\s*(#.*)?(\n|$)/;

/** Parse `text`, the content of `file`. */
export function parseConfigText(file: string, text: string): ParsedText {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_TRAINING_CONFIG_BYTES) return refuse(file, { code: 'tooLarge', params: { bytes } });
  const trimmed = text.trim();
  if (trimmed === '') return refuse(file, { code: 'empty' });
  if (TORCHTUNE_OVERRIDES.test(trimmed)) return { ok: true, kind: 'torchtune-overrides', text: trimmed };
  if (COMMAND_LINE.test(trimmed)) return { ok: true, kind: 'command-line', text: trimmed };
  if (TOML_START.test(trimmed)) {
    const toml = parseTomlSubset(text);
    return toml.ok
      ? { ok: true, kind: 'mapping', data: toml.data }
      : refuse(file, { code: 'notToml', params: { line: toml.line, problem: toml.problem } });
  }
  if (trimmed.startsWith('{')) {
    try {
      // JSON text that starts with `{` and parses is an object, so it needs no check of its own.
      const data = JSON.parse(trimmed) as Readonly<Record<string, unknown>>;
      return { ok: true, kind: 'mapping', data };
    } catch (error) {
      return refuse(file, { code: 'notJson', params: { reason: error instanceof Error ? error.message : String(error) } });
    }
  }
  const document = parseDocument(trimmed, { schema: 'core', customTags: [], uniqueKeys: true, prettyErrors: false });
  const [error] = document.errors;
  if (error !== undefined) return refuse(file, { code: 'notYaml', params: { reason: firstLine(error.message) } });
  const tag = document.warnings.find((warning) => warning.code === 'TAG_RESOLVE_FAILED');
  if (tag !== undefined) return refuse(file, { code: 'yamlTag', params: { reason: firstLine(tag.message) } });
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (failure) {
    return refuse(file, {
      code: 'notYaml',
      params: { reason: firstLine(failure instanceof Error ? failure.message : String(failure)) },
    });
  }
  if (isRecord(data)) return { ok: true, kind: 'mapping', data };
  return refuse(file, { code: 'notKeysOrCommandLine' });
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}

function refuse(file: string, problem: SetupProblem): ParsedText {
  return { ok: false, error: setupError(file, '', problem) };
}
