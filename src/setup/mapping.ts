/**
 * What reading a training configuration file gives: the engine options it sets, line by line with the rule that maps
 * each key and that rule's source, the keys it ignored or did not know, and the stack that wrote it. One shape for
 * every reader (one per tool) and for the combination of several files (`combine.ts`).
 */
import type { EstimateOptions } from '../memory/options.ts';
import type { Stack } from '../memory/stacks.ts';
import { wordSetupProblem, type SetupProblem } from './error-words.ts';
import type { SetupReason } from './reasons.ts';

/** The tools whose files are read, one reader each. */
export type TrainingTool =
  'training-arguments' | 'deepspeed' | 'accelerate' | 'llama-factory' | 'axolotl' | 'torchtune' | 'torchtitan' | 'unsloth';

/** The engine options a training configuration may set: how a job trains, never which model or GPU. */
export const SETUP_OPTION_KEYS = [
  'precision',
  'optimizer',
  'optimizerImpl',
  'microBatch',
  'seq',
  'gradAccum',
  'recompute',
  'attention',
  'finetune',
  'loraRank',
  'loraTargets',
  'dp',
  'shardGroup',
  'tp',
  'zero',
  'offload',
  'offloadDevice',
  'loss',
  'optimizerInBackward',
  'loraDropout',
  'loraDtype',
  'modulesToSave',
  'dora',
  'qloraFormat',
  'qloraKept',
  'activationOffload',
  'keepGatheredWeights',
  'compile',
  'batching',
  'fp8',
  'fp8AllGather',
] as const satisfies readonly (keyof EstimateOptions)[];

/** Those options, as a configuration sets them. */
export type SetupOptions = Partial<Pick<EstimateOptions, (typeof SETUP_OPTION_KEYS)[number]>>;

/** One engine option a configuration may set. */
export type SetupOptionKey = keyof SetupOptions;

/** What one key of a file did. */
export type MappingEffect =
  /** It sets an engine option. */
  | { readonly kind: 'option'; readonly option: SetupOptionKey; readonly to: string | number | boolean }
  /**
   * It changes memory in a way the engine does not count yet; `what` names it in English (the terminal's words), and
   * `reason` is the same as a code with its parameters, which other languages word.
   */
  | { readonly kind: 'not-modelled'; readonly what: string; readonly reason: SetupReason }
  /** It changes no byte the engine counts, though it reads as if it might; `why` says why not (`reason` as above). */
  | { readonly kind: 'no-effect'; readonly why: string; readonly reason: SetupReason }
  /** It names another file, which is read with it (a DeepSpeed JSON named by a YAML). */
  | { readonly kind: 'names-file'; readonly path: string }
  /** What it means depends on something the file does not say; the stack's default decides (`why` says what). */
  | { readonly kind: 'left-to-stack'; readonly why: string; readonly reason: SetupReason };

/** An effect with its reason's English only, as the terminal's `--json` gives it and its table reads it back. */
export type EnglishEffect = {
  [K in MappingEffect['kind']]: Omit<Extract<MappingEffect, { readonly kind: K }>, 'reason'>;
}[MappingEffect['kind']];

/** One line of the mapping: key → value → what it does, with the source of the rule. */
export interface MappingLine {
  /** The file it came from, as the reader named it. */
  readonly file: string;
  /** The key, dotted for nested ones (`zero_optimization.stage`). */
  readonly key: string;
  /** The value as the file gives it (JSON text; `"auto"` resolved is shown as `auto → 4`). */
  readonly value: string;
  readonly effect: MappingEffect;
  /** The tool's file and version, or doc page, that the rule follows. */
  readonly source: string;
}

/** A key named with the file it came from. */
export interface FileKey {
  readonly file: string;
  readonly key: string;
}

/** A DeepSpeed key left to `"auto"`: it takes the value of `option` from the Trainer's arguments (`combine.ts`). */
export interface AutoKey extends FileKey {
  readonly option: SetupOptionKey;
}

/** What one file gave. */
export interface FileReading {
  readonly file: string;
  readonly tool: TrainingTool;
  /** The stack the file implies, or null when it does not say (a DeepSpeed JSON alone is run by some launcher). */
  readonly stack: Stack | null;
  /** The options it set; where two of its keys set one option, the one its reader reads later wins. */
  readonly options: SetupOptions;
  readonly lines: readonly MappingLine[];
  /** Keys known to the tool but irrelevant to memory (learning rate, logging, data paths). */
  readonly ignored: readonly FileKey[];
  /** Keys this reader does not know: a typo, a newer tool version, or something not yet mapped. */
  readonly unknown: readonly FileKey[];
  /** DeepSpeed keys set to `"auto"`, resolved from the other files when combined. */
  readonly autos: readonly AutoKey[];
  /** Hidden-size-based DeepSpeed keys set to `"auto"` (bucket sizes), resolved from the model's hidden size. */
  readonly hiddenAutos: readonly FileKey[];
  /**
   * The 16-bit mode the file asks the trainer for (`bf16: true`, accelerate's `mixed_precision`), or null when it does
   * not say: DeepSpeed's `"auto"` precision keys resolve from it.
   */
  readonly half: HalfPrecision | null;
}

/** A trainer's 16-bit flag: `bf16`, `fp16`, or neither. */
export type HalfPrecision = 'bf16' | 'fp16' | 'none';

/** Why a file was refused: one line naming the file and the key (`key` is empty when the whole file is at fault). */
export interface SetupError {
  readonly file: string;
  readonly key: string;
  /** What is wrong, as a code with its parameters: a page words it in its language. */
  readonly problem: SetupProblem;
  /** The same in English, the terminal's words. */
  readonly message: string;
}

/** The error of `file` at `key` (empty for the whole file): the only way one is made, so each has its code. */
export function setupError(file: string, key: string, problem: SetupProblem): SetupError {
  return { file, key, problem, message: wordSetupProblem(problem) };
}

/** A reader's answer. */
export type FileOutcome =
  { readonly ok: true; readonly reading: FileReading } | { readonly ok: false; readonly error: SetupError };

/** One error as one line: `FILE: KEY: message`. */
export function setupErrorLine(error: SetupError): string {
  return `${error.file}: ${error.key === '' ? '' : `${error.key}: `}${error.message}`;
}
