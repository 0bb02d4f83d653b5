/**
 * The files `--write-config` writes: each format's writer, the name its text is read back under (the Python form of
 * `TrainingArguments` is read back as its JSON twin, which holds the same keywords), and whether the text takes `#`
 * comments.
 */
import type { SetupOptions } from '../mapping.ts';
import { writeAccelerateYaml } from './accelerate-yaml-writer.ts';
import { writeAxolotlYaml } from './axolotl-yaml-writer.ts';
import { writeDeepSpeedJson } from './deepspeed-json-writer.ts';
import { writeLlamaFactoryYaml } from './llama-factory-yaml-writer.ts';
import { writeTorchtuneOverrides } from './torchtune-overrides-writer.ts';
import { writeTrainingArgumentsJson, writeTrainingArgumentsPython } from './training-arguments-writer.ts';
import type { WrittenConfig } from './written-config.ts';

/** One format: how it is written, and how its text is read back to check what it reproduces. */
export interface WriteFormatSpec {
  readonly write: (options: SetupOptions) => WrittenConfig;
  /** The writer whose text the readers read back for this format (itself, or the JSON twin of Python code). */
  readonly readBack: (options: SetupOptions) => WrittenConfig;
  /** The file name the read-back text is read under. */
  readonly readAs: string;
  /** Whether the text takes `#` comments (the JSON formats do not). */
  readonly comments: boolean;
}

/** Every format, by its `--write-config` name. */
export const WRITE_FORMATS = {
  'training-arguments': {
    write: writeTrainingArgumentsPython,
    readBack: writeTrainingArgumentsJson,
    readAs: 'sft_config.json',
    comments: true,
  },
  'training-arguments-json': {
    write: writeTrainingArgumentsJson,
    readBack: writeTrainingArgumentsJson,
    readAs: 'sft_config.json',
    comments: false,
  },
  'deepspeed-json': { write: writeDeepSpeedJson, readBack: writeDeepSpeedJson, readAs: 'ds_config.json', comments: false },
  'accelerate-yaml': { write: writeAccelerateYaml, readBack: writeAccelerateYaml, readAs: 'accelerate.yaml', comments: true },
  'llama-factory-yaml': { write: writeLlamaFactoryYaml, readBack: writeLlamaFactoryYaml, readAs: 'train.yaml', comments: true },
  'axolotl-yaml': { write: writeAxolotlYaml, readBack: writeAxolotlYaml, readAs: 'axolotl.yaml', comments: true },
  'torchtune-overrides': {
    write: writeTorchtuneOverrides,
    readBack: writeTorchtuneOverrides,
    readAs: 'overrides',
    comments: true,
  },
} as const satisfies Record<string, WriteFormatSpec>;

/** A format `--write-config` writes. */
export type WriteFormat = keyof typeof WRITE_FORMATS;

/** Whether `value` names a format. */
export const isWriteFormat = (value: unknown): value is WriteFormat => typeof value === 'string' && value in WRITE_FORMATS;
