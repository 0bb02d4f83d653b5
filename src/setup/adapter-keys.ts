/**
 * The PEFT and bitsandbytes keys every tool passes through under its own name: LoRA dropout, DoRA, `modules_to_save`,
 * and a QLoRA base's 4-bit format. One rule each, so the Trainer, LLaMA-Factory, axolotl, torchtune and Unsloth readers
 * map them alike.
 */
import type { ModuleToSave, QloraFormat } from '../memory/lora.ts';
import { reason } from './reasons.ts';
import type { KeyReader } from './key-reader.ts';

/** Read `key` as LoRA dropout p (PEFT `lora_dropout`): above 0 each adapted layer keeps a dropped-out copy of its input. */
export function readLoraDropout(r: KeyReader, key: string, source: string): void {
  const dropout = r.number(key);
  if (dropout === undefined) return;
  if (dropout < 0 || dropout >= 1) r.fail(key, { code: 'dropoutRange', params: { value: dropout } });
  else r.set(key, 'loraDropout', dropout, source);
}

/** Read `key` as PEFT `use_dora`: a magnitude per output feature and the weight norm in every adapted module. */
export function readDora(r: KeyReader, key: string, source: string): void {
  const dora = r.bool(key);
  if (dora !== undefined) r.set(key, 'dora', dora, source);
}

/**
 * Module names that are the token embedding or the output head, as Hugging Face models name them (Llama `embed_tokens`
 * / `lm_head`, GPT-2 `wte`, GPT-NeoX `embed_in` / `embed_out`, BLOOM `word_embeddings`) and torchtune's `tok_embeddings`
 * / `output`.
 */
const SAVED_MODULES: Readonly<Record<string, 'embed' | 'head'>> = {
  embed_tokens: 'embed',
  wte: 'embed',
  embed_in: 'embed',
  word_embeddings: 'embed',
  tok_embeddings: 'embed',
  lm_head: 'head',
  embed_out: 'head',
  output: 'head',
};

/**
 * Read `key` as PEFT `modules_to_save` (LLaMA-Factory `additional_target`, axolotl `lora_modules_to_save`): the
 * embedding and head it names are trained in full; any other module is named as not modelled.
 */
export function readModulesToSave(r: KeyReader, key: string, source: string): void {
  const names = r.names(key);
  if (names === undefined) return;
  const saved = new Set(names.flatMap((name) => SAVED_MODULES[name.split('.').at(-1) ?? name] ?? []));
  const other = names.filter((name) => SAVED_MODULES[name.split('.').at(-1) ?? name] === undefined);
  if (saved.size > 0)
    r.set(key, 'modulesToSave', (['embed', 'head'] as const).filter((module) => saved.has(module)).join(','), source);
  else if (other.length === 0) r.set(key, 'modulesToSave', 'none', source);
  if (other.length > 0) r.notModelled(key, reason('otherModulesTrained', other.join(', ')), source);
}

/** Hugging Face names of `--modules-to-save` (Llama's `embed_tokens`, `lm_head`): the writers' inverse of the table above. */
export function hfSavedModuleNames(modulesToSave: string): readonly string[] {
  const names: Readonly<Record<ModuleToSave, string>> = { embed: 'embed_tokens', head: 'lm_head' };
  return modulesToSave === 'none' ? [] : modulesToSave.split(',').map((module) => names[module as ModuleToSave]);
}

/** The bitsandbytes quant type and double-quantization flag of a QLoRA format: the writers' inverse of `readFourBitFormat`. */
export function fourBitSettings(format: QloraFormat): { readonly type: 'nf4' | 'fp4'; readonly double: boolean } {
  return { type: format.startsWith('fp4') ? 'fp4' : 'nf4', double: format.endsWith('-dq') };
}

/** The bitsandbytes 4-bit keys of one tool, and what the tool assumes when a key is left out. */
export interface FourBitKeys {
  /** The quant-type key (`bnb_4bit_quant_type`, LLaMA-Factory `quantization_type`). */
  readonly typeKey: string;
  /** The double-quantization key (`bnb_4bit_use_double_quant`, TRL `use_bnb_nested_quant`). */
  readonly doubleKey: string;
  /** The storage key, if the tool has one (`bnb_4bit_quant_storage`). */
  readonly storageKey?: string;
  /** The tool's defaults for both, with the line that sets them. */
  readonly defaults: { readonly type: 'nf4' | 'fp4'; readonly double: boolean; readonly source: string };
  /** The key that made the job QLoRA: the format line is recorded under it when neither format key is given. */
  readonly quantizedBy: string;
}

/**
 * Read a QLoRA base's 4-bit format (`--qlora-format`): NF4 or FP4, with or without double quantization, each key
 * falling back on the tool's own default. The storage dtype is recorded as changing nothing: bitsandbytes packs two
 * 4-bit codes per byte whatever dtype the packed tensor is viewed as (`Params4bit(quant_storage=…)`).
 */
export function readFourBitFormat(r: KeyReader, keys: FourBitKeys, source: string): void {
  const type = r.text(keys.typeKey);
  if (type !== undefined && type !== 'nf4' && type !== 'fp4') {
    r.fail(keys.typeKey, { code: 'notAChoice', params: { allowed: ['nf4', 'fp4'], value: type } });
    return;
  }
  const double = r.bool(keys.doubleKey);
  const format: QloraFormat = `${type ?? keys.defaults.type}${(double ?? keys.defaults.double) ? '-dq' : ''}`;
  const key = double !== undefined ? keys.doubleKey : type !== undefined ? keys.typeKey : keys.quantizedBy;
  const rule = type !== undefined && double !== undefined ? source : `${source}; defaults: ${keys.defaults.source}`;
  r.set(key, 'qloraFormat', format, rule);
  if (keys.storageKey !== undefined && r.has(keys.storageKey)) r.noEffect(keys.storageKey, reason('quantStorage'), source);
}
