/**
 * An accelerate config YAML from an estimate's options: the process count, and the sharding as FSDP version 2
 * (ZeRO-3, parameter offload, HSDP and tp in its device mesh) or, where FSDP has no form for it (ZeRO-1 and 2,
 * optimizer-only offload, NVMe), as
 * DeepSpeed through accelerate's plugin keys.
 */
import { stringify } from 'yaml';
import type { SetupOptions } from '../mapping.ts';
import { TRAINER_SIDE_OPTIONS, unexpressedList, type WrittenConfig } from './written-config.ts';

/** Write the accelerate config for `options` (the keys `readAccelerateYaml` reads back). */
export function writeAccelerateYaml(options: SetupOptions): WrittenConfig {
  const missing = unexpressedList();
  const config: Record<string, unknown> = {};
  const zero = options.zero ?? 0;
  const offload = options.offload ?? 'none';
  // FSDP has no ZeRO-1 or ZeRO-2 (its SHARD_GRAD_OP shards the weights at rest), nor optimizer-only or NVMe offload.
  const deepspeed = zero === 1 || zero === 2 || offload === 'optimizer' || options.offloadDevice === 'nvme';
  if (deepspeed) {
    config['distributed_type'] = 'DEEPSPEED';
    const plugin: Record<string, unknown> = { zero_stage: zero };
    const device = options.offloadDevice ?? 'cpu';
    if (offload !== 'none') plugin['offload_optimizer_device'] = device;
    if (offload === 'optimizer+params') plugin['offload_param_device'] = device;
    if (options.gradAccum !== undefined) plugin['gradient_accumulation_steps'] = options.gradAccum;
    config['deepspeed_config'] = plugin;
  } else if (zero === 3) {
    config['distributed_type'] = 'FSDP';
    const fsdp: Record<string, unknown> = {
      fsdp_version: 2,
      fsdp_reshard_after_forward: options.keepGatheredWeights !== true,
    };
    if (offload === 'optimizer+params') fsdp['fsdp_offload_params'] = true;
    if (options.recompute === 'full' || options.recompute === 'none')
      fsdp['fsdp_activation_checkpointing'] = options.recompute === 'full';
    config['fsdp_config'] = fsdp;
  } else if (options.zero === 0 || (options.zero === undefined && (options.dp ?? 1) > 1))
    config['distributed_type'] = 'MULTI_GPU';
  else config['distributed_type'] = 'NO';
  if (options.dp !== undefined) config['num_processes'] = options.dp * (options.tp ?? 1);
  if (config['distributed_type'] === 'FSDP' && (options.shardGroup !== undefined || options.tp !== undefined)) {
    // FSDP2's device mesh: dp_replicate_size groups of dp_shard_size GPUs (HSDP), times tp.
    const dp = options.dp ?? 1;
    const shard = options.shardGroup ?? dp;
    config['parallelism_config'] = {
      parallelism_config_dp_replicate_size: dp / shard,
      parallelism_config_dp_shard_size: shard,
      parallelism_config_tp_size: options.tp ?? 1,
    };
  } else missing.addEach(options, ['shardGroup', 'tp'], 'only FSDP2 (ZeRO-3) has a device mesh in the accelerate config');
  writeFp8(options, config, missing);
  if (!(config['distributed_type'] === 'FSDP')) {
    missing.addEach(
      options,
      ['recompute'],
      "the trainer's gradient_checkpointing sets it (FSDP's own is fsdp_activation_checkpointing)",
    );
  }
  if (options.compile !== undefined) missing.add('compile', "not an accelerate key here: the trainer's torch_compile sets it");
  if (options.activationOffload !== undefined && options.activationOffload !== 'none')
    missing.add('activationOffload', 'accelerate has no key for it: the training script offloads activations');
  if (!deepspeed) missing.addEach(options, ['gradAccum'], "the trainer's gradient_accumulation_steps sets it");
  if (offload !== 'none' && !deepspeed && zero < 3)
    missing.add('offload', 'FSDP offloads parameters only when it shards them (ZeRO-3)');
  if (options.keepGatheredWeights === true && config['distributed_type'] !== 'FSDP')
    missing.add('keepGatheredWeights', 'only FSDP keeps the gathered weights (fsdp_reshard_after_forward: false)');
  missing.addEach(
    options,
    [
      'precision',
      'optimizer',
      'optimizerImpl',
      'microBatch',
      'seq',
      'attention',
      'finetune',
      'loraRank',
      'loraTargets',
      ...TRAINER_SIDE_OPTIONS,
    ],
    "not an accelerate key: the trainer's arguments set it",
  );
  return { text: stringify(config), unexpressed: missing.list };
}

/**
 * `mixed_precision: fp8` with its backend (the keys `readAccelerateFp8` reads back): TE, or AO, whose recipe is
 * `Float8LinearConfig()`, tensorwise; a rowwise recipe needs an AORecipeKwargs in the script.
 */
function writeFp8(options: SetupOptions, config: Record<string, unknown>, missing: ReturnType<typeof unexpressedList>): void {
  if (options.fp8 === 'te') {
    config['mixed_precision'] = 'fp8';
    config['fp8_config'] = { backend: 'TE' };
  } else if (options.fp8 === 'torchao-tensorwise') {
    config['mixed_precision'] = 'fp8';
    config['fp8_config'] = {
      backend: 'AO',
      ...(options.fp8AllGather === undefined ? {} : { enable_fsdp_float8_all_gather: options.fp8AllGather }),
    };
  } else if (options.fp8 === 'none') missing.add('fp8', "off: the trainer's own mixed_precision, which this file leaves out");
  else if (options.fp8 === 'torchao-rowwise')
    missing.add(
      'fp8',
      'accelerate’s AO backend builds the tensorwise recipe: pass AORecipeKwargs(config=…rowwise) in the script',
    );
  if (options.fp8AllGather !== undefined && options.fp8 !== 'torchao-tensorwise')
    missing.add('fp8AllGather', 'only with the AO backend');
}
