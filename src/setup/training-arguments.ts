/**
 * Reader of Hugging Face `TrainingArguments` and TRL `SFTConfig` (with TRL's `ModelConfig` keys, which TRL scripts
 * take on the same command line): as JSON (`TrainingArguments.to_json_string()`, a YAML of the same keys) or as the
 * script's command line.
 */
import type { Stack } from '../memory/stacks.ts';
import { createKeyReader, flattenKeys } from './key-reader.ts';
import type { FileOutcome } from './mapping.ts';
import { commandLineKeys } from './script-command-line.ts';
import { readTrainerArguments } from './trainer-keys.ts';

/** Keys only TRL has (SFTConfig, ModelConfig, ScriptArguments): a file with one of them is a TRL run. */
const TRL_KEYS = [
  'max_length',
  'packing',
  'padding_free',
  'use_peft',
  'lora_r',
  'lora_target_modules',
  'dataset_text_field',
  'completion_only_loss',
  'assistant_only_loss',
  'loss_type',
  'activation_offloading',
  'dataset_name',
  'model_name_or_path',
];

/** Read Trainer arguments given as keys and values (`data`) or as a command line (`commandLine`). */
export function readTrainingArguments(
  file: string,
  input: { readonly data: Readonly<Record<string, unknown>> } | { readonly commandLine: string },
): FileOutcome {
  const entries = 'data' in input ? flattenKeys(input.data) : commandLineKeys(input.commandLine);
  const r = createKeyReader(file, 'training-arguments', entries, 'commandLine' in input);
  const stack: Stack = TRL_KEYS.some((key) => r.has(key)) ? 'trl' : 'hf-trainer';
  readTrainerArguments(r, '');
  return r.finish(stack);
}
