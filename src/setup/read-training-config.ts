/** One training configuration file, whatever tool wrote it: parsed, its tool told, and read by that tool's reader. */
import { readAccelerateYaml } from './accelerate-yaml.ts';
import { readAxolotlYaml } from './axolotl-yaml.ts';
import { readDeepSpeedJson } from './deepspeed-json.ts';
import { detectTool } from './detect-tool.ts';
import { readLlamaFactoryYaml } from './llama-factory-yaml.ts';
import { setupError, type FileOutcome, type TrainingTool } from './mapping.ts';
import { parseConfigText } from './parse-text.ts';
import { readTorchtitanToml } from './torchtitan-toml.ts';
import { readTorchtuneOverrides, readTorchtuneYaml } from './torchtune-yaml.ts';
import { readTrainingArguments } from './training-arguments.ts';
import { readUnsloth } from './unsloth.ts';

/** The reader of each tool's keys. */
const READERS: Readonly<Record<TrainingTool, (file: string, data: Readonly<Record<string, unknown>>) => FileOutcome>> = {
  'training-arguments': (file, data) => readTrainingArguments(file, { data }),
  deepspeed: readDeepSpeedJson,
  accelerate: readAccelerateYaml,
  'llama-factory': readLlamaFactoryYaml,
  axolotl: readAxolotlYaml,
  torchtune: readTorchtuneYaml,
  torchtitan: readTorchtitanToml,
  unsloth: readUnsloth,
};

/** Read `text`, the content of `file` (named as the reader should see it in messages). */
export function readTrainingConfig(file: string, text: string): FileOutcome {
  const parsed = parseConfigText(file, text);
  if (!parsed.ok) return parsed;
  if (parsed.kind === 'command-line') return readTrainingArguments(file, { commandLine: parsed.text });
  if (parsed.kind === 'torchtune-overrides') return readTorchtuneOverrides(file, parsed.text);
  const tool = detectTool(parsed.data);
  if (tool === null) return { ok: false, error: setupError(file, '', { code: 'unknownTool' }) };
  return READERS[tool](file, parsed.data);
}
