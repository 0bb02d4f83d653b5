/**
 * Reader of an accelerate config YAML (`accelerate config`'s file): the process count, and FSDP (versions 1 and 2) or
 * DeepSpeed set up through accelerate. A DeepSpeed JSON it names is read as a second file.
 */
import { ZERO_STAGES } from '../memory/parallel.ts';
import type { Stack } from '../memory/stacks.ts';
import { readOffloadDevice } from './deepspeed-json.ts';
import { createKeyReader, flattenKeys, type KeyReader } from './key-reader.ts';
import type { FileOutcome } from './mapping.ts';
import { reason } from './reasons.ts';
import { SETUP_SOURCES } from './sources.ts';

/** How FSDP version 1 holds one sharding strategy, in the engine's terms. */
interface Sharding {
  readonly zero: 0 | 3;
  /** The gathered weights stay from a unit's forward to its backward (torch resharding only after backward). */
  readonly keepGathered: boolean;
  /** It shards within a machine and replicates across machines (HSDP). */
  readonly hybrid: boolean;
}

/**
 * `FSDP_SHARDING_STRATEGY` (accelerate utils/constants.py:38), in order, so that the legacy numbers 1–5 index it. What
 * each holds follows torch's `ShardingStrategy` docstring (SHARDING_SOURCE): SHARD_GRAD_OP shards the weights outside
 * computation but does not reshard them after forward, which is ZeRO-3 keeping the gathered weights until backward (not
 * ZeRO-2, whose weights stay whole all step); the HYBRID ones do the same within a machine.
 */
const SHARDINGS: ReadonlyArray<readonly [string, Sharding]> = [
  ['FULL_SHARD', { zero: 3, keepGathered: false, hybrid: false }],
  ['SHARD_GRAD_OP', { zero: 3, keepGathered: true, hybrid: false }],
  ['NO_SHARD', { zero: 0, keepGathered: false, hybrid: false }],
  ['HYBRID_SHARD', { zero: 3, keepGathered: false, hybrid: true }],
  ['HYBRID_SHARD_ZERO2', { zero: 3, keepGathered: true, hybrid: true }],
];

/** Keys that change nothing the engine counts. */
const IGNORED = [
  'compute_environment',
  'debug',
  'downcast_bf16',
  'machine_rank',
  'main_training_function',
  'num_machines',
  'parallelism_config.parallelism_config_cp_comm_strategy',
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
    else r.leftToStack('mixed_precision', reason('autocastScriptDtype', mixed));
  } else if (mixed === 'no') r.half('none');
  else if (mixed === 'fp8') readAccelerateFp8(r);
  else if (mixed !== undefined) r.notModelled('mixed_precision', reason('precisionTraining', mixed), source);
  let stack: Stack | null = null;
  if (type === 'MULTI_GPU') r.set('distributed_type', 'zero', 0, source);
  else if (type === 'FSDP') stack = readFsdp(r);
  else if (type === 'DEEPSPEED') {
    readDeepSpeedPlugin(r);
    stack = 'deepspeed';
  } else if (type === 'MEGATRON_LM') r.notModelled('distributed_type', reason('megatron'), source);
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
    const entry = SHARDINGS.find(([name], index) => name === strategy || index + 1 === Number(strategy));
    if (entry === undefined) r.fail(key, { code: 'notOneOf', params: { allowed: SHARDINGS.map(([name]) => name) } });
    else if (version === 2) readFsdp2Strategy(r, key, entry[0]);
    else readSharding(r, key, entry[1]);
  } else
    r.set(
      'distributed_type',
      'zero',
      3,
      `${source}: FULL_SHARD (version 1) or reshard_after_forward=True (version 2) when unset`,
    );
  if (version === 2) readParallelismConfig(r);
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

/**
 * A version 1 strategy name under FSDP version 2, as accelerate's to-fsdp2 converts it: resharding after forward for
 * FULL_SHARD and HYBRID_SHARD only. FSDP2 builds no hybrid mesh from the name (accelerate deprecates it for
 * reshard_after_forward); HSDP comes from parallelism_config alone.
 */
function readFsdp2Strategy(r: KeyReader, key: string, name: string): void {
  const source = SETUP_SOURCES.accelerateFsdp2Strategy;
  r.set(key, 'zero', 3, source);
  if (name !== 'FULL_SHARD' && name !== 'HYBRID_SHARD') r.set(key, 'keepGatheredWeights', true, source);
}

/** One FSDP version 1 sharding strategy: the ZeRO stage, the gathered weights kept, and a machine's shard group. */
function readSharding(r: KeyReader, key: string, sharding: Sharding): void {
  const source = `${SETUP_SOURCES.accelerate}; ${SETUP_SOURCES.fsdpShardingStrategy}`;
  r.set(key, 'zero', sharding.zero, source);
  if (sharding.keepGathered) r.set(key, 'keepGatheredWeights', true, source);
  if (!sharding.hybrid) return;
  // torch shards a HYBRID unit over one machine's GPUs (its device count); accelerate starts
  // num_processes / num_machines processes per machine (utils/launch.py:113).
  const machines = r.count('num_machines') ?? 1;
  const processes = r.count('num_processes');
  if (machines === 1) {
    r.noEffect('num_machines', reason('oneMachineHybrid'), SETUP_SOURCES.fsdpHybridGroup);
    return;
  }
  if (processes === undefined) r.fail('num_processes', { code: 'hybridNeedsProcesses', params: { key, machines } });
  else if (processes % machines !== 0) r.fail('num_machines', { code: 'processesByMachines', params: { processes, machines } });
  else r.set('num_machines', 'shardGroup', processes / machines, SETUP_SOURCES.fsdpHybridGroup);
}

/**
 * accelerate's `parallelism_config` (FSDP2's device mesh): HSDP replicates over `dp_replicate_size` groups of
 * `dp_shard_size` GPUs each; tensor parallelism is the engine's `tp`; context parallelism is not modelled.
 */
function readParallelismConfig(r: KeyReader): void {
  const prefix = 'parallelism_config.parallelism_config_';
  const source = SETUP_SOURCES.accelerateParallelism;
  const replicate = r.count(`${prefix}dp_replicate_size`) ?? 1;
  const shard = r.count(`${prefix}dp_shard_size`);
  const tp = r.count(`${prefix}tp_size`);
  const cp = r.count(`${prefix}cp_size`);
  if (shard !== undefined) {
    // The data-parallel GPUs are the mesh's dp dimensions, not every process: tp and cp take the rest.
    r.set(`${prefix}dp_shard_size`, 'dp', replicate * shard, source);
    if (replicate > 1) r.set(`${prefix}dp_replicate_size`, 'shardGroup', shard, source);
  } else if (replicate > 1) r.fail(`${prefix}dp_shard_size`, { code: 'replicateNeedsShard' });
  if (tp !== undefined && tp > 1) r.set(`${prefix}tp_size`, 'tp', tp, source);
  if (cp !== undefined && cp > 1) r.notModelled(`${prefix}cp_size`, reason('contextParallelOver', cp), source);
  r.ignore(`${prefix}sp_size`, `${prefix}sp_backend`);
}

/** DeepSpeed through accelerate: a JSON file it names, or the plugin's own keys. */
function readDeepSpeedPlugin(r: KeyReader): void {
  const source = SETUP_SOURCES.accelerate;
  const path = r.text('deepspeed_config.deepspeed_config_file');
  if (path !== undefined) r.namesFile('deepspeed_config.deepspeed_config_file', path, source);
  const stage = r.number('deepspeed_config.zero_stage');
  if (stage !== undefined) {
    if (stage === 0 || stage === 1 || stage === 2 || stage === 3) r.set('deepspeed_config.zero_stage', 'zero', stage, source);
    else
      r.fail('deepspeed_config.zero_stage', {
        code: 'notAChoice',
        params: { allowed: ZERO_STAGES.map(String), value: String(stage) },
      });
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
  } else if (backend === 'MSAMP') r.notModelled('mixed_precision', reason('fp8MsAmp'), source);
  else r.notModelled('mixed_precision', reason('fp8NoBackend'), source);
  r.ignore('fp8_config.');
}
