/**
 * Reader of a torchtune recipe config (`tune run RECIPE --config FILE`): the model builder, dtype, batch, optimizer
 * component and activation checkpointing. Command-line overrides (`key=value`) are applied before writing the file.
 */
import type { LossKind } from '../memory/loss.ts';
import type { OptimizerKind } from '../memory/optimizer.ts';
import { createKeyReader, flattenKeys, type KeyReader } from './key-reader.ts';
import { shellWords } from './script-command-line.ts';
import type { FileOutcome } from './mapping.ts';
import { reason } from './reasons.ts';
import { SETUP_SOURCES } from './sources.ts';
import { readPackingKey } from './batching-keys.ts';
import { readDora, readLoraDropout } from './adapter-keys.ts';

/** torchtune keys that change nothing the engine counts. */
const IGNORED = [
  'tokenizer.',
  'checkpointer.',
  'resume_from_checkpoint',
  'save_adapter_weights_only',
  'dataset.',
  'seed',
  'shuffle',
  'optimizer.lr',
  'optimizer.weight_decay',
  'optimizer.betas',
  'optimizer.eps',
  'lr_scheduler.',
  'epochs',
  'max_steps_per_epoch',
  'output_dir',
  'metric_logger.',
  'log_every_n_steps',
  'log_peak_memory_stats',
  'log_level',
  'device',
  'profiler.',
  'low_cpu_ram',
  'clip_grad_norm',
  'model.lora_alpha',
  'collate_fn',
  'cudnn_deterministic_mode',
  'enable_async_checkpointing',
  'save_every_n_steps',
  'valid_data_files',
];

/** Optimizer components as engine optimizers (torch.optim.AdamW's `fused` keyword is read apart). */
export const TORCHTUNE_OPTIMIZERS: Readonly<Record<string, OptimizerKind>> = {
  'torch.optim.AdamW': 'adamw',
  'torch.optim.Adam': 'adamw',
  'torch.optim.SGD': 'sgd',
  'bitsandbytes.optim.AdamW8bit': 'adamw-8bit',
  'bitsandbytes.optim.PagedAdamW8bit': 'paged-adamw-8bit',
  'bitsandbytes.optim.PagedAdamW': 'paged-adamw',
  'bitsandbytes.optim.PagedAdamW32bit': 'paged-adamw',
  'bitsandbytes.optim.Lion': 'lion',
  'torchao.optim.AdamW8bit': 'adamw-8bit-torchao',
  'torchao.optim.AdamW4bit': 'adamw-4bit-torchao',
  'torchao.optim.CPUOffloadOptimizer': 'adamw-cpu-offload',
};

/**
 * Loss components as engine losses: both of torchtune's chunked losses keep every chunk's fp32 log-softmax
 * (modules/loss/ce_chunked_output_loss.py, cross_entropy_loss.py LinearCrossEntropyLoss, num_output_chunks = 8).
 */
export const TORCHTUNE_LOSSES: Readonly<Record<string, LossKind>> = {
  'torchtune.modules.loss.CEWithChunkedOutputLoss': 'chunked',
  'torchtune.modules.loss.LinearCrossEntropyLoss': 'chunked',
  'torch.nn.CrossEntropyLoss': 'eager',
};

/** torchtune's attention projections (`lora_attn_modules`) as the engine's targets. */
const ATTENTION_MODULES: Readonly<Record<string, string>> = { q_proj: 'q', k_proj: 'k', v_proj: 'v', output_proj: 'o' };

/** Read a torchtune config already parsed into `data`. */
export function readTorchtuneYaml(file: string, data: Readonly<Record<string, unknown>>): FileOutcome {
  return readTorchtuneKeys(file, flattenKeys(data));
}

/** An override's value as OmegaConf's dotlist reads it: booleans, numbers, null, `[a,b]` lists, else text. */
function overrideValue(text: string): unknown {
  if (/^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
  if (/^(null|none|~)$/i.test(text)) return null;
  if (text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  const list = /^\[(.*)\]$/.exec(text);
  if (list !== null)
    return (list[1] ?? '')
      .split(',')
      .map((item) => item.trim().replace(/^['"]|['"]$/g, ''))
      .filter((item) => item !== '');
  return text;
}

/**
 * Read torchtune command-line overrides: `tune run RECIPE --config CONFIG key=value …`, or the `key=value` words alone
 * (what `writeTorchtuneOverrides` writes). The config they override is a second file when the reader has it.
 */
export function readTorchtuneOverrides(file: string, text: string): FileOutcome {
  const entries = new Map<string, unknown>();
  for (const word of shellWords(text)) {
    const at = word.indexOf('=');
    if (at > 0 && !word.startsWith('-')) entries.set(word.slice(0, at), overrideValue(word.slice(at + 1)));
  }
  return readTorchtuneKeys(file, entries);
}

function readTorchtuneKeys(file: string, entries: ReadonlyMap<string, unknown>): FileOutcome {
  const r = createKeyReader(file, 'torchtune', entries);
  const recipe = SETUP_SOURCES.torchtune;
  readModel(r);
  const batch = r.count('batch_size');
  if (batch !== undefined) r.set('batch_size', 'microBatch', batch, recipe);
  const accum = r.count('gradient_accumulation_steps');
  if (accum !== undefined) r.set('gradient_accumulation_steps', 'gradAccum', accum, recipe);
  const seq = r.count('tokenizer.max_seq_len');
  if (seq !== undefined) r.set('tokenizer.max_seq_len', 'seq', seq, recipe);
  readPackingKey(r, 'dataset.packed', SETUP_SOURCES.torchtunePacking);
  readTorchtuneFp8(r);
  const dtype = r.text('dtype');
  if (dtype === 'bf16') r.set('dtype', 'precision', 'bf16', recipe);
  else if (dtype === 'fp32') r.set('dtype', 'precision', 'fp32', recipe);
  else if (dtype !== undefined) r.fail('dtype', { code: 'notAChoice', params: { allowed: ['bf16', 'fp32'], value: dtype } });
  const checkpointing = r.bool('enable_activation_checkpointing');
  if (checkpointing !== undefined) r.set('enable_activation_checkpointing', 'recompute', checkpointing ? 'full' : 'none', recipe);
  const offloading = r.bool('enable_activation_offloading');
  if (offloading !== undefined)
    r.set('enable_activation_offloading', 'activationOffload', offloading ? 'streamed' : 'none', recipe);
  readOptimizer(r);
  const inBackward = r.bool('optimizer_in_bwd');
  if (inBackward !== undefined) r.set('optimizer_in_bwd', 'optimizerInBackward', inBackward, recipe);
  const component = r.text('loss._component_');
  if (component !== undefined) {
    const loss = TORCHTUNE_LOSSES[component];
    if (loss !== undefined) r.set('loss._component_', 'loss', loss, SETUP_SOURCES.torchtuneLoss);
    else r.notModelled('loss._component_', reason('lossComponent', component), recipe);
  }
  const compile = r.bool('compile');
  if (compile !== undefined) r.set('compile', 'compile', compile, recipe);
  if (r.bool('fsdp_cpu_offload') === true) {
    r.set('fsdp_cpu_offload', 'offload', 'optimizer+params', recipe);
    r.set('fsdp_cpu_offload', 'offloadDevice', 'cpu', recipe);
  }
  const reshard = r.bool('fsdp_reshard_after_forward');
  if (reshard !== undefined) {
    // FSDP2 shards the weights at rest either way; false keeps them gathered from forward to backward.
    r.set('fsdp_reshard_after_forward', 'zero', 3, recipe);
    if (!reshard) r.set('fsdp_reshard_after_forward', 'keepGatheredWeights', true, recipe);
  }
  readDeviceMesh(r);
  r.ignore(...IGNORED);
  return r.finish('torchtune');
}

/**
 * The distributed recipes' device mesh: `data_parallel_replicate_dim` replicas of `data_parallel_shard_dim` GPUs each
 * (HSDP), `tensor_parallel_dim`, `context_parallel_dim` (not modelled). A shard dim of -1 is inferred from the world
 * size, which the file does not hold.
 */
function readDeviceMesh(r: KeyReader): void {
  const source = SETUP_SOURCES.torchtuneMesh;
  const shard = r.number('data_parallel_shard_dim');
  const replicate = r.count('data_parallel_replicate_dim') ?? 1;
  if (shard !== undefined && shard >= 1) {
    if (!Number.isSafeInteger(shard)) r.fail('data_parallel_shard_dim', { code: 'shardDim', params: { value: shard } });
    r.set('data_parallel_shard_dim', 'dp', shard * replicate, source);
    if (replicate > 1) r.set('data_parallel_replicate_dim', 'shardGroup', shard, source);
  } else if (shard !== undefined && shard !== -1)
    r.fail('data_parallel_shard_dim', { code: 'shardDim', params: { value: shard } });
  else if (replicate > 1) r.notModelled('data_parallel_replicate_dim', reason('replicasInferred', replicate), source);
  const tp = r.count('tensor_parallel_dim');
  if (tp !== undefined && tp > 1) r.set('tensor_parallel_dim', 'tp', tp, source);
  const cp = r.count('context_parallel_dim');
  if (cp !== undefined && cp > 1) r.notModelled('context_parallel_dim', reason('contextParallelOver', cp), source);
  r.ignore('tensor_parallel_plan.', 'tensor_parallel_plan', 'context_parallel_rotate_method');
}

/** The model builder (`qlora_*` is QLoRA, `lora_*` LoRA, anything else full) and the LoRA keys, wherever they are given. */
function readModel(r: KeyReader): void {
  const builders = SETUP_SOURCES.torchtuneLora;
  const component = r.text('model._component_');
  if (component !== undefined) {
    const name = component.split('.').at(-1) ?? component;
    const quantized = name.startsWith('qlora_') || r.bool('model.quantize_base') === true;
    const finetune = quantized ? 'qlora' : name.startsWith('lora_') ? 'lora' : 'full';
    r.set('model._component_', 'finetune', finetune, finetune === 'full' ? SETUP_SOURCES.torchtune : builders);
  }
  const rank = r.count('model.lora_rank');
  if (rank !== undefined) r.set('model.lora_rank', 'loraRank', rank, builders);
  const modules = r.names('model.lora_attn_modules');
  if (modules !== undefined) {
    const unknown = modules.filter((module) => ATTENTION_MODULES[module] === undefined);
    if (unknown.length > 0) r.fail('model.lora_attn_modules', { code: 'unknownModules', params: { modules: unknown } });
    const targets = new Set(modules.map((module) => ATTENTION_MODULES[module]));
    const mlp = r.bool('model.apply_lora_to_mlp') === true;
    const ordered = [...['q', 'k', 'v', 'o'].filter((target) => targets.has(target)), ...(mlp ? ['gate', 'up', 'down'] : [])];
    if (ordered.length > 0)
      r.set('model.lora_attn_modules', 'loraTargets', ordered.length === 7 ? 'all-linear' : ordered.join(','), builders);
  }
  if (r.bool('model.apply_lora_to_output') === true)
    r.notModelled('model.apply_lora_to_output', reason('adapterOnOutput'), builders);
  readDora(r, 'model.use_dora', builders);
  readLoraDropout(r, 'model.lora_dropout', builders);
}

/** `optimizer._component_` and its `fused` keyword (torch.optim.AdamW's `fused`, default foreach on CUDA). */
function readOptimizer(r: KeyReader): void {
  const component = r.text('optimizer._component_');
  if (component === undefined) return;
  const recipe = SETUP_SOURCES.torchtune;
  const optimizer = TORCHTUNE_OPTIMIZERS[component];
  if (optimizer === undefined) {
    r.notModelled(
      'optimizer._component_',
      reason('optimizerNotCounted', component, Object.keys(TORCHTUNE_OPTIMIZERS).join(', ')),
      recipe,
    );
    return;
  }
  const momentum = r.number('optimizer.momentum');
  r.set(
    'optimizer._component_',
    'optimizer',
    optimizer === 'sgd' && momentum !== undefined && momentum > 0 ? 'sgd-momentum' : optimizer,
    optimizer.startsWith('paged') ? `${recipe}; ${SETUP_SOURCES.pagedOptimizers}` : recipe,
  );
  if (optimizer === 'adamw' && component.startsWith('torch.')) {
    const fused = r.bool('optimizer.fused');
    const key = fused === undefined ? 'optimizer._component_' : 'optimizer.fused';
    r.set(key, 'optimizerImpl', fused === true ? 'fused' : 'foreach', SETUP_SOURCES.torchAdamW);
  }
}

/** torchtune's recipe names for torchao's float8 recipes (Float8LinearConfig.from_recipe_name). */
const TORCHTUNE_FP8_RECIPES: Readonly<Record<string, 'torchao-tensorwise' | 'torchao-rowwise'>> = {
  tensorwise: 'torchao-tensorwise',
  rowwise: 'torchao-rowwise',
};

/**
 * `enable_fp8_training` with `fp8_recipe_name`: without a name, torchtune's default is tensorwise with the float8
 * all-gather on (quantization.py:265-268); a named recipe leaves the all-gather off.
 */
function readTorchtuneFp8(r: KeyReader): void {
  const source = SETUP_SOURCES.torchtuneFp8;
  const enabled = r.bool('enable_fp8_training');
  const name = r.text('fp8_recipe_name');
  if (enabled !== true) {
    if (enabled === false) r.set('enable_fp8_training', 'fp8', 'none', source);
    if (name !== undefined) r.noEffect('fp8_recipe_name', reason('fp8Off'), source);
    return;
  }
  if (name === undefined) {
    r.set('enable_fp8_training', 'fp8', 'torchao-tensorwise', source);
    r.set('enable_fp8_training', 'fp8AllGather', true, source);
    return;
  }
  const recipe = TORCHTUNE_FP8_RECIPES[name];
  if (recipe === undefined) r.notModelled('fp8_recipe_name', reason('fp8Recipe', name), source);
  else r.set('fp8_recipe_name', 'fp8', recipe, source);
}
