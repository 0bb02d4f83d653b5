/**
 * `--config FILE`: a model given as its Hugging Face config.json (or a folder holding one), read defensively — the size
 * checked before a byte is read, the text parsed as JSON and never executed — and turned into the engine's shape by
 * `readConfigJson`. Shared by `estimate` and `plan`.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { createFlagTable, MAX_CONFIG_JSON_BYTES, readConfigJson, stringFlag, type ModelConfig } from '../memory/index.ts';
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

/** Read `path` (a config.json, or a folder with one) into a model shape. */
export function readModelFile(path: string, io: CommandIo): ModelFile {
  let file = path;
  try {
    if (statSync(path).isDirectory()) file = join(path, 'config.json');
    const bytes = statSync(file).size;
    if (bytes > MAX_CONFIG_JSON_BYTES)
      return { refused: `--config ${file}: ${bytes} bytes, over the 1 MB limit; a model's config.json is a few KB` };
  } catch (error) {
    return { refused: `--config ${file}: cannot read it (${error instanceof Error ? error.message : String(error)})` };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(io.read(file));
  } catch (error) {
    return {
      refused: `--config ${file}: cannot read it as UTF-8 text (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  const reading = readConfigJson(text);
  if (!reading.ok) return { refused: `--config ${file}: ${reading.errors.map((e) => e.message).join('; ')}` };
  return { config: reading.config, warnings: reading.warnings };
}
