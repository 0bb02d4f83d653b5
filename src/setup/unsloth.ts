/**
 * Reader of an Unsloth run, given as the keyword arguments of its three calls, in JSON or YAML:
 *
 *     from_pretrained:      { max_seq_length: 2048, load_in_4bit: true, dtype: null }
 *     get_peft_model:       { r: 16, target_modules: [q_proj, ...], use_gradient_checkpointing: unsloth }
 *     training_arguments:   { per_device_train_batch_size: 2, optim: adamw_8bit, bf16: true }
 *
 * (`FastLanguageModel.from_pretrained`, `FastLanguageModel.get_peft_model`, and the `TrainingArguments`/`SFTConfig`
 * given to the trainer). A script is never run, so its calls are copied here as data.
 */
import { createKeyReader, flattenKeys, type KeyReader } from './key-reader.ts';
import type { FileOutcome } from './mapping.ts';
import { reason } from './reasons.ts';
import { SETUP_SOURCES } from './sources.ts';
import { readLoraDropout, readModulesToSave } from './adapter-keys.ts';
import { readLoadDtype, readLoraTargets, readTrainerArguments } from './trainer-keys.ts';

/** The three sections, each the keyword arguments of one call. */
export const UNSLOTH_SECTIONS = ['from_pretrained', 'get_peft_model', 'training_arguments'] as const;

/** Keyword arguments that change nothing the engine counts. */
const IGNORED = [
  'from_pretrained.model_name',
  'from_pretrained.token',
  'from_pretrained.device_map',
  'from_pretrained.trust_remote_code',
  'get_peft_model.lora_alpha',
  'get_peft_model.bias',
  'get_peft_model.random_state',
  'get_peft_model.use_rslora',
  'get_peft_model.loftq_config',
];

/** Read an Unsloth keyword-argument file already parsed into `data`. */
export function readUnsloth(file: string, data: Readonly<Record<string, unknown>>): FileOutcome {
  const r = createKeyReader(file, 'unsloth', flattenKeys(data));
  const source = SETUP_SOURCES.unsloth;
  const seq = r.count('from_pretrained.max_seq_length');
  if (seq !== undefined) r.set('from_pretrained.max_seq_length', 'seq', seq, source);
  const load = readLoadDtype(r, 'from_pretrained.dtype');
  const adapters = r.keys().some((key) => key.startsWith('get_peft_model.'));
  const fourBit = r.bool('from_pretrained.load_in_4bit');
  if (r.bool('from_pretrained.full_finetuning') === true) r.set('from_pretrained.full_finetuning', 'finetune', 'full', source);
  else if (adapters)
    r.set(
      fourBit === true ? 'from_pretrained.load_in_4bit' : 'get_peft_model',
      'finetune',
      fourBit === true ? 'qlora' : 'lora',
      source,
    );
  if (fourBit === true) r.set('from_pretrained.load_in_4bit', 'qloraFormat', 'nf4-dq', SETUP_SOURCES.unslothFourBit);
  if (r.bool('from_pretrained.load_in_8bit') === true)
    r.notModelled('from_pretrained.load_in_8bit', reason('eightBitBase'), source);
  readPeft(r);
  readTrainerArguments(r, 'training_arguments.', load);
  r.ignore(...IGNORED);
  return r.finish('unsloth');
}

/** `get_peft_model`'s rank, targets, dropout and gradient checkpointing. */
function readPeft(r: KeyReader): void {
  const source = SETUP_SOURCES.unsloth;
  const rank = r.count('get_peft_model.r');
  if (rank !== undefined) r.set('get_peft_model.r', 'loraRank', rank, source);
  readLoraTargets(r, 'get_peft_model.target_modules', source);
  readLoraDropout(r, 'get_peft_model.lora_dropout', source);
  readModulesToSave(r, 'get_peft_model.modules_to_save', source);
  const key = 'get_peft_model.use_gradient_checkpointing';
  const checkpointing = r.raw(key);
  if (checkpointing === 'unsloth') {
    r.set(key, 'recompute', 'full', source);
    r.set(key, 'activationOffload', 'checkpoints', source);
  } else if (typeof checkpointing === 'boolean') r.set(key, 'recompute', checkpointing ? 'full' : 'none', source);
  else if (checkpointing !== undefined)
    r.fail(key, {
      code: 'notAChoice',
      params: { allowed: ['true', 'false', '"unsloth"'], value: JSON.stringify(checkpointing) },
    });
}
