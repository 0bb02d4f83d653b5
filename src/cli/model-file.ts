/**
 * `--config FILE`: a model given as its Hugging Face config.json (or a folder holding one), read defensively — the size
 * checked before a byte is read, the text parsed as JSON and never executed — and turned into the engine's shape by
 * `readConfigJson`. Shared by `estimate` and `plan`; `diffusion` reads its diffusers config through `readConfigText`.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { PROGRAM_NAME } from '../base/command-line.ts';
import {
  createFlagTable,
  isDiffusersConfig,
  MAX_CONFIG_JSON_BYTES,
  readConfigJson,
  stringFlag,
  type ModelConfig,
} from '../memory/index.ts';
import type { CommandIo } from './command.ts';

/** The flag that names the file. */
export const MODEL_FILE_FLAGS = createFlagTable([
  stringFlag(
    {
      key: 'config',
      flag: 'config',
      help: "a model's Hugging Face config.json, or a folder holding one, instead of --model (read, never executed; 1 MB at most)",
    },
    'FILE',
  ),
]);

/** What `--config` gave: the shape and the reader's warnings, or one line saying why the file was refused. */
export type ModelFile = { config: ModelConfig; warnings: readonly string[] } | { refused: string };

/** The text of a config file, and the file read (FILE, or FILE/config.json for a folder); or one line saying why not. */
export type ConfigText = { text: string; file: string } | { refused: string };

const overLimit = (file: string, bytes: number) => ({
  refused: `--config ${file}: ${bytes} bytes, over the 1 MB limit; a model's config.json is a few KB`,
});

/**
 * Read `path` (a config.json, or a folder with one) as UTF-8 text, its size checked before a byte is read; `-` is
 * standard input (or the bytes a library call was given), its size checked once read.
 */
export function readConfigText(path: string, io: CommandIo): ConfigText {
  let file = path;
  if (path !== '-')
    try {
      if (statSync(path).isDirectory()) file = join(path, 'config.json');
      const bytes = statSync(file).size;
      if (bytes > MAX_CONFIG_JSON_BYTES) return overLimit(file, bytes);
    } catch (error) {
      return { refused: `--config ${file}: cannot read it (${error instanceof Error ? error.message : String(error)})` };
    }
  try {
    const bytes = io.read(file);
    if (bytes.length > MAX_CONFIG_JSON_BYTES) return overLimit(file, bytes.length);
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), file };
  } catch (error) {
    return {
      refused: `--config ${file}: cannot read it as UTF-8 text (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

/** Read `path` (a config.json, or a folder with one) into a model shape. */
export function readModelFile(path: string, io: CommandIo): ModelFile {
  const read = readConfigText(path, io);
  if ('refused' in read) return read;
  const { text, file } = read;
  if (isDiffusersConfig(parsedOrNull(text)))
    return {
      refused: `--config ${file}: a diffusers component config, not a Transformers one; for a diffusion transformer run: ${PROGRAM_NAME} diffusion --config ${file}`,
    };
  const reading = readConfigJson(text);
  if (!reading.ok) return { refused: `--config ${file}: ${reading.errors.map((e) => e.message).join('; ')}` };
  return { config: reading.config, warnings: reading.warnings };
}

/** The parsed JSON, or null when it does not parse (readConfigJson then says why). */
function parsedOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
