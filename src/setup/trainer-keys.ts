/**
 * The Hugging Face Trainer's keys (`TrainingArguments`, TRL's `SFTConfig` and `ModelConfig`), shared by the readers
 * of files that are, or embed, Trainer arguments: a TrainingArguments JSON or command line, Unsloth's
 * `training_arguments`, LLaMA-Factory's YAML. Every function reads keys under a prefix (`''` or `training_arguments.`).
 */
import type { Precision } from '../memory/precision.ts';
import { readDora, readFourBitFormat, readLoraDropout, readModulesToSave } from './adapter-keys.ts';
import type { KeyReader } from './key-reader.ts';
import { loraTargetsOf } from './lora-modules.ts';
import type { HalfPrecision } from './mapping.ts';
import { readHfOptimizer } from './hf-optimizers.ts';
import { readTrlBatching } from './batching-keys.ts';
import { reason, type SetupReason } from './reasons.ts';
import { SETUP_SOURCES } from './sources.ts';

/** A `dtype` / `torch_dtype` the model is loaded in (`from_pretrained(dtype=…)`). */
export type LoadDtype = 'float32' | 'bfloat16' | 'float16' | 'auto';

const LOAD_DTYPES: Readonly<Record<string, LoadDtype>> = {
  float32: 'float32',
  fp32: 'float32',
  bfloat16: 'bfloat16',
  bf16: 'bfloat16',
  float16: 'float16',
  fp16: 'float16',
  auto: 'auto',
};

/** Read `key` as a load dtype (`None`/null means the loader's default, i.e. absent). */
export function readLoadDtype(r: KeyReader, key: string): LoadDtype | undefined {
  const text = r.text(key);
  if (text === undefined) return undefined;
  const dtype = LOAD_DTYPES[text.replace(/^torch\./, '')];
  if (dtype === undefined)
    r.fail(key, { code: 'notAChoice', params: { allowed: ['float32', 'bfloat16', 'float16', 'auto'], value: text } });
  return dtype;
}

/** Read the Trainer's `bf16` / `fp16` flags under `p` and record the 16-bit mode they ask for. */
export function readHalfFlags(r: KeyReader, p: string): HalfPrecision | null {
  const bf16 = r.bool(`${p}bf16`);
  const fp16 = r.bool(`${p}fp16`);
  if (bf16 === true && fp16 === true) {
    r.fail(`${p}fp16`, { code: 'bothHalves' });
    return null;
  }
  const half: HalfPrecision | null =
    bf16 === true ? 'bf16' : fp16 === true ? 'fp16' : bf16 === false || fp16 === false ? 'none' : null;
  if (half !== null) r.half(half);
  return half;
}

/**
 * The precision of a Trainer run: autocast (`half`) over weights loaded in `load`. Autocast over fp32 weights is the
 * engine's `amp-*`; bf16 weights train in pure bf16 (gradients and AdamW moments take the parameter's dtype, torch
 * optim/adamw.py `zeros_like(param)`). Without a load dtype the stack's default decides, and the line says so.
 */
export function setTrainerPrecision(
  r: KeyReader,
  key: string,
  half: HalfPrecision | null,
  load: LoadDtype | undefined,
  source: string,
): void {
  if (load === undefined || load === 'auto') {
    if (half !== null && half !== 'none') r.leftToStack(key, reason('autocastLoadDtype', half));
    return;
  }
  if (load === 'float16') {
    r.notModelled(key, reason('fp16Weights'), source);
    return;
  }
  const precision: Precision =
    load === 'bfloat16' ? 'bf16' : half === 'bf16' ? 'amp-bf16' : half === 'fp16' ? 'amp-fp16' : 'fp32';
  r.set(key, 'precision', precision, source);
}

/** Read the micro-batch and accumulation keys under `p`. */
export function readBatchKeys(r: KeyReader, p: string, source: string): void {
  const micro = r.count(`${p}per_device_train_batch_size`);
  if (micro !== undefined) r.set(`${p}per_device_train_batch_size`, 'microBatch', micro, source);
  const accum = r.count(`${p}gradient_accumulation_steps`);
  if (accum !== undefined) r.set(`${p}gradient_accumulation_steps`, 'gradAccum', accum, source);
}

/** Read `key` as a boolean gradient-checkpointing switch: per-layer full recompute, or none. */
export function readCheckpointingSwitch(r: KeyReader, key: string, source: string): void {
  const on = r.bool(key);
  if (on !== undefined) r.set(key, 'recompute', on ? 'full' : 'none', source);
}

/** Read `key` as `attn_implementation`: `eager` keeps the scores; every fused kernel does not. */
export function readAttentionImplementation(r: KeyReader, key: string): void {
  const name = r.text(key);
  if (name === undefined) return;
  if (name === 'eager') r.set(key, 'attention', 'eager', SETUP_SOURCES.attention);
  else if (/^(sdpa|flash_attention_[23]|flex_attention|kernels-)/.test(name))
    r.set(key, 'attention', 'sdpa', SETUP_SOURCES.attention);
  else r.notModelled(key, reason('attentionKind', name), SETUP_SOURCES.attention);
}

/** Read `key` as a DeepSpeed configuration: a path names a file to read with this one. */
export function readDeepSpeedPath(r: KeyReader, key: string, source: string): void {
  if (r.keys().some((k) => k.startsWith(`${key}.`))) {
    r.notModelled(key, reason('inlineDeepSpeed'), source);
    r.ignore(`${key}.`);
    return;
  }
  const path = r.text(key);
  if (path !== undefined) r.namesFile(key, path, source);
}

/** Read `key` as LoRA target module names. */
export function readLoraTargets(r: KeyReader, key: string, source: string): void {
  const names = r.names(key);
  if (names === undefined) return;
  const { targets, unplaced } = loraTargetsOf(names);
  if (targets !== null) r.set(key, 'loraTargets', targets, source);
  if (unplaced.length > 0) r.notModelled(key, reason('adaptersOn', unplaced.join(', ')), source);
}

/** Trainer keys that change nothing the engine counts. */
const IGNORED_TRAINER_KEYS = [
  'output_dir',
  'overwrite_output_dir',
  'do_train',
  'do_eval',
  'do_predict',
  'learning_rate',
  'weight_decay',
  'adam_beta1',
  'adam_beta2',
  'adam_epsilon',
  'max_grad_norm',
  'num_train_epochs',
  'max_steps',
  'lr_scheduler_type',
  'lr_scheduler_kwargs',
  'warmup_ratio',
  'warmup_steps',
  'logging_dir',
  'logging_strategy',
  'logging_steps',
  'logging_first_step',
  'save_strategy',
  'save_steps',
  'save_total_limit',
  'save_only_model',
  'eval_strategy',
  'evaluation_strategy',
  'eval_steps',
  'per_device_eval_batch_size',
  'load_best_model_at_end',
  'metric_for_best_model',
  'seed',
  'data_seed',
  'report_to',
  'run_name',
  'push_to_hub',
  'hub_model_id',
  'hub_strategy',
  'dataloader_num_workers',
  'dataloader_pin_memory',
  'remove_unused_columns',
  'label_names',
  'ddp_timeout',
  'ddp_find_unused_parameters',
  'local_rank',
  'resume_from_checkpoint',
  'group_by_length',
  'disable_tqdm',
  'tf32',
  'bf16_full_eval',
  'fp16_full_eval',
  'gradient_checkpointing_kwargs.',
  'optim_args',
  'include_num_input_tokens_seen',
];

/** TRL keys (SFTConfig, ModelConfig, ScriptArguments) that change nothing the engine counts. */
const IGNORED_TRL_KEYS = [
  'model_name_or_path',
  'model_revision',
  'trust_remote_code',
  'dataset_name',
  'dataset_config',
  'dataset_train_split',
  'dataset_test_split',
  'dataset_text_field',
  'dataset_num_proc',
  'completion_only_loss',
  'assistant_only_loss',
  'eos_token',
  'pad_token',
  'lora_alpha',
  'lora_task_type',
  'use_rslora',
  'chat_template_path',
  // Read only when load_in_4bit is set: without a 4-bit base they configure nothing.
  'bnb_4bit_quant_type',
  'use_bnb_nested_quant',
  'bnb_4bit_quant_storage',
];

/** Keys a Trainer-arguments file may hold that the engine does not count: what each changes, and where it is defined. */
const NOT_MODELLED_TRAINER_KEYS: Readonly<Record<string, { what: SetupReason; source: string }>> = {
  load_in_8bit: { what: reason('eightBitBase'), source: SETUP_SOURCES.trl },
};

/**
 * TRL `loss_type` values as engine losses (TRL 1.10.0.dev0 sft_config.py:107-116): `nll` is transformers'
 * ForCausalLMLoss; `chunked_nll` runs lm_head and the cross-entropy on 256-token chunks under
 * torch.utils.checkpoint (sft_trainer.py:86, :214), so only the head input is kept: the engine's `cut`.
 */
const TRL_LOSSES: Readonly<Record<string, 'eager' | 'cut'>> = { nll: 'eager', chunked_nll: 'cut' };

/** TRL ModelConfig's 4-bit keys and defaults (model_config.py:160-171: nf4, no nested quantization). */
const TRL_FOUR_BIT = {
  typeKey: 'bnb_4bit_quant_type',
  doubleKey: 'use_bnb_nested_quant',
  storageKey: 'bnb_4bit_quant_storage',
  defaults: {
    type: 'nf4',
    double: false,
    source: 'TRL 1.10.0.dev0 trainer/model_config.py:160-167 bnb_4bit_quant_type "nf4", use_bnb_nested_quant False',
  },
} as const;

/**
 * Read every Trainer, SFTConfig and ModelConfig key under `p`. The precision waits for the load dtype (`dtype`,
 * `torch_dtype`, Unsloth's `dtype`), which the caller may read elsewhere and pass as `load`.
 */
export function readTrainerArguments(r: KeyReader, p: string, load?: LoadDtype): void {
  const args = SETUP_SOURCES.trainingArguments;
  const trl = SETUP_SOURCES.trl;
  readBatchKeys(r, p, args);
  readCheckpointingSwitch(r, `${p}gradient_checkpointing`, SETUP_SOURCES.gradientCheckpointing);
  readHfOptimizer(r, `${p}optim`);
  readDeepSpeedPath(r, `${p}deepspeed`, SETUP_SOURCES.deepspeedIntegration);
  readFsdp(r, p);
  const half = readHalfFlags(r, p);
  const loadDtype = load ?? readLoadDtype(r, `${p}dtype`) ?? readLoadDtype(r, `${p}torch_dtype`);
  const precisionKey = ['bf16', 'fp16', 'dtype', 'torch_dtype'].map((k) => `${p}${k}`).find((k) => r.has(k)) ?? `${p}bf16`;
  setTrainerPrecision(r, precisionKey, half, loadDtype, trl);
  for (const key of ['max_length', 'max_seq_length']) {
    const seq = r.count(`${p}${key}`);
    if (seq !== undefined) r.set(`${p}${key}`, 'seq', seq, trl);
  }
  readAttentionImplementation(r, `${p}attn_implementation`);
  readTrlBatching(r, p, SETUP_SOURCES.trlBatching);
  const peft = r.bool(`${p}use_peft`);
  const fourBit = r.bool(`${p}load_in_4bit`);
  if (fourBit === true) {
    r.set(`${p}load_in_4bit`, 'finetune', 'qlora', trl);
    const keys = { ...TRL_FOUR_BIT, quantizedBy: `${p}load_in_4bit` };
    readFourBitFormat(
      r,
      { ...keys, typeKey: `${p}${keys.typeKey}`, doubleKey: `${p}${keys.doubleKey}`, storageKey: `${p}${keys.storageKey}` },
      trl,
    );
  } else if (peft !== undefined) r.set(`${p}use_peft`, 'finetune', peft ? 'lora' : 'full', trl);
  const rank = r.count(`${p}lora_r`);
  if (rank !== undefined) r.set(`${p}lora_r`, 'loraRank', rank, trl);
  readLoraTargets(r, `${p}lora_target_modules`, trl);
  readLoraDropout(r, `${p}lora_dropout`, trl);
  readModulesToSave(r, `${p}lora_modules_to_save`, trl);
  readDora(r, `${p}use_dora`, trl);
  readLoss(r, p);
  // TRL's activation_offloading wraps the forward in its copy of torchtune's OffloadActivations (trl/models/activation_offloading.py).
  const offloading = r.bool(`${p}activation_offloading`);
  if (offloading !== undefined) r.set(`${p}activation_offloading`, 'activationOffload', offloading ? 'streamed' : 'none', trl);
  const compile = r.bool(`${p}torch_compile`);
  if (compile !== undefined) r.set(`${p}torch_compile`, 'compile', compile, args);
  for (const [key, { what, source }] of Object.entries(NOT_MODELLED_TRAINER_KEYS)) {
    const value = r.raw(`${p}${key}`);
    if (value !== undefined && value !== false && !/^(false|no|0)$/i.test(String(value)))
      r.notModelled(`${p}${key}`, what, source);
  }
  r.ignore(...[...IGNORED_TRAINER_KEYS, ...IGNORED_TRL_KEYS].map((key) => `${p}${key}`));
}

/**
 * TRL's `loss_type`, then the Trainer's `use_liger_kernel`, which patches the model with Liger's fused linear
 * cross-entropy (transformers trainer.py `_apply_liger_kernel_to_instance`; TRL refuses it with `chunked_nll`).
 */
function readLoss(r: KeyReader, p: string): void {
  const lossType = r.text(`${p}loss_type`);
  if (lossType !== undefined) {
    const loss = TRL_LOSSES[lossType];
    if (loss !== undefined) r.set(`${p}loss_type`, 'loss', loss, SETUP_SOURCES.trl);
    else r.notModelled(`${p}loss_type`, reason('lossType', lossType), SETUP_SOURCES.trl);
  }
  if (r.bool(`${p}use_liger_kernel`) === true) r.set(`${p}use_liger_kernel`, 'loss', 'fused-linear', SETUP_SOURCES.liger);
}

/**
 * FSDP sharding options of `TrainingArguments.fsdp` (trainer_utils.py `FSDPOption`), each torch's FSDP version 1
 * `ShardingStrategy` of that name: its ZeRO stage, and whether the gathered weights stay from forward to backward
 * (SHARD_GRAD_OP does not reshard after forward: ZeRO-3 keeping them, not ZeRO-2).
 */
const FSDP_SHARDING: Readonly<Record<string, readonly [0 | 3, boolean]>> = {
  full_shard: [3, false],
  hybrid_shard: [3, false],
  shard_grad_op: [3, true],
  hybrid_shard_zero2: [3, true],
  no_shard: [0, false],
};

/** Read `TrainingArguments.fsdp` ("full_shard auto_wrap offload") and the memory keys of its `fsdp_config`. */
function readFsdp(r: KeyReader, p: string): void {
  const key = `${p}fsdp`;
  const words = r.names(key)?.flatMap((word) => word.split(/\s+/)) ?? [];
  const source = SETUP_SOURCES.trainingArguments;
  for (const word of words) {
    const sharding = FSDP_SHARDING[word];
    if (sharding !== undefined) {
      r.set(key, 'zero', sharding[0], `${source}; ${SETUP_SOURCES.fsdpShardingStrategy}`);
      if (sharding[1]) r.set(key, 'keepGatheredWeights', true, SETUP_SOURCES.fsdpShardingStrategy);
      if (word.startsWith('hybrid')) r.notModelled(key, reason('hybridShardGroup', word), SETUP_SOURCES.fsdpHybridGroup);
    } else if (word === 'offload') {
      r.set(key, 'offload', 'optimizer+params', source);
      r.set(key, 'offloadDevice', 'cpu', source);
    }
  }
  readCheckpointingSwitch(r, `${p}fsdp_config.activation_checkpointing`, source);
  r.ignore(`${p}fsdp_config.`);
}
