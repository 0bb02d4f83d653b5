/**
 * `--training-config FILE`, repeatable: the training configuration files a reader already has (a LLaMA-Factory YAML
 * and the DeepSpeed JSON it names, a TRL command line, an accelerate config), each read defensively (size checked
 * before a byte is read, UTF-8, parsed as data and never executed) by `src/setup`. Shared by `estimate` and `plan`.
 */
import { statSync } from 'node:fs';
import { createFlagTable, stringFlag } from '../memory/index.ts';
import {
  MAX_TRAINING_CONFIG_BYTES,
  MERGE_ORDER_TEXT,
  combineReadings,
  conflictLine,
  readTrainingConfig,
  setupErrorLine,
  type EnglishEffect,
  type FileReading,
  type MappingEffect,
  type SetupContext,
  type SetupMapping,
  type SetupOptions,
} from '../setup/index.ts';
import type { CommandIo } from './command.ts';

/** The flag that names the files. */
export const TRAINING_CONFIG_FLAGS = createFlagTable([
  {
    ...stringFlag(
      {
        key: 'trainingConfig',
        flag: 'training-config',
        help: 'a training config to read the setup from: TrainingArguments/TRL JSON or command line, DeepSpeed JSON, accelerate, LLaMA-Factory, axolotl or torchtune YAML, torchtitan TOML, Unsloth keywords; repeatable, flags given here win (read, never executed; 1 MiB at most)',
      },
      'FILE',
    ),
    repeatable: true,
  },
]);

/** The paths given to `--training-config`, as parseArgs returns them (one or several). */
export function trainingConfigPaths(value: unknown): readonly string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((path): path is string => typeof path === 'string') : [];
}

/** What the files gave, or one line saying which file and key were refused. */
export type TrainingConfigFiles = { readonly readings: readonly FileReading[] } | { readonly refused: string };

/** Read every file in `paths`. */
export function readTrainingConfigFiles(paths: readonly string[], io: CommandIo): TrainingConfigFiles {
  const readings: FileReading[] = [];
  for (const path of paths) {
    let text: string;
    try {
      const bytes = path === '-' ? 0 : statSync(path).size;
      if (bytes > MAX_TRAINING_CONFIG_BYTES)
        return {
          refused: `--training-config ${path}: ${bytes} bytes, over the 1 MiB limit; a training configuration is a few KB`,
        };
      text = new TextDecoder('utf-8', { fatal: true }).decode(io.read(path));
    } catch (error) {
      return { refused: `--training-config ${path}: cannot read it (${error instanceof Error ? error.message : String(error)})` };
    }
    const outcome = readTrainingConfig(path, text);
    if (!outcome.ok) return { refused: `--training-config ${setupErrorLine(outcome.error)}` };
    readings.push(outcome.reading);
  }
  return { readings };
}

/** The mapping as `--json` carries it (`trainingConfig`, described by the command's JSON Schema). */
export function trainingConfigJson(readings: readonly FileReading[], context: SetupContext) {
  const mapping: SetupMapping = combineReadings(readings, context);
  return {
    files: readings.map((reading) => ({ file: reading.file, tool: reading.tool })),
    mergeOrder: MERGE_ORDER_TEXT,
    stack: mapping.stack,
    options: mapping.options,
    lines: mapping.lines.map((line) => ({ ...line, effect: withoutReason(line.effect) })),
    ignored: mapping.ignored,
    unknown: mapping.unknown,
    conflicts: mapping.conflicts.map(({ reason, ...conflict }) => ({ ...conflict, line: conflictLine({ ...conflict, reason }) })),
    missing: mapping.missing,
  };
}

/** An effect as `--json` gives it: the reason's English text, without the code the site's reader words by. */
function withoutReason(effect: MappingEffect): EnglishEffect {
  if (!('reason' in effect)) return effect;
  const { reason: _code, ...rest } = effect;
  return rest;
}

/** What `--json` carries for the training configs. */
export type TrainingConfigJson = ReturnType<typeof trainingConfigJson>;

/**
 * What `plan` takes from the files: the job, not the techniques (those are the planner's choices). The sequence, the
 * process count as `--gpus`, the global batch (micro-batch × accumulation × GPUs, with `gpus` the count given or
 * read), and `--task finetune` for an adapter run.
 */
export function planFlagsFromSetup(options: SetupOptions, gpus: number): Record<string, string> {
  const flags: Record<string, string> = {};
  if (options.seq !== undefined) flags['seq'] = String(options.seq);
  if (options.dp !== undefined) flags['gpus'] = String(options.dp);
  if (options.microBatch !== undefined && options.gradAccum !== undefined)
    flags['global-batch'] = String(options.microBatch * options.gradAccum * gpus);
  if (options.finetune === 'lora' || options.finetune === 'qlora') flags['task'] = 'finetune';
  return flags;
}
