/** Which tool wrote a configuration, told from its keys (a file says what it is; its name does not). */
import type { TrainingTool } from './mapping.ts';
import { UNSLOTH_SECTIONS } from './unsloth.ts';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Trainer (and TRL) keys: the last guess, once no other tool's keys are there. */
const TRAINER_KEYS = [
  'per_device_train_batch_size',
  'gradient_accumulation_steps',
  'gradient_checkpointing',
  'output_dir',
  'learning_rate',
  'num_train_epochs',
  'optim',
  'bf16',
  'fp16',
  'fsdp',
  'deepspeed',
  'max_length',
  'use_peft',
  'packing',
  'padding_free',
];

/** Keys that only one tool's files hold at the top level, tried in this order. */
const SIGNATURES: ReadonlyArray<readonly [TrainingTool, (data: Readonly<Record<string, unknown>>) => boolean]> = [
  [
    'deepspeed',
    (d) => 'zero_optimization' in d || 'train_micro_batch_size_per_gpu' in d || isRecord(d['bf16']) || isRecord(d['fp16']),
  ],
  ['accelerate', (d) => 'distributed_type' in d || 'compute_environment' in d],
  // torchtitan's job config: its [job] and [parallelism] tables (TOML).
  ['torchtitan', (d) => isRecord(d['job']) || isRecord(d['parallelism'])],
  ['torchtune', (d) => Object.values(d).some((value) => isRecord(value) && '_component_' in value)],
  ['unsloth', (d) => UNSLOTH_SECTIONS.some((section) => isRecord(d[section]))],
  ['llama-factory', (d) => 'finetuning_type' in d || 'cutoff_len' in d || ('stage' in d && 'template' in d)],
  ['axolotl', (d) => 'base_model' in d || 'micro_batch_size' in d || 'sequence_len' in d || 'adapter' in d],
  ['training-arguments', (d) => TRAINER_KEYS.some((key) => key in d)],
];

/** The tool whose file `data` is, or null when no tool's keys are there. */
export function detectTool(data: Readonly<Record<string, unknown>>): TrainingTool | null {
  return SIGNATURES.find(([, matches]) => matches(data))?.[0] ?? null;
}
