/**
 * Reader of an accelerate config YAML (`accelerate config`'s file): the process count, and FSDP (versions 1 and 2) or
 * DeepSpeed set up through accelerate. A DeepSpeed JSON it names is read as a second file.
 */
import type { Stack } from '../memory/stacks.ts';
import { readOffloadDevice } from './deepspeed-json.ts';
import { createKeyReader, flattenKeys, type KeyReader } from './key-reader.ts';
import type { FileOutcome } from './mapping.ts';
import { SETUP_SOURCES } from './sources.ts';

/** `FSDP_SHARDING_STRATEGY` (accelerate utils/constants.py), in order, so that the legacy numbers 1–5 index it; each with its ZeRO stage. */
const SHARDING_ZERO: ReadonlyArray<readonly [string, 0 | 2 | 3]> = [
  ['FULL_SHARD', 3],
  ['SHARD_GRAD_OP', 2],
  ['NO_SHARD', 0],
  ['HYBRID_SHARD', 3],
  ['HYBRID_SHARD_ZERO2', 2],
];

/** Keys that change nothing the engine counts. */
const IGNORED = [
  'compute_environment',
  'debug',
  'downcast_bf16',
  'machine_rank',
  'main_training_function',
  'num_machines',
  'rdzv_backend',
  'same_network',
  'main_process_ip',
  'main_process_port',
  'gpu_ids',
  'enable_cpu_affinity',
  'use_cpu',
  'tpu_env',
  'tpu_use_cluster',
  'tpu_use_sudo',
  'dynamo_config.',
  'fsdp_config.fsdp_auto_wrap_policy',
  'fsdp_config.fsdp_backward_prefetch',
  'fsdp_config.fsdp_backward_prefetch_policy',
  'fsdp_config.fsdp_cpu_ram_efficient_loading',
  'fsdp_config.fsdp_forward_prefetch',
  'fsdp_config.fsdp_state_dict_type',
  'fsdp_config.fsdp_sync_module_states',
  'fsdp_config.fsdp_use_orig_params',
  'fsdp_config.fsdp_transformer_layer_cls_to_wrap',
  'fsdp_config.fsdp_min_num_params',
  'deepspeed_config.zero3_init_flag',
  'deepspeed_config.zero3_save_16bit_model',
  'deepspeed_config.gradient_clipping',
  'deepspeed_config.deepspeed_multinode_launcher',
];

/** Read an accelerate config already parsed into `data`. */
export function readAccelerateYaml(file: string, data: Readonly<Record<string, unknown>>): FileOutcome {
  const r = createKeyReader(file, 'accelerate', flattenKeys(data));
  const source = SETUP_SOURCES.accelerate;
  const processes = r.count('num_processes');
  if (processes !== undefined) r.set('num_processes', 'dp', processes, source);
  const type = r.text('distributed_type');
  const mixed = r.text('mixed_precision');
  if (mixed === 'bf16' || mixed === 'fp16') {
    r.half(mixed);
    // Through DeepSpeed, accelerate turns DeepSpeed's own 16-bit mode on (DeepSpeedPlugin.set_mixed_precision).
    if (type === 'DEEPSPEED')
      r.set('mixed_precision', 'precision', `mixed-${mixed}`, `${source}: DeepSpeedPlugin.set_mixed_precision`);
    else r.leftToStack('mixed_precision', `${mixed} autocast over weights whose dtype at load the script decides`);
  } else if (mixed === 'no') r.half('none');
  else if (mixed === 'fp8') readAccelerateFp8(r);
  else if (mixed !== undefined) r.notModelled('mixed_precision', `${mixed} training`, source);
  let stack: Stack | null = null;
  if (type === 'MULTI_GPU') r.set('distributed_type', 'zero', 0, source);
  else if (type === 'FSDP') stack = readFsdp(r);
  else if (type === 'DEEPSPEED') {
    readDeepSpeedPlugin(r);
    stack = 'deepspeed';
  } else if (type === 'MEGATRON_LM')
    r.notModelled('distributed_type', 'Megatron-LM through accelerate (read its own arguments)', source);
  r.ignore(...IGNORED);
  return r.finish(stack);
}

/** FSDP: the sharding (ZeRO stage), host offload and activation checkpointing. Version 2 is the `fsdp2` stack. */
function readFsdp(r: KeyReader): Stack | null {
  const source = SETUP_SOURCES.accelerate;
  const version = r.count('fsdp_config.fsdp_version') ?? 1;
  const strategyKey = 'fsdp_config.fsdp_sharding_strategy';
  const reshardKey = 'fsdp_config.fsdp_reshard_after_forward';
  const strategy = r.raw(strategyKey) ?? (version === 1 ? r.raw(reshardKey) : undefined);
  const reshard = version === 2 ? r.bool(reshardKey) : undefined;
  if (reshard !== undefined) {
    // FSDP2 shards the weights at rest either way; false keeps them gathered from forward to backward.
    r.set(reshardKey, 'zero', 3, source);
    if (!reshard) r.set(reshardKey, 'keepGatheredWeights', true, source);
  } else if (strategy !== undefined) {
    const key = r.has(strategyKey) ? strategyKey : reshardKey;
    const entry = SHARDING_ZERO.find(([name], index) => name === strategy || index + 1 === Number(strategy));
    if (entry === undefined) r.fail(key, `expected one of ${SHARDING_ZERO.map(([name]) => name).join(', ')}`);
    else r.set(key, 'zero', entry[1], source);
  } else
    r.set(
      'distributed_type',
      'zero',
      3,
      `${source}: FULL_SHARD (version 1) or reshard_after_forward=True (version 2) when unset`,
    );
  const offload = r.bool('fsdp_config.fsdp_offload_params');
  if (offload === true) {
    r.set('fsdp_config.fsdp_offload_params', 'offload', 'optimizer+params', source);
    r.set('fsdp_config.fsdp_offload_params', 'offloadDevice', 'cpu', source);
  }
  const checkpointing = r.bool('fsdp_config.fsdp_activation_checkpointing');
  if (checkpointing !== undefined)
    r.set('fsdp_config.fsdp_activation_checkpointing', 'recompute', checkpointing ? 'full' : 'none', source);
  return version === 2 ? 'fsdp2' : null;
}

/** DeepSpeed through accelerate: a JSON file it names, or the plugin's own keys. */
function readDeepSpeedPlugin(r: KeyReader): void {
  const source = SETUP_SOURCES.accelerate;
  const path = r.text('deepspeed_config.deepspeed_config_file');
  if (path !== undefined) r.namesFile('deepspeed_config.deepspeed_config_file', path, source);
  const stage = r.number('deepspeed_config.zero_stage');
  if (stage !== undefined) {
    if (stage === 0 || stage === 1 || stage === 2 || stage === 3) r.set('deepspeed_config.zero_stage', 'zero', stage, source);
    else r.fail('deepspeed_config.zero_stage', `expected 0, 1, 2 or 3, got ${stage}`);
  }
  const accum = r.count('deepspeed_config.gradient_accumulation_steps');
  if (accum !== undefined) r.set('deepspeed_config.gradient_accumulation_steps', 'gradAccum', accum, source);
  const params = readOffloadDevice(r, 'deepspeed_config.offload_param_device');
  const optimizer = readOffloadDevice(r, 'deepspeed_config.offload_optimizer_device');
  const device = params ?? optimizer;
  if (device !== undefined) {
    const key = params !== undefined ? 'deepspeed_config.offload_param_device' : 'deepspeed_config.offload_optimizer_device';
    r.set(key, 'offload', params !== undefined ? 'optimizer+params' : 'optimizer', source);
    r.set(key, 'offloadDevice', device, source);
  }
}

/**
 * `mixed_precision: fp8` and its `fp8_config`: Transformer Engine (TE), torchao (AO: `Float8LinearConfig()`, the
 * tensorwise recipe, with `enable_fsdp_float8_all_gather`) or MS-AMP, which the engine does not count.
 */
function readAccelerateFp8(r: KeyReader): void {
  const source = SETUP_SOURCES.accelerateFp8;
  const backend = r.text('fp8_config.backend');
  if (backend === 'TE') r.set('mixed_precision', 'fp8', 'te', source);
  else if (backend === 'AO') {
    r.set('mixed_precision', 'fp8', 'torchao-tensorwise', source);
    const allGather = r.bool('fp8_config.enable_fsdp_float8_all_gather');
    if (allGather !== undefined) r.set('fp8_config.enable_fsdp_float8_all_gather', 'fp8AllGather', allGather, source);
  } else if (backend === 'MSAMP') r.notModelled('mixed_precision', 'fp8 training through MS-AMP', source);
  else r.notModelled('mixed_precision', 'fp8 training without fp8_config.backend (TE or AO)', source);
  r.ignore('fp8_config.');
}
