/**
 * The optimizer names of the Hugging Face Trainer (`TrainingArguments.optim`), which LLaMA-Factory, axolotl, TRL and
 * Unsloth pass through: what each allocates, in the engine's words, or what the engine cannot count yet.
 */
import type { OptimizerImpl, OptimizerKind } from '../memory/optimizer.ts';
import type { SetupOptions } from './mapping.ts';
import type { KeyReader } from './key-reader.ts';
import { SETUP_SOURCES } from './sources.ts';

/** What one optimizer name maps to: an engine optimizer (with its implementation when the name fixes it) and a caveat. */
interface OptimizerRule {
  readonly optimizer: OptimizerKind;
  readonly impl?: OptimizerImpl;
  /** What the name does that the engine does not count (paging). */
  readonly notModelled?: string;
}

const PAGED = 'paging: the states live in unified memory and move to the host under memory pressure';

/** `OptimizerNames` values the engine can count (transformers training_args.py). */
const HF_OPTIMIZERS: Readonly<Record<string, OptimizerRule>> = {
  adamw_torch: { optimizer: 'adamw', impl: 'foreach' },
  adamw_torch_fused: { optimizer: 'adamw', impl: 'fused' },
  adamw_apex_fused: { optimizer: 'adamw', impl: 'fused' },
  adamw_bnb_8bit: { optimizer: 'adamw-8bit' },
  adamw_8bit: { optimizer: 'adamw-8bit' },
  paged_adamw_32bit: { optimizer: 'adamw', notModelled: PAGED },
  paged_adamw_8bit: { optimizer: 'adamw-8bit', notModelled: PAGED },
  sgd: { optimizer: 'sgd' },
};

/** Read `key` as a Trainer optimizer name. */
export function readHfOptimizer(r: KeyReader, key: string): void {
  const name = r.text(key);
  if (name === undefined) return;
  const rule = HF_OPTIMIZERS[name];
  const source = SETUP_SOURCES.trainingArguments;
  if (rule === undefined) {
    r.notModelled(key, `optimizer ${name}: the engine counts SGD, AdamW and 8-bit AdamW`, source);
    return;
  }
  r.set(key, 'optimizer', rule.optimizer, source);
  if (rule.impl !== undefined)
    r.set(key, 'optimizerImpl', rule.impl, rule.impl === 'foreach' ? SETUP_SOURCES.torchAdamW : source);
  if (rule.notModelled !== undefined) r.notModelled(key, rule.notModelled, SETUP_SOURCES.pagedOptimizers);
}

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
  if (optimizer === 'adamw-8bit') return { name: 'adamw_bnb_8bit', unnamed: onlyOne };
  if (optimizer === 'sgd') return { name: 'sgd', unnamed: onlyOne };
  return { name: null, unnamed: [{ option: 'optimizer', why: 'SGD with momentum needs optim_args as well' }, ...onlyOne] };
}
