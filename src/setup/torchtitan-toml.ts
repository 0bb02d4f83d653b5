/**
 * Reader of a torchtitan job config (`train_configs/*.toml`, torchtitan up to 0.2.2 @238fa99, before its configs moved
 * to Python): the batch and sequence, mixed precision, the data-parallel mesh (FSDP2, HSDP), tensor parallelism,
 * activation checkpointing, the optimizer and compile. What the engine does not model (pipeline, context and expert
 * parallelism, float8, every-Nth-layer checkpointing) is named; logging, checkpoints and data paths are ignored.
 */
import { createKeyReader, flattenKeys, type KeyReader } from './key-reader.ts';
import type { FileOutcome } from './mapping.ts';
import { reason } from './reasons.ts';
import { SETUP_SOURCES } from './sources.ts';

/** Keys that change nothing the engine counts. */
const IGNORED = [
  'job.',
  'profiling.',
  'metrics.',
  'lr_scheduler.',
  'checkpoint.',
  'validation.',
  'comm.',
  'fault_tolerance.',
  'experimental.',
  'memory_estimation.',
  'model.flavor',
  'model.hf_assets_path',
  'model.tokenizer_path',
  'model.print_after_conversion',
  'optimizer.lr',
  'optimizer.eps',
  'optimizer.beta1',
  'optimizer.beta2',
  'optimizer.weight_decay',
  'training.dataset',
  'training.dataset_path',
  'training.max_norm',
  'training.steps',
  'training.seed',
  'training.deterministic',
  'training.gc_freq',
  'training.gc_debug',
  'training.mixed_precision_reduce',
  'parallelism.enable_async_tensor_parallel',
  'parallelism.pipeline_parallel_schedule',
  'parallelism.pipeline_parallel_microbatch_size',
  'parallelism.disable_loss_parallel',
  'compile.components',
  'activation_checkpoint.preserve_rng_state',
  'activation_checkpoint.early_stop',
  'activation_checkpoint.per_op_sac_force_recompute_mm_shapes_by_fqns',
  // Float8 is applied only when model.converters names it (read there); its settings alone change nothing.
  'quantize.',
  'float8.',
];

/** torchtitan optimizer names that are the engine's AdamW (components/optimizer.py builds torch.optim's). */
const ADAM_NAMES = new Set(['AdamW', 'Adam']);

/** Read a torchtitan job config already parsed into `data`. */
export function readTorchtitanToml(file: string, data: Readonly<Record<string, unknown>>): FileOutcome {
  const r = createKeyReader(file, 'torchtitan', flattenKeys(data));
  const source = SETUP_SOURCES.torchtitanConfig;
  const microBatch = r.count('training.local_batch_size');
  if (microBatch !== undefined) r.set('training.local_batch_size', 'microBatch', microBatch, source);
  const seq = r.count('training.seq_len');
  if (seq !== undefined) r.set('training.seq_len', 'seq', seq, source);
  const dp = readMesh(r);
  readGlobalBatch(r, microBatch, dp);
  readPrecision(r);
  if (r.bool('training.enable_cpu_offload') === true) {
    r.set('training.enable_cpu_offload', 'offload', 'optimizer+params', source);
    r.set('training.enable_cpu_offload', 'offloadDevice', 'cpu', source);
  }
  readCheckpointing(r);
  readOptimizer(r);
  const compile = r.bool('compile.enable');
  if (compile !== undefined) r.set('compile.enable', 'compile', compile, source);
  const converters = r.names('model.converters');
  if (converters?.some((name) => name.includes('float8'))) r.notModelled('model.converters', reason('float8Linear'), source);
  // The model's TrainSpec builds the loss: plain cross-entropy over fp32-upcast logits.
  if (r.text('model.name') !== undefined) r.set('model.name', 'loss', 'eager', SETUP_SOURCES.torchtitanLoss);
  r.ignore(...IGNORED);
  return r.finish('torchtitan');
}

/**
 * `[parallelism]`: `data_parallel_shard_degree` GPUs shard with FSDP2 (-1: every GPU left, which the file does not
 * count), `data_parallel_replicate_degree` replicas of them (HSDP), tensor parallelism; pipeline, context and expert
 * parallelism are named as not modelled. Returns the data-parallel degree when the file fixes it.
 */
function readMesh(r: KeyReader): number | undefined {
  const source = SETUP_SOURCES.torchtitanConfig;
  const prefix = 'parallelism.';
  const replicate = r.count(`${prefix}data_parallel_replicate_degree`) ?? 1;
  const shard = r.number(`${prefix}data_parallel_shard_degree`);
  let dp: number | undefined;
  if (shard === -1) {
    r.set(`${prefix}data_parallel_shard_degree`, 'zero', 3, source);
    r.leftToStack(`${prefix}data_parallel_shard_degree`, reason('allGpusShard'));
  } else if (shard !== undefined && Number.isSafeInteger(shard) && shard >= 1) {
    dp = shard * replicate;
    r.set(`${prefix}data_parallel_shard_degree`, 'dp', dp, source);
    r.set(`${prefix}data_parallel_shard_degree`, 'zero', shard > 1 ? 3 : 0, source);
    if (shard > 1 && replicate > 1) r.set(`${prefix}data_parallel_replicate_degree`, 'shardGroup', shard, source);
  } else if (shard !== undefined)
    r.fail(`${prefix}data_parallel_shard_degree`, { code: 'shardDegree', params: { value: shard } });
  const reshard = r.text(`${prefix}fsdp_reshard_after_forward`);
  if (reshard === 'never') r.set(`${prefix}fsdp_reshard_after_forward`, 'keepGatheredWeights', true, source);
  const tp = r.count(`${prefix}tensor_parallel_degree`);
  if (tp !== undefined && tp > 1) r.set(`${prefix}tensor_parallel_degree`, 'tp', tp, source);
  for (const [key, code] of [
    ['pipeline_parallel_degree', 'pipelineStages'],
    ['context_parallel_degree', 'contextParallelism'],
    ['expert_parallel_degree', 'expertParallelism'],
  ] as const) {
    const degree = r.count(`${prefix}${key}`);
    if (degree !== undefined && degree > 1) r.notModelled(`${prefix}${key}`, reason(code, degree), source);
  }
  return dp;
}

/** `global_batch_size` -1 is local × dp (no accumulation); otherwise torchtitan accumulates global / (local × dp) steps. */
function readGlobalBatch(r: KeyReader, microBatch: number | undefined, dp: number | undefined): void {
  const key = 'training.global_batch_size';
  const global = r.number(key);
  const source = SETUP_SOURCES.torchtitanConfig;
  if (global === undefined) return;
  if (global === -1) r.set(key, 'gradAccum', 1, source);
  else if (microBatch === undefined || dp === undefined) r.leftToStack(key, reason('accumulationUnfixed'));
  else if (!Number.isSafeInteger(global / (microBatch * dp)) || global < microBatch * dp)
    r.fail(key, { code: 'globalBatch', params: { global, perStep: microBatch * dp } });
  else r.set(key, 'gradAccum', global / (microBatch * dp), source);
}

/**
 * `training.dtype` bfloat16 is pure bf16 (no fp32 copy); otherwise `mixed_precision_param` bfloat16 is FSDP2's
 * bf16 compute over fp32 sharded weights, or autocast without sharding; float32 trains in fp32.
 */
function readPrecision(r: KeyReader): void {
  const source = SETUP_SOURCES.torchtitanConfig;
  const dtype = r.text('training.dtype');
  if (dtype === 'bfloat16') {
    r.set('training.dtype', 'precision', 'bf16', source);
    r.ignore('training.mixed_precision_param');
    return;
  }
  const param = r.text('training.mixed_precision_param');
  if (param === 'float32') r.set('training.mixed_precision_param', 'precision', 'fp32', source);
  else if (param === 'bfloat16') r.leftToStack('training.mixed_precision_param', reason('bf16ThroughFullyShard'));
  else if (param !== undefined)
    r.fail('training.mixed_precision_param', { code: 'notAChoice', params: { allowed: ['bfloat16', 'float32'], value: param } });
}

/** `[activation_checkpoint]`: none, full, selective by op (`op`) or every Nth block (N = 0 or 1 is every block). */
function readCheckpointing(r: KeyReader): void {
  const source = SETUP_SOURCES.torchtitanCheckpointing;
  const mode = r.text('activation_checkpoint.mode');
  const option = r.text('activation_checkpoint.selective_ac_option');
  const key = 'activation_checkpoint.mode';
  if (mode === 'none') r.set(key, 'recompute', 'none', source);
  else if (mode === 'full') r.set(key, 'recompute', 'full', source);
  else if (mode === 'selective') {
    if (option === 'op') r.set('activation_checkpoint.selective_ac_option', 'recompute', 'op', source);
    // A frequency of 0 or 1 wraps every block (activation_checkpoint.py:39-40).
    else if (option === '0' || option === '1') r.set('activation_checkpoint.selective_ac_option', 'recompute', 'full', source);
    else if (option !== undefined && /^\d+$/.test(option))
      r.notModelled('activation_checkpoint.selective_ac_option', reason('everyNthBlock', option), source);
    else if (option === undefined) r.leftToStack(key, reason('selectiveDefault'));
    else r.fail('activation_checkpoint.selective_ac_option', { code: 'selectiveAcOption', params: { value: option } });
  } else if (mode === 'memory_budget') r.notModelled(key, reason('memoryBudget'), source);
  else if (mode !== undefined)
    r.fail(key, { code: 'notAChoice', params: { allowed: ['none', 'selective', 'full', 'memory_budget'], value: mode } });
}

/** `[optimizer]`: torch.optim's AdamW or Adam, with its implementation (for-loop, foreach, fused). */
function readOptimizer(r: KeyReader): void {
  const source = SETUP_SOURCES.torchtitanOptimizer;
  const name = r.text('optimizer.name');
  if (name !== undefined && ADAM_NAMES.has(name)) r.set('optimizer.name', 'optimizer', 'adamw', source);
  else if (name !== undefined) r.notModelled('optimizer.name', reason('optimizerName', name), source);
  const impl = r.text('optimizer.implementation');
  if (impl === 'for-loop' || impl === 'foreach' || impl === 'fused')
    r.set('optimizer.implementation', 'optimizerImpl', impl, source);
  else if (impl !== undefined)
    r.fail('optimizer.implementation', {
      code: 'notAChoice',
      params: { allowed: ['for-loop', 'foreach', 'fused'], value: impl },
    });
}
