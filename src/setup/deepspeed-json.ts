/**
 * Reader of a DeepSpeed configuration JSON. Keys set to `"auto"` are left for `combine.ts`, which fills them from the
 * Trainer's arguments as transformers does (`HfTrainerDeepSpeedConfig`), and the bucket sizes from the hidden size.
 */
import type { OffloadDevice } from '../memory/offload.ts';
import { ZERO_STAGES, type ZeroStage } from '../memory/parallel.ts';
import { createKeyReader, flattenKeys, type KeyReader } from './key-reader.ts';
import type { FileOutcome } from './mapping.ts';
import { reason, type BufferReasonCode } from './reasons.ts';
import { SETUP_SOURCES } from './sources.ts';

/** The keys transformers fills from the model's hidden size when they are `"auto"` (`trainer_config_finalize`). */
const HIDDEN_SIZE_KEYS = [
  'zero_optimization.reduce_bucket_size',
  'zero_optimization.stage3_prefetch_bucket_size',
  'zero_optimization.stage3_param_persistence_threshold',
] as const;

/** DeepSpeed's optimizer types that are Adam (deepspeed/runtime/config.py `DEEPSPEED_OPTIMIZERS`). */
const ADAM_TYPES = new Set(['adam', 'adamw']);

/** Keys that change nothing the engine counts. */
const IGNORED = [
  'train_batch_size',
  'gradient_clipping',
  'steps_per_print',
  'wall_clock_breakdown',
  'zero_allow_untested_optimizer',
  'prescale_gradients',
  'optimizer.params.',
  'scheduler.',
  'fp16.loss_scale',
  'fp16.loss_scale_window',
  'fp16.initial_scale_power',
  'fp16.hysteresis',
  'fp16.min_loss_scale',
  'fp16.auto_cast',
  'zero_optimization.overlap_comm',
  'zero_optimization.contiguous_gradients',
  'zero_optimization.allgather_partitions',
  'zero_optimization.reduce_scatter',
  'zero_optimization.round_robin_gradients',
  'zero_optimization.sub_group_size',
  'zero_optimization.stage3_gather_16bit_weights_on_model_save',
  'zero_optimization.stage3_gather_fp16_weights_on_model_save',
  'zero_optimization.offload_optimizer.pin_memory',
  'zero_optimization.offload_param.pin_memory',
  'zero_optimization.offload_optimizer.nvme_path',
  'zero_optimization.offload_param.nvme_path',
  'comms_config.',
  'monitor_config.',
  'tensorboard.',
  'wandb.',
  'csv_monitor.',
  'flops_profiler.',
  'checkpoint.',
  'activation_checkpointing.',
  'data_types.',
];

/** Keys sizing communication buffers and ZeRO-3's gathered parameters: memory the engine does not count yet. */
const BUFFER_KEYS: Readonly<Record<string, BufferReasonCode>> = {
  'zero_optimization.allgather_bucket_size': 'allgatherBucket',
  'zero_optimization.reduce_bucket_size': 'reduceBucket',
  'zero_optimization.stage3_prefetch_bucket_size': 'prefetchBucket',
  'zero_optimization.stage3_param_persistence_threshold': 'persistenceThreshold',
  'zero_optimization.stage3_max_live_parameters': 'maxLiveParameters',
  'zero_optimization.stage3_max_reuse_distance': 'maxReuseDistance',
};

/**
 * ZeRO++ hpZ (`zero_hpz_partition_size` N > 1): on top of ZeRO-3's shard of the weights, each GPU keeps a secondary
 * shard of the 16-bit weights over its group of N, 2·P/N more bytes, so that backward gathers within the group. The
 * engine's `--shard-group` shards every state within the group instead, so this stays not modelled.
 */
function readHierarchicalPartition(r: KeyReader): void {
  const key = 'zero_optimization.zero_hpz_partition_size';
  const size = r.number(key);
  if (size === undefined || size <= 1) return;
  r.notModelled(key, reason('hpzShard', size), SETUP_SOURCES.deepspeedHpz);
}

/** Read a DeepSpeed JSON already parsed into `data`. */
export function readDeepSpeedJson(file: string, data: Readonly<Record<string, unknown>>): FileOutcome {
  const r = createKeyReader(file, 'deepspeed', flattenKeys(data));
  const config = SETUP_SOURCES.deepspeedConfig;
  readAutoCount(r, 'train_micro_batch_size_per_gpu', 'microBatch');
  readAutoCount(r, 'gradient_accumulation_steps', 'gradAccum');
  readPrecision(r);
  const stage = r.number('zero_optimization.stage');
  if (stage !== undefined) {
    if (stage === 0 || stage === 1 || stage === 2 || stage === 3)
      r.set('zero_optimization.stage', 'zero', stage satisfies ZeroStage, config);
    else
      r.fail('zero_optimization.stage', {
        code: 'notAChoice',
        params: { allowed: ZERO_STAGES.map(String), value: String(stage) },
      });
  }
  const optimizerDevice = readOffloadDevice(r, 'zero_optimization.offload_optimizer.device');
  const paramDevice = readOffloadDevice(r, 'zero_optimization.offload_param.device');
  if (paramDevice !== undefined) {
    r.set('zero_optimization.offload_param.device', 'offload', 'optimizer+params', config);
    r.set('zero_optimization.offload_param.device', 'offloadDevice', paramDevice, config);
  } else if (optimizerDevice !== undefined) {
    r.set('zero_optimization.offload_optimizer.device', 'offload', 'optimizer', config);
    r.set('zero_optimization.offload_optimizer.device', 'offloadDevice', optimizerDevice, config);
  }
  readOptimizer(r, optimizerDevice !== undefined);
  readHierarchicalPartition(r);
  for (const [key, code] of Object.entries(BUFFER_KEYS)) {
    if ((HIDDEN_SIZE_KEYS as readonly string[]).includes(key) && r.isAuto(key)) r.hiddenAuto(key);
    else {
      const elements = r.number(key);
      if (elements !== undefined) r.notModelled(key, reason(code, elements), config);
    }
  }
  r.ignore(...IGNORED);
  return r.finish('deepspeed');
}

/** A count that may be `"auto"` (filled from the Trainer's arguments). */
function readAutoCount(r: KeyReader, key: string, option: 'microBatch' | 'gradAccum'): void {
  if (r.isAuto(key)) r.auto(key, option);
  else {
    const count = r.count(key);
    if (count !== undefined) r.set(key, option, count, SETUP_SOURCES.deepspeedConfig);
  }
}

/**
 * `bf16.enabled` / `fp16.enabled`: DeepSpeed keeps 16-bit weights and gradients with an fp32 master copy in the
 * optimizer (the engine's `mixed-*`); both turned off is fp32 training.
 */
function readPrecision(r: KeyReader): void {
  const config = SETUP_SOURCES.deepspeedConfig;
  const bf16Auto = r.isAuto('bf16.enabled');
  const fp16Auto = r.isAuto('fp16.enabled');
  if (bf16Auto || fp16Auto) {
    r.auto(bf16Auto ? 'bf16.enabled' : 'fp16.enabled', 'precision');
    if (!bf16Auto) r.bool('bf16.enabled');
    if (!fp16Auto) r.bool('fp16.enabled');
    return;
  }
  const bf16 = r.bool('bf16.enabled');
  const fp16 = r.bool('fp16.enabled');
  if (bf16 === true) r.set('bf16.enabled', 'precision', 'mixed-bf16', config);
  else if (fp16 === true) r.set('fp16.enabled', 'precision', 'mixed-fp16', config);
  else if (bf16 === false || fp16 === false) r.set(fp16 === false ? 'fp16.enabled' : 'bf16.enabled', 'precision', 'fp32', config);
  r.bool('amp.enabled');
  if (r.has('bfloat16.enabled')) {
    const legacy = r.bool('bfloat16.enabled');
    if (legacy === true) r.set('bfloat16.enabled', 'precision', 'mixed-bf16', config);
  }
}

/** Read `key` as a DeepSpeed offload device: `cpu` or `nvme`; `none` is no offload. */
export function readOffloadDevice(r: KeyReader, key: string): OffloadDevice | undefined {
  const device = r.text(key);
  if (device === undefined || device === 'none') return undefined;
  if (device === 'cpu' || device === 'nvme') return device;
  r.fail(key, { code: 'notAChoice', params: { allowed: ['none', 'cpu', 'nvme'], value: device } });
  return undefined;
}

/** `optimizer.type`: Adam and AdamW are FusedAdam on the GPU, torch.optim.AdamW with `torch_adam`, DeepSpeedCPUAdam when offloaded. */
function readOptimizer(r: KeyReader, offloaded: boolean): void {
  const type = r.text('optimizer.type');
  if (type === undefined) return;
  const source = SETUP_SOURCES.deepspeedOptimizer;
  // FusedLion keeps one exp_avg like the fp32 master parameter it steps (ops/lion/fused_lion.py:99, engine.py:2172).
  if (type.toLowerCase() === 'lion') {
    r.set('optimizer.type', 'optimizer', 'lion', source);
    return;
  }
  if (!ADAM_TYPES.has(type.toLowerCase())) {
    r.notModelled('optimizer.type', reason('deepSpeedOptimizer', type), source);
    return;
  }
  r.set('optimizer.type', 'optimizer', 'adamw', source);
  if (r.bool('optimizer.params.torch_adam') === true)
    r.set('optimizer.params.torch_adam', 'optimizerImpl', 'foreach', SETUP_SOURCES.torchAdamW);
  else if (!offloaded) r.set('optimizer.type', 'optimizerImpl', 'fused', source);
}
