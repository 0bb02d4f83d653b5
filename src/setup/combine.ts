/**
 * Several configuration files read as one run: a LLaMA-Factory YAML and the DeepSpeed JSON it names, a TRL command
 * line and an accelerate config. The merge order (`MERGE_ORDER`) says which file wins an option both set, and every
 * such disagreement is reported with its winner. DeepSpeed's `"auto"` keys are filled here, from the other files, as
 * transformers fills them (`HfTrainerDeepSpeedConfig`).
 */
import type { Precision } from '../memory/precision.ts';
import type { Stack } from '../memory/stacks.ts';
import { showValue } from './key-reader.ts';
import type { FileKey, FileReading, HalfPrecision, MappingLine, SetupOptionKey, SetupOptions, TrainingTool } from './mapping.ts';
import { reason, reasonText, SETUP_REASONS, type BufferReasonCode, type SetupReason, type SetupReasons } from './reasons.ts';
import { SETUP_SOURCES } from './sources.ts';
import { SETUP_WORDS, type SetupWords } from './words.ts';

/**
 * Which files win, lowest first: the launcher's config (accelerate), then the trainer's own arguments (Trainer/TRL,
 * LLaMA-Factory, axolotl, torchtune, torchtitan, Unsloth), then DeepSpeed's JSON, from which the DeepSpeed engine is built whatever
 * the trainer was told. Between files of the same rank, the one given later wins.
 */
const MERGE_ORDER: Readonly<Record<TrainingTool, number>> = {
  accelerate: 0,
  'training-arguments': 1,
  'llama-factory': 1,
  axolotl: 1,
  torchtune: 1,
  torchtitan: 1,
  unsloth: 1,
  deepspeed: 2,
};

/** The merge order in words, for `--help` and the mapping's header. */
export const MERGE_ORDER_TEXT = SETUP_WORDS.mergeOrder;

/** Two or more files that set one option differently, and which one counts. */
export interface SetupConflict {
  readonly option: SetupOptionKey;
  /** Every file and key that set it, with the value it gave, in merge order (the winner last). */
  readonly values: readonly (FileKey & { readonly value: string | number | boolean })[];
  /** Why the last one wins, in English, and as a reason other languages word. */
  readonly why: string;
  readonly reason: SetupReason;
}

/** What the files say together. */
export interface SetupMapping {
  /** The stack of the highest-ranked file that names one (a recipe tool over a launcher), or null. */
  readonly stack: Stack | null;
  /** The merged options, to pass to the engine (explicit flags given beside the files override them). */
  readonly options: SetupOptions;
  readonly lines: readonly MappingLine[];
  readonly ignored: readonly FileKey[];
  readonly unknown: readonly FileKey[];
  readonly conflicts: readonly SetupConflict[];
  /** Files a file names (a DeepSpeed JSON) that were not given with it, so their settings are not counted. */
  readonly missing: readonly FileKey[];
}

/** What `combineReadings` needs beyond the files: the model's hidden size, for DeepSpeed's bucket sizes. */
export interface SetupContext {
  readonly hidden?: number;
}

/** DeepSpeed's `"auto"` precision as transformers fills `fp16.enabled` / `bf16.enabled` from the trainer's flags. */
const AUTO_PRECISION: Readonly<Record<HalfPrecision, Precision>> = {
  bf16: 'mixed-bf16',
  fp16: 'mixed-fp16',
  none: 'fp32',
};

const basename = (path: string) => path.split(/[\\/]/).at(-1) ?? path;

/** Combine readings given in command-line order. */
export function combineReadings(readings: readonly FileReading[], context: SetupContext = {}): SetupMapping {
  const ranked = readings
    .map((reading, index) => ({ reading, index }))
    .sort((a, b) => MERGE_ORDER[a.reading.tool] - MERGE_ORDER[b.reading.tool] || a.index - b.index)
    .map(({ reading }) => reading);
  const trainerSide = ranked.filter((reading) => reading.tool !== 'deepspeed');
  const lines: MappingLine[] = [];
  const setters = new Map<SetupOptionKey, (FileKey & { value: string | number | boolean })[]>();
  const options: SetupOptions = {};
  // An "auto" takes the trainer's value, so it never disagrees with it: it sets the option but is no conflict.
  const record = (line: MappingLine, filled = false) => {
    lines.push(line);
    if (line.effect.kind !== 'option') return;
    const { option, to } = line.effect;
    (options as Record<string, unknown>)[option] = to;
    if (filled) return;
    const list = setters.get(option) ?? [];
    list.push({ file: line.file, key: line.key, value: to });
    setters.set(option, list);
  };
  for (const reading of ranked) {
    for (const line of reading.lines) record(line);
    for (const auto of reading.autos) record(resolveAuto(auto, trainerSide, options), true);
    for (const key of reading.hiddenAutos) lines.push(resolveHiddenAuto(key, reading, context));
  }
  // A file sets an option once: only disagreements between files are conflicts.
  const conflicts: SetupConflict[] = [];
  for (const [option, values] of setters) {
    const perFile = [...new Map(values.map((value) => [value.file, value])).values()];
    if (new Set(perFile.map((value) => String(value.value))).size > 1) {
      const why = conflictReason(perFile, readings);
      conflicts.push({ option, values: perFile, why: reasonText(why), reason: why });
    }
  }
  const given = new Set(readings.map((reading) => basename(reading.file)));
  const missing = lines
    .filter((line) => line.effect.kind === 'names-file' && !given.has(basename(line.effect.path)))
    .map(({ file, key }) => ({ file, key }));
  const stack = [...ranked].reverse().find((reading) => reading.tool !== 'deepspeed' && reading.stack !== null)?.stack;
  return {
    stack: stack ?? ranked.find((reading) => reading.stack !== null)?.stack ?? null,
    options,
    lines,
    ignored: readings.flatMap((reading) => reading.ignored),
    unknown: readings.flatMap((reading) => reading.unknown),
    conflicts,
    missing,
  };
}

/** A DeepSpeed `"auto"` filled from the trainer's side (options merged so far, and its 16-bit flags). */
function resolveAuto(auto: FileReading['autos'][number], trainerSide: readonly FileReading[], merged: SetupOptions): MappingLine {
  const source = SETUP_SOURCES.deepspeedIntegration;
  const base = { file: auto.file, key: auto.key, source };
  if (auto.option === 'precision') {
    const half = [...trainerSide].reverse().find((reading) => reading.half !== null)?.half;
    if (half === undefined || half === null)
      return { ...base, value: 'auto', effect: reasonEffect('left-to-stack', reason('autoNoHalf')) };
    const precision = AUTO_PRECISION[half];
    return { ...base, value: `auto → ${half}`, effect: { kind: 'option', option: 'precision', to: precision } };
  }
  const value = merged[auto.option];
  if (value === undefined || typeof value === 'boolean')
    return { ...base, value: 'auto', effect: reasonEffect('left-to-stack', reason('autoNoOption', auto.option)) };
  return { ...base, value: `auto → ${value}`, effect: { kind: 'option', option: auto.option, to: value } };
}

/** A DeepSpeed bucket size filled from the hidden size h (`trainer_config_finalize`): h², 0.9·h², 10·h. */
function resolveHiddenAuto(key: FileKey, reading: FileReading, context: SetupContext): MappingLine {
  const source = SETUP_SOURCES.deepspeedIntegration;
  const zero3 = reading.options.zero === 3;
  const h = context.hidden;
  const formula: Readonly<Record<string, [string, (h: number) => number, BufferReasonCode] | undefined>> = {
    'zero_optimization.reduce_bucket_size': ['h²', (x) => x * x, 'reduceBucket'],
    ...(zero3
      ? {
          'zero_optimization.stage3_prefetch_bucket_size': ['0.9·h²', (x) => 0.9 * x * x, 'prefetchBucket'],
          'zero_optimization.stage3_param_persistence_threshold': ['10·h', (x) => 10 * x, 'persistenceThreshold'],
        }
      : {}),
  };
  const rule = formula[key.key];
  if (rule === undefined) return { ...key, value: 'auto', effect: reasonEffect('not-modelled', reason('autoNotZero3')), source };
  if (h === undefined)
    return {
      ...key,
      value: `auto → ${rule[0]}`,
      effect: reasonEffect('not-modelled', reason('autoHiddenUnknown')),
      source,
    };
  const elements = Math.trunc(rule[1](h));
  return {
    ...key,
    value: `auto → ${rule[0]} = ${elements} (h = ${h})`,
    effect: reasonEffect('not-modelled', reason(rule[2], elements)),
    source,
  };
}

/** A line's effect given by a reason: its English text as the rule's words, and its code for other languages. */
function reasonEffect(kind: 'not-modelled' | 'left-to-stack', given: SetupReason): MappingLine['effect'] {
  return kind === 'not-modelled'
    ? { kind, what: reasonText(given), reason: given }
    : { kind, why: reasonText(given), reason: given };
}

/** Why the last of `values` wins, by the tools of the files involved. */
function conflictReason(values: readonly FileKey[], readings: readonly FileReading[]): SetupReason {
  const toolOf = (file: string) => readings.find((reading) => reading.file === file)?.tool;
  const winner = values.at(-1);
  const winnerTool = winner === undefined ? undefined : toolOf(winner.file);
  const others = values.slice(0, -1).map(({ file }) => toolOf(file));
  if (winnerTool === 'deepspeed') return reason('deepSpeedWins');
  if (others.includes('accelerate')) return reason('trainerWins');
  return reason('laterFileWins');
}

/** One line per conflict, naming each file's value and the winner. */
export function conflictLine(
  conflict: SetupConflict,
  words: SetupWords = SETUP_WORDS,
  reasons: SetupReasons = SETUP_REASONS,
): string {
  const said = conflict.values
    .map((value) => words.conflictValue(`${value.key}: ${showValue(value.value)}`, value.file))
    .join(words.conflictAnd);
  const winner = conflict.values.at(-1);
  return words.conflict(
    said,
    conflict.option,
    winner === undefined ? '' : showValue(winner.value),
    reasonText(conflict.reason, reasons),
  );
}
