/**
 * Why the reader refuses a file, as data: a code and its parameters, worded by one words object. The terminal prints
 * these English words (`SetupError.message`); the site's reader words the same error in its page's language from a
 * catalogue typed by `SetupErrorWords` (src/i18n), so no refusal can be made without words in every language.
 */
import { wordCoded, type CodedSentence, type WordsOf } from '../base/coded-words.ts';
import { TOML_WORDS, type TomlProblem } from './toml-subset.ts';

/** `a, b or c`: the values a key takes, as the English errors list them. */
function orList(values: readonly string[]): string {
  return values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values.at(-1) ?? ''}`;
}

/** The English sentence of each refusal, by code. */
export const SETUP_ERROR_WORDS = {
  // The whole file (parse-text.ts, read-training-config.ts). A parser's own reason is its text, in its words.
  tooLarge: (p: { bytes: number }): string => `${p.bytes} bytes, over the 1 MiB limit; a training configuration is a few KB`,
  empty: (): string => 'the file is empty',
  /** The TOML line's own problem (toml-subset.ts) is worded with it, in the same language. */
  notToml: (p: { line: number; problem: TomlProblem }): string =>
    `not read as TOML (line ${p.line}: ${wordCoded(p.problem, TOML_WORDS)})`,
  notJson: (p: { reason: string }): string => `not valid JSON (${p.reason})`,
  notYaml: (p: { reason: string }): string => `not valid YAML (${p.reason})`,
  yamlTag: (p: { reason: string }): string => `YAML tags are not read (${p.reason})`,
  notKeysOrCommandLine: (): string => 'expected keys and values (JSON or YAML) or a command line of --flags',
  unknownTool: (): string =>
    'cannot tell which tool wrote it: expected TrainingArguments/SFTConfig, DeepSpeed, accelerate, LLaMA-Factory, axolotl, torchtune, torchtitan or Unsloth keys',
  // A key's value of the wrong type (key-reader.ts); `value` is the value as the mapping shows it.
  notNumber: (p: { value: string }): string => `expected a number, got ${p.value}`,
  notBoolean: (p: { value: string }): string => `expected true or false, got ${p.value}`,
  notCount: (p: { value: string }): string => `expected a whole number of at least 1, got ${p.value}`,
  notText: (p: { value: string }): string => `expected text, got ${p.value}`,
  notNames: (p: { value: string }): string => `expected a list of names, got ${p.value}`,
  // A key's value outside what its tool takes.
  notAChoice: (p: { allowed: readonly string[]; value: string }): string => `expected ${orList(p.allowed)}, got ${p.value}`,
  notOneOf: (p: { allowed: readonly string[] }): string => `expected one of ${p.allowed.join(', ')}`,
  dropoutRange: (p: { value: number }): string => `expected a dropout probability in [0, 1), got ${p.value}`,
  /** torchtitan's `data_parallel_shard_degree`. */
  shardDegree: (p: { value: number }): string => `expected -1 or a whole number, got ${p.value}`,
  /** torchtune's `data_parallel_shard_dim`. */
  shardDim: (p: { value: number }): string => `expected a whole number or -1, got ${p.value}`,
  selectiveAcOption: (p: { value: string }): string => `expected op or a whole number, got ${p.value}`,
  globalBatch: (p: { global: number; perStep: number }): string =>
    `${p.global} is not a multiple of local_batch_size × data-parallel degree (${p.perStep})`,
  bothHalves: (): string => 'bf16 and fp16 are both true; TrainingArguments refuses the pair',
  unknownModules: (p: { modules: readonly string[] }): string => `unknown modules ${p.modules.join(', ')}`,
  hybridNeedsProcesses: (p: { key: string; machines: number }): string =>
    `${p.key} on ${p.machines} machines needs the process count`,
  processesByMachines: (p: { processes: number; machines: number }): string =>
    `num_processes (${p.processes}) must divide evenly over ${p.machines} machines for a hybrid shard`,
  replicateNeedsShard: (): string => 'dp_replicate_size > 1 needs dp_shard_size (HSDP)',
};

/** What wording the refusals take: one function per code, with that code's parameters. */
export type SetupErrorWords = WordsOf<typeof SETUP_ERROR_WORDS>;

/** Why a file was refused, as data: its code and, where its sentence has any, its parameters. */
export type SetupProblem = CodedSentence<SetupErrorWords>;

/** The sentence of `problem` in `words` (English by default: what the terminal prints). */
export function wordSetupProblem(problem: SetupProblem, words: SetupErrorWords = SETUP_ERROR_WORDS): string {
  return wordCoded(problem, words);
}
