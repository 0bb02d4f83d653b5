/**
 * The optimizer names of the Hugging Face Trainer (`TrainingArguments.optim`), which LLaMA-Factory, axolotl, TRL and
 * Unsloth pass through: what each allocates, in the engine's words, or what the engine cannot count yet.
 */
import type { OptimizerImpl, OptimizerKind } from '../memory/optimizer.ts';
import type { SetupOptions } from './mapping.ts';
import { reason } from './reasons.ts';
import type { KeyReader } from './key-reader.ts';
import { SETUP_SOURCES } from './sources.ts';

/** What one optimizer name maps to: an engine optimizer, with its implementation when the name fixes it. */
interface OptimizerRule {
  readonly optimizer: OptimizerKind;
  readonly impl?: OptimizerImpl;
}

/**
 * `OptimizerNames` values the engine can count (transformers 5.x training_args.py `OptimizerNames`; trainer.py
 * `get_optimizer_cls_and_kwargs` builds each): torch's AdamW (foreach or fused), bitsandbytes' `AdamW` with
 * `optim_bits=8` (`adamw_bnb_8bit`, alias `adamw_8bit`), its paged variants (`is_paged=True`) and `Lion` with
 * `optim_bits=32`, torchao's `AdamW8bit` / `AdamW4bit`, and transformers' own `Adafactor`.
 */
const HF_OPTIMIZERS: Readonly<Record<string, OptimizerRule>> = {
  adamw_torch: { optimizer: 'adamw', impl: 'foreach' },
  adamw_torch_fused: { optimizer: 'adamw', impl: 'fused' },
  adamw_apex_fused: { optimizer: 'adamw', impl: 'fused' },
  adamw_bnb_8bit: { optimizer: 'adamw-8bit' },
  adamw_8bit: { optimizer: 'adamw-8bit' },
  paged_adamw_32bit: { optimizer: 'paged-adamw' },
  paged_adamw_8bit: { optimizer: 'paged-adamw-8bit' },
  adamw_torch_8bit: { optimizer: 'adamw-8bit-torchao' },
  adamw_torch_4bit: { optimizer: 'adamw-4bit-torchao' },
  lion_32bit: { optimizer: 'lion' },
  adafactor: { optimizer: 'adafactor' },
  sgd: { optimizer: 'sgd' },
};

/** Read `key` as a Trainer optimizer name. */
export function readHfOptimizer(r: KeyReader, key: string): void {
  const name = r.text(key);
  if (name === undefined) return;
  const rule = HF_OPTIMIZERS[name];
  const source = SETUP_SOURCES.trainingArguments;
  if (rule === undefined) {
    r.notModelled(key, reason('optimizerNotCounted', name, Object.keys(HF_OPTIMIZERS).join(', ')), source);
    return;
  }
  r.set(
    key,
    'optimizer',
    rule.optimizer,
    rule.optimizer.startsWith('paged') ? `${source}; ${SETUP_SOURCES.pagedOptimizers}` : source,
  );
  if (rule.impl !== undefined)
    r.set(key, 'optimizerImpl', rule.impl, rule.impl === 'foreach' ? SETUP_SOURCES.torchAdamW : source);
}

/** The `optim` name of each optimizer but AdamW: the first name the table above gives it. */
const OPTIM_NAMES: Partial<Record<OptimizerKind, string>> = Object.fromEntries(
  Object.entries(HF_OPTIMIZERS)
    .filter(([, rule]) => rule.optimizer !== 'adamw')
    .reverse()
    .map(([name, rule]) => [rule.optimizer, name]),
);

/** Why an optimizer without an `optim` name has none. */
const NO_OPTIM_NAME: Readonly<Partial<Record<OptimizerKind, string>>> = {
  'sgd-momentum': 'SGD with momentum needs optim_args as well',
  'adamw-cpu-offload': "torchao's CPUOffloadOptimizer has no optim name; pass it to the Trainer as optimizers=(…)",
};

/** An option the Trainer's `optim` cannot say, and why. */
interface Unnamed {
  readonly option: 'optimizer' | 'optimizerImpl';
  readonly why: string;
}

/**
 * The Trainer optimizer name for `options` (the writers' inverse of the table above), or null, with each option no
 * name can say. AdamW without an implementation is left unnamed: the Trainer's default `optim` is the stack's.
 */
export function hfOptimizerFor(options: Pick<SetupOptions, 'optimizer' | 'optimizerImpl'>): {
  readonly name: string | null;
  readonly unnamed: readonly Unnamed[];
} {
  const { optimizer, optimizerImpl: impl } = options;
  const implNote = (why: string): Unnamed[] => (impl === undefined ? [] : [{ option: 'optimizerImpl', why }]);
  if (optimizer === undefined)
    return { name: null, unnamed: implNote('optim names the optimizer and its implementation together') };
  if (optimizer === 'adamw') {
    if (impl === 'fused') return { name: 'adamw_torch_fused', unnamed: [] };
    if (impl === 'foreach') return { name: 'adamw_torch', unnamed: [] };
    const why =
      impl === undefined
        ? "AdamW without an implementation: the Trainer's default optim is the stack's"
        : 'no optim runs AdamW as a for-loop';
    return { name: null, unnamed: [{ option: 'optimizer', why }, ...implNote(why)] };
  }
  const onlyOne = implNote(`${optimizer} has one implementation under its optim name`);
  const name = OPTIM_NAMES[optimizer];
  if (name !== undefined) return { name, unnamed: onlyOne };
  return {
    name: null,
    unnamed: [{ option: 'optimizer', why: NO_OPTIM_NAME[optimizer] ?? `${optimizer} has no optim name` }, ...onlyOne],
  };
}
