/**
 * `estimate --write-config FORMAT`: the estimate's setup written as the file a tool runs it from (src/setup/writers),
 * instead of the table. What the file cannot say is listed as `#` comments above it (the JSON formats have no comments:
 * `--json` carries the list as `writtenConfig.unexpressed`).
 */
import { createFlagTable, enumFlag, type EstimateOptions } from '../memory/index.ts';
import {
  writeAccelerateYaml,
  writeAxolotlYaml,
  writeDeepSpeedJson,
  writeLlamaFactoryYaml,
  writeTorchtuneOverrides,
  writeTrainingArgumentsJson,
  writeTrainingArgumentsPython,
  type SetupOptions,
  type WrittenConfig,
} from '../setup/index.ts';

/** Each format, its writer, and whether its text takes `#` comments. */
const FORMATS = {
  'training-arguments': { write: writeTrainingArgumentsPython, comments: true },
  'training-arguments-json': { write: writeTrainingArgumentsJson, comments: false },
  'deepspeed-json': { write: writeDeepSpeedJson, comments: false },
  'accelerate-yaml': { write: writeAccelerateYaml, comments: true },
  'llama-factory-yaml': { write: writeLlamaFactoryYaml, comments: true },
  'axolotl-yaml': { write: writeAxolotlYaml, comments: true },
  'torchtune-overrides': { write: writeTorchtuneOverrides, comments: true },
} as const satisfies Record<string, { write: (options: SetupOptions) => WrittenConfig; comments: boolean }>;

/** A format `--write-config` writes. */
export type WriteFormat = keyof typeof FORMATS;

/** The flag. */
export const WRITE_CONFIG_FLAGS = createFlagTable([
  enumFlag(
    {
      key: 'writeConfig',
      flag: 'write-config',
      help: "print the setup as a tool's file instead of the table (what it cannot say as # comments)",
    },
    Object.keys(FORMATS),
  ),
]);

/** Whether `value` names a format. */
export const isWriteFormat = (value: unknown): value is WriteFormat => typeof value === 'string' && value in FORMATS;

/** Write `options` as `format` (a writer reads only the options of how the job trains). */
export function writeConfig(format: WriteFormat, options: EstimateOptions): WrittenConfig {
  return FORMATS[format].write(options);
}

/** The file's text as the terminal prints it: the notes as comments first, where the format has comments. */
export function writtenConfigText(format: WriteFormat, written: WrittenConfig): string {
  if (!FORMATS[format].comments || written.unexpressed.length === 0) return written.text;
  const notes = written.unexpressed.map((entry) => `# not in this file: ${entry.option}: ${entry.why}`);
  return `${notes.join('\n')}\n${written.text}`;
}
