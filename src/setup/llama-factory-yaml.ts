/**
 * Reader of a LLaMA-Factory training YAML (`llamafactory-cli train FILE`): its model, fine-tuning and data arguments,
 * and the `Seq2SeqTrainingArguments` keys it passes to the Trainer. A DeepSpeed JSON it names is read as a second file.
 */
import type { Precision } from '../memory/precision.ts';
import { readDora, readFourBitFormat, readLoraDropout, readModulesToSave } from './adapter-keys.ts';
import { readHfOptimizer } from './hf-optimizers.ts';
import { createKeyReader, flattenKeys, type KeyReader } from './key-reader.ts';
import type { FileOutcome } from './mapping.ts';
import { reason, type SetupReason } from './reasons.ts';
import { SETUP_SOURCES } from './sources.ts';
import { readPackingKey } from './batching-keys.ts';
import { readBatchKeys, readDeepSpeedPath, readHalfFlags, readLoraTargets } from './trainer-keys.ts';

/** LLaMA-Factory keys that change nothing the engine counts. */
const IGNORED = [
  'model_name_or_path',
  'trust_remote_code',
  'adapter_name_or_path',
  'do_train',
  'dataset',
  'dataset_dir',
  'eval_dataset',
  'template',
  'max_samples',
  'overwrite_cache',
  'preprocessing_num_workers',
  'dataloader_num_workers',
  'output_dir',
  'logging_steps',
  'save_steps',
  'save_only_model',
  'plot_loss',
  'overwrite_output_dir',
  'report_to',
  'learning_rate',
  'num_train_epochs',
  'max_steps',
  'lr_scheduler_type',
  'warmup_ratio',
  'warmup_steps',
  'weight_decay',
  'max_grad_norm',
  'ddp_timeout',
  'resume_from_checkpoint',
  'val_size',
  'per_device_eval_batch_size',
  'eval_strategy',
  'eval_steps',
  'lora_alpha',
  'use_rslora',
  'seed',
  'tokenized_path',
  'streaming',
  'mix_strategy',
  'save_strategy',
  'save_total_limit',
  'run_name',
  'infer_dtype',
];

/** Keys LLaMA-Factory reads that change memory in a way the engine does not count. */
const NOT_MODELLED: Readonly<Record<string, SetupReason>> = {
  use_unsloth: reason('unslothKernels'),
  use_unsloth_gc: reason('unslothCheckpointing'),
  use_galore: reason('galore'),
  use_apollo: reason('apollo'),
  use_badam: reason('badam'),
  upcast_layernorm: reason('upcastLayerNorm'),
};

/** LLaMA-Factory's bitsandbytes 4-bit keys and defaults (model_args.py:287-293: nf4, double quantization on). */
const FOUR_BIT = {
  typeKey: 'quantization_type',
  doubleKey: 'double_quantization',
  quantizedBy: 'quantization_bit',
  defaults: {
    type: 'nf4',
    double: true,
    source: 'LLaMA-Factory 0.9.6.dev0 hparams/model_args.py:287-293 quantization_type "nf4", double_quantization True',
  },
} as const;

/** Read a LLaMA-Factory YAML already parsed into `data`. */
export function readLlamaFactoryYaml(file: string, data: Readonly<Record<string, unknown>>): FileOutcome {
  const r = createKeyReader(file, 'llama-factory', flattenKeys(data));
  const args = SETUP_SOURCES.llamaFactoryArgs;
  const finetune = readFinetune(r);
  readBatchKeys(r, '', args);
  const cutoff = r.count('cutoff_len');
  if (cutoff !== undefined) r.set('cutoff_len', 'seq', cutoff, args);
  readPrecision(r, finetune);
  const noCheckpointing = r.bool('disable_gradient_checkpointing');
  if (noCheckpointing !== undefined)
    r.set('disable_gradient_checkpointing', 'recompute', noCheckpointing ? 'none' : 'full', args);
  readFlashAttn(r);
  if (r.bool('enable_liger_kernel') === true) r.set('enable_liger_kernel', 'loss', 'fused-linear', args);
  readHfOptimizer(r, 'optim');
  readDeepSpeedPath(r, 'deepspeed', args);
  readLlamaFactoryPacking(r);
  const stage = r.text('stage');
  if (stage === 'dpo' || stage === 'kto' || stage === 'ppo') r.notModelled('stage', reason('referenceModels', stage), args);
  for (const [key, what] of Object.entries(NOT_MODELLED)) {
    const value = r.raw(key);
    if (value !== undefined && value !== false) r.notModelled(key, what, args);
  }
  r.ignore(...IGNORED);
  return r.finish('llama-factory');
}

/** `finetuning_type` with `quantization_bit`: full, LoRA, or QLoRA (4-bit bitsandbytes base). */
function readFinetune(r: KeyReader): 'full' | 'lora' | 'qlora' | 'other' | undefined {
  const args = SETUP_SOURCES.llamaFactoryArgs;
  const type = r.text('finetuning_type');
  const bits = r.count('quantization_bit');
  const method = r.text('quantization_method');
  if (method !== undefined && method !== 'bnb' && method !== 'bitsandbytes')
    r.notModelled('quantization_method', reason('quantizedBase', method), args);
  if (bits !== undefined && bits !== 4) r.notModelled('quantization_bit', reason('bitsBase', bits), args);
  if (bits === 4) readFourBitFormat(r, FOUR_BIT, args);
  if (type === 'freeze' || type === 'oft') {
    r.notModelled('finetuning_type', reason('fineTuningKind', type), args);
    return 'other';
  }
  if (type === 'lora' || (type === undefined && bits === 4)) {
    const finetune = bits === 4 ? 'qlora' : 'lora';
    r.set(bits === 4 ? 'quantization_bit' : 'finetuning_type', 'finetune', finetune, args);
    const rank = r.count('lora_rank');
    if (rank !== undefined) r.set('lora_rank', 'loraRank', rank, args);
    readLoraTargets(r, 'lora_target', args);
    readLoraDropout(r, 'lora_dropout', args);
    readDora(r, 'use_dora', args);
    readModulesToSave(r, 'additional_target', args);
    return finetune;
  }
  if (type === 'full') r.set('finetuning_type', 'finetune', 'full', args);
  else if (type !== undefined)
    r.fail('finetuning_type', { code: 'notAChoice', params: { allowed: ['lora', 'oft', 'freeze', 'full'], value: type } });
  return type === 'full' ? 'full' : undefined;
}

/**
 * `bf16` / `fp16` / `pure_bf16`: LLaMA-Factory loads the model in the compute dtype (bf16 or fp16) and upcasts the
 * trainable parameters to fp32 unless `pure_bf16`. A full fine-tune is then autocast over fp32 weights (`amp-*`); LoRA
 * keeps the 16-bit base (the engine's LoRA adapters are fp32 already) with 16-bit activations.
 */
function readPrecision(r: KeyReader, finetune: ReturnType<typeof readFinetune>): void {
  const source = SETUP_SOURCES.llamaFactoryDtype;
  const pure = r.bool('pure_bf16');
  const half = readHalfFlags(r, '');
  if (pure === true) {
    r.half('bf16');
    r.set('pure_bf16', 'precision', 'bf16', source);
    // No fp32 upcast of trainable parameters: get_peft_model(autocast_adapter_dtype=False) keeps bf16 adapters.
    if (finetune === 'lora' || finetune === 'qlora') r.set('pure_bf16', 'loraDtype', 'bf16', SETUP_SOURCES.llamaFactoryDtype);
    return;
  }
  if (half === null || finetune === 'other') return;
  const key = half === 'fp16' ? 'fp16' : 'bf16';
  let precision: Precision;
  if (half === 'none') precision = 'fp32';
  else if (finetune === 'lora' || finetune === 'qlora') precision = half === 'bf16' ? 'bf16' : 'amp-fp16';
  else precision = half === 'bf16' ? 'amp-bf16' : 'amp-fp16';
  r.set(key, 'precision', precision, source);
}

/** `flash_attn` (extras/constants.py `AttentionFunction`): `auto`, `sdpa`, `fa2`, `fa3` keep no s×s scores; `disabled` is eager. */
function readFlashAttn(r: KeyReader): void {
  const value = r.text('flash_attn');
  if (value === undefined) return;
  const source = SETUP_SOURCES.llamaFactoryArgs;
  if (value === 'disabled') r.set('flash_attn', 'attention', 'eager', source);
  else if (value === 'auto' || value === 'sdpa' || value === 'fa2' || value === 'fa3')
    r.set('flash_attn', 'attention', 'sdpa', source);
  else r.fail('flash_attn', { code: 'notAChoice', params: { allowed: ['auto', 'disabled', 'sdpa', 'fa2', 'fa3'], value } });
}

/**
 * `packing` packs rows of `cutoff_len`; `neat_packing` implies it and keeps documents from attending to each other
 * (data_args.py:185-186), which FlashAttention does with position_ids and sdpa/eager with a block-diagonal mask: both
 * are packed rows, and the engine's attention decides the mask.
 */
function readLlamaFactoryPacking(r: KeyReader): void {
  const source = SETUP_SOURCES.llamaFactoryPacking;
  if (r.bool('neat_packing') === true) {
    r.set('neat_packing', 'batching', 'packed', source);
    if (r.has('packing')) r.noEffect('packing', reason('neatPackingPacks'), source);
  } else {
    readPackingKey(r, 'packing', source);
    if (r.has('neat_packing')) r.noEffect('neat_packing', reason('neatPackingOff'), source);
  }
}
