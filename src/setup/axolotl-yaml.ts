/**
 * Reader of an axolotl YAML (`axolotl train FILE`). A DeepSpeed JSON it names is read as a second file.
 */
import { readDora, readLoraDropout, readModulesToSave } from './adapter-keys.ts';
import { readHfOptimizer } from './hf-optimizers.ts';
import { createKeyReader, flattenKeys, type KeyReader } from './key-reader.ts';
import type { FileOutcome } from './mapping.ts';
import { reason, type SetupReason } from './reasons.ts';
import { SETUP_SOURCES } from './sources.ts';
import { readPackingKey } from './batching-keys.ts';
import { readDeepSpeedPath, readLoraTargets } from './trainer-keys.ts';

/** axolotl keys that change nothing the engine counts. */
const IGNORED = [
  // The loss plugins do nothing until their own key switches them on (read in readLoss).
  'plugins',
  // Read for QLoRA only: elsewhere no k-bit preparation runs.
  'embeddings_skip_upcast',
  'base_model',
  'base_model_config',
  'model_type',
  'tokenizer_type',
  'tokenizer_config',
  'trust_remote_code',
  'strict',
  'datasets',
  'test_datasets',
  'dataset_prepared_path',
  'val_set_size',
  'output_dir',
  'lora_model_dir',
  'lora_alpha',
  'lora_fan_in_fan_out',
  'peft_use_rslora',
  'wandb_project',
  'wandb_entity',
  'wandb_watch',
  'wandb_name',
  'wandb_log_model',
  'num_epochs',
  'max_steps',
  'lr_scheduler',
  'learning_rate',
  'train_on_inputs',
  'group_by_length',
  'tf32',
  'early_stopping_patience',
  'resume_from_checkpoint',
  'local_rank',
  'logging_steps',
  'warmup_steps',
  'warmup_ratio',
  'evals_per_epoch',
  'eval_table_size',
  'saves_per_epoch',
  'save_steps',
  'debug',
  'weight_decay',
  'max_grad_norm',
  'special_tokens.',
  'chat_template',
  'pad_to_sequence_len',
  'seed',
  'hub_model_id',
  'gradient_checkpointing_kwargs.',
];

/** Keys axolotl reads that change memory in a way the engine does not count. */
const NOT_MODELLED: Readonly<Record<string, SetupReason>> = {
  load_in_8bit: reason('eightBitBase'),
};

/** Read an axolotl YAML already parsed into `data`. */
export function readAxolotlYaml(file: string, data: Readonly<Record<string, unknown>>): FileOutcome {
  const r = createKeyReader(file, 'axolotl', flattenKeys(data));
  const config = SETUP_SOURCES.axolotl;
  readAdapter(r);
  const seq = r.count('sequence_len');
  if (seq !== undefined) r.set('sequence_len', 'seq', seq, config);
  const micro = r.count('micro_batch_size');
  if (micro !== undefined) r.set('micro_batch_size', 'microBatch', micro, config);
  const accum = r.count('gradient_accumulation_steps');
  if (accum !== undefined) r.set('gradient_accumulation_steps', 'gradAccum', accum, config);
  readHfOptimizer(r, 'optimizer');
  readPrecision(r);
  readCheckpointing(r);
  readAttention(r);
  readLoss(r);
  readDeepSpeedPath(r, 'deepspeed', config);
  readFsdp(r);
  // activation_offloading: true streams the saved activations (torchtune's OffloadActivations); its other modes are not modelled.
  const offloading = r.raw('activation_offloading');
  if (offloading === true || offloading === false)
    r.set('activation_offloading', 'activationOffload', offloading ? 'streamed' : 'none', config);
  else if (offloading !== undefined)
    r.notModelled('activation_offloading', reason('activationOffloadingMode', String(offloading)), config);
  const compile = r.bool('torch_compile');
  if (compile !== undefined) r.set('torch_compile', 'compile', compile, config);
  readPackingKey(r, 'sample_packing', SETUP_SOURCES.axolotlPacking);
  const fp8 = r.bool('fp8');
  if (fp8 !== undefined) r.set('fp8', 'fp8', fp8 ? 'torchao-tensorwise' : 'none', SETUP_SOURCES.axolotlFp8);
  const allGather = r.bool('fp8_enable_fsdp_float8_all_gather');
  if (allGather !== undefined) r.set('fp8_enable_fsdp_float8_all_gather', 'fp8AllGather', allGather, SETUP_SOURCES.axolotlFp8);
  for (const [key, what] of Object.entries(NOT_MODELLED)) {
    const value = r.raw(key);
    if (value !== undefined && value !== false) r.notModelled(key, what, config);
  }
  r.ignore(...IGNORED);
  return r.finish('axolotl');
}

/** `adapter` (lora, qlora) with `load_in_4bit`, and the LoRA keys. */
function readAdapter(r: KeyReader): void {
  const source = SETUP_SOURCES.axolotl;
  const adapter = r.text('adapter');
  const fourBit = r.bool('load_in_4bit');
  const qlora = adapter === 'qlora' || (adapter === 'lora' && fourBit === true);
  if (qlora) r.set('adapter', 'finetune', 'qlora', source);
  else if (adapter === 'lora') r.set('adapter', 'finetune', 'lora', source);
  else if (adapter !== undefined) r.notModelled('adapter', reason('adapterKind', adapter), source);
  else {
    // No adapter is axolotl's full fine-tune (the adapter loader runs only with one).
    r.set('adapter', 'finetune', 'full', source);
    return;
  }
  const rank = r.count('lora_r');
  if (rank !== undefined) r.set('lora_r', 'loraRank', rank, source);
  if (r.bool('lora_target_linear') === true) r.set('lora_target_linear', 'loraTargets', 'all-linear', SETUP_SOURCES.axolotlLora);
  else readLoraTargets(r, 'lora_target_modules', source);
  readLoraDropout(r, 'lora_dropout', source);
  readDora(r, 'peft_use_dora', source);
  readModulesToSave(r, 'lora_modules_to_save', source);
  readAdapterDtype(r);
  // Its patched prepare_model_for_kbit_training leaves embed_tokens and lm_head in 16 bits (monkeypatch/peft/utils.py).
  const skipUpcast = qlora ? r.bool('embeddings_skip_upcast') : undefined;
  if (skipUpcast !== undefined)
    r.set('embeddings_skip_upcast', 'qloraKept', skipUpcast ? '16-bit' : 'fp32', SETUP_SOURCES.axolotlKbit);
}

/**
 * `peft_autocast_adapter_dtype` (passed to get_peft_model, loaders/adapter.py:368-369): true, PEFT's default, makes the
 * adapters fp32; false leaves them in the dtype axolotl loads the model in (bf16 or fp16, else fp32).
 */
function readAdapterDtype(r: KeyReader): void {
  const autocast = r.bool('peft_autocast_adapter_dtype');
  if (autocast === undefined) return;
  const bf16 = r.raw('bf16');
  const loaded = bf16 === true || bf16 === 'auto' ? 'bf16' : r.raw('fp16') === true ? 'fp16' : 'fp32';
  r.set('peft_autocast_adapter_dtype', 'loraDtype', autocast ? 'fp32' : loaded, SETUP_SOURCES.axolotlAdapter);
}

/** The loss plugins: Liger's fused linear cross-entropy and Apple's Cut Cross-Entropy. */
function readLoss(r: KeyReader): void {
  const source = SETUP_SOURCES.axolotl;
  if (r.bool('liger_fused_linear_cross_entropy') === true)
    r.set('liger_fused_linear_cross_entropy', 'loss', 'fused-linear', source);
  if (r.bool('cut_cross_entropy') === true) r.set('cut_cross_entropy', 'loss', 'cut', source);
}

/**
 * `bf16` (true or `auto`) loads the model in bf16 and trains it so (`cfg.torch_dtype`), moments included: pure bf16.
 * `fp16` loads fp16 weights under fp16 autocast. `auto` means bf16 where the GPU has it (Ampere and later).
 */
function readPrecision(r: KeyReader): void {
  const source = SETUP_SOURCES.axolotlDtype;
  const bf16 = r.raw('bf16');
  const fp16 = r.bool('fp16');
  if (bf16 === true || bf16 === 'auto') {
    r.half('bf16');
    r.set('bf16', 'precision', 'bf16', source);
  } else if (bf16 !== undefined && bf16 !== false)
    r.fail('bf16', { code: 'notAChoice', params: { allowed: ['true', 'false', 'auto'], value: String(bf16) } });
  else if (fp16 === true) {
    r.half('fp16');
    r.set('fp16', 'precision', 'amp-fp16', source);
  } else if (bf16 === false || fp16 === false) r.set(bf16 === false ? 'bf16' : 'fp16', 'precision', 'fp32', source);
}

/**
 * `gradient_checkpointing`: true recomputes each layer; `offload` also moves the checkpoints to the host (axolotl
 * monkeypatch/gradient_checkpointing/offload_cpu.py `CPU_Offloaded_Gradient_Checkpointer`, Unsloth's); `offload_disk`
 * writes them to disk, which the engine does not model.
 */
function readCheckpointing(r: KeyReader): void {
  const source = SETUP_SOURCES.axolotl;
  const value = r.raw('gradient_checkpointing');
  if (value === true || value === 'offload' || value === 'offload_disk')
    r.set('gradient_checkpointing', 'recompute', 'full', source);
  else if (value === false) r.set('gradient_checkpointing', 'recompute', 'none', source);
  else if (value !== undefined)
    r.fail('gradient_checkpointing', {
      code: 'notAChoice',
      params: { allowed: ['true', 'false', 'offload', 'offload_disk'], value: String(value) },
    });
  if (value === 'offload') r.set('gradient_checkpointing', 'activationOffload', 'checkpoints', source);
  else if (value === 'offload_disk') r.notModelled('gradient_checkpointing', reason('checkpointsToDisk'), source);
}

/** `flash_attention`, `sdp_attention`, `xformers_attention` keep no s×s scores; `eager_attention` does. */
function readAttention(r: KeyReader): void {
  const source = SETUP_SOURCES.axolotl;
  for (const key of ['flash_attention', 'sdp_attention', 'xformers_attention', 'flex_attention'])
    if (r.bool(key) === true) r.set(key, 'attention', 'sdpa', source);
  if (r.bool('eager_attention') === true) r.set('eager_attention', 'attention', 'eager', source);
}

/**
 * `dp_shard_size` and `dp_replicate_size`: HSDP when both are given, replicas of shard groups (axolotl
 * utils/distributed.py:350-357 passes them to accelerate's ParallelismConfig).
 */
function readDataParallelMesh(r: KeyReader): void {
  const shard = r.count('dp_shard_size');
  const replicate = r.count('dp_replicate_size') ?? 1;
  if (shard === undefined) return;
  r.set('dp_shard_size', 'dp', shard * replicate, SETUP_SOURCES.axolotlMesh);
  if (replicate > 1) r.set('dp_replicate_size', 'shardGroup', shard, SETUP_SOURCES.axolotlMesh);
}

/** `fsdp` (a list such as `[full_shard, auto_wrap]`) and the memory keys of `fsdp_config`. */
function readFsdp(r: KeyReader): void {
  const source = SETUP_SOURCES.axolotl;
  const words = r.names('fsdp') ?? [];
  if (words.includes('full_shard')) r.set('fsdp', 'zero', 3, source);
  else if (words.includes('shard_grad_op')) {
    // torch's SHARD_GRAD_OP does not reshard after forward: ZeRO-3 keeping the gathered weights, not ZeRO-2.
    r.set('fsdp', 'zero', 3, SETUP_SOURCES.fsdpShardingStrategy);
    r.set('fsdp', 'keepGatheredWeights', true, SETUP_SOURCES.fsdpShardingStrategy);
  }
  readDataParallelMesh(r);
  for (const key of ['fsdp_config.offload_params', 'fsdp_config.fsdp_offload_params'])
    if (r.bool(key) === true) {
      r.set(key, 'offload', 'optimizer+params', source);
      r.set(key, 'offloadDevice', 'cpu', source);
    }
  for (const key of ['fsdp_config.activation_checkpointing', 'fsdp_config.fsdp_activation_checkpointing']) {
    const on = r.bool(key);
    if (on !== undefined) r.set(key, 'recompute', on ? 'full' : 'none', source);
  }
  const reshard = r.bool('fsdp_config.reshard_after_forward');
  if (reshard !== undefined) {
    // The weights stay sharded at rest either way; false keeps them gathered from forward to backward.
    r.set('fsdp_config.reshard_after_forward', 'zero', 3, source);
    if (!reshard) r.set('fsdp_config.reshard_after_forward', 'keepGatheredWeights', true, source);
  }
  if (
    r.keys().some((key) => key.startsWith('fsdp_config.')) &&
    !words.includes('full_shard') &&
    !words.includes('shard_grad_op') &&
    reshard === undefined
  )
    r.set('fsdp_config', 'zero', 3, `${source}: FSDP shards fully unless reshard_after_forward is false`);
  r.ignore('fsdp_config.');
}
