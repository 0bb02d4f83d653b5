/**
 * An axolotl YAML from an estimate's options: the keys that change memory only. ZeRO-2/3 with parameter offload are
 * written as axolotl's FSDP keys; ZeRO-1, optimizer-only and NVMe offload need a DeepSpeed JSON.
 */
import { stringify } from 'yaml';
import { hfSavedModuleNames } from '../adapter-keys.ts';
import { hfOptimizerFor } from '../hf-optimizers.ts';
import { hfModuleNames } from '../lora-modules.ts';
import type { SetupOptions } from '../mapping.ts';
import { unexpressedList, type WrittenConfig } from './written-config.ts';

/** The adapter dtype as `peft_autocast_adapter_dtype`: true is fp32; false is the dtype the model is loaded in. */
function writeAdapterDtype(
  options: SetupOptions,
  config: Record<string, unknown>,
  missing: ReturnType<typeof unexpressedList>,
): void {
  const { loraDtype, precision } = options;
  if (loraDtype === undefined) return;
  const adapters = options.finetune === 'lora' || options.finetune === 'qlora';
  if (adapters && loraDtype === 'fp32') config['peft_autocast_adapter_dtype'] = true;
  else if (adapters && ((loraDtype === 'bf16' && precision === 'bf16') || (loraDtype === 'fp16' && precision === 'amp-fp16')))
    config['peft_autocast_adapter_dtype'] = false;
  else missing.add('loraDtype', `${loraDtype} adapters: axolotl makes them fp32 or the dtype it loads the model in`);
}

/** axolotl's loss plugins (src/axolotl/integrations/liger, cut_cross_entropy), each switched on by its key. */
const LOSS_PLUGINS = {
  'fused-linear': { plugin: 'axolotl.integrations.liger.LigerPlugin', key: 'liger_fused_linear_cross_entropy' },
  cut: { plugin: 'axolotl.integrations.cut_cross_entropy.CutCrossEntropyPlugin', key: 'cut_cross_entropy' },
} as const;

/** The loss as a plugin and its switch: the reader's `readLoss` backwards. */
function writeLoss(options: SetupOptions, config: Record<string, unknown>, missing: ReturnType<typeof unexpressedList>): void {
  const { loss } = options;
  if (loss === 'fused-linear' || loss === 'cut') {
    const { plugin, key } = LOSS_PLUGINS[loss];
    config['plugins'] = [plugin];
    config[key] = true;
  } else missing.addEach(options, ['loss'], "axolotl runs the Trainer's loss unless a loss plugin is named");
}

/** Write the axolotl YAML for `options` (the keys `readAxolotlYaml` reads back). */
export function writeAxolotlYaml(options: SetupOptions): WrittenConfig {
  const missing = unexpressedList();
  // The reader's model goes here (the Python writer's MODEL); the key also tells the file from a Trainer's.
  const config: Record<string, unknown> = { base_model: 'MODEL' };
  if (options.finetune === 'lora' || options.finetune === 'qlora') {
    config['adapter'] = options.finetune;
    if (options.finetune === 'qlora') config['load_in_4bit'] = true;
    if (options.loraRank !== undefined) config['lora_r'] = options.loraRank;
    if (options.loraTargets === 'all-linear') config['lora_target_linear'] = true;
    else if (options.loraTargets !== undefined) config['lora_target_modules'] = hfModuleNames(options.loraTargets);
    if (options.loraDropout !== undefined) config['lora_dropout'] = options.loraDropout;
    if (options.dora !== undefined) config['peft_use_dora'] = options.dora;
    if (options.modulesToSave !== undefined) config['lora_modules_to_save'] = hfSavedModuleNames(options.modulesToSave);
  } else missing.addEach(options, ['loraRank', 'loraTargets', 'loraDropout', 'dora', 'modulesToSave'], 'only with an adapter');
  if (options.finetune === 'qlora' && options.qloraKept !== undefined)
    config['embeddings_skip_upcast'] = options.qloraKept === '16-bit';
  else missing.addEach(options, ['qloraKept'], 'only with a 4-bit base (adapter: qlora)');
  missing.addEach(
    options,
    ['qloraFormat'],
    'axolotl always loads NF4 with double quantization (loaders/model.py:718-719 bnb_4bit_quant_type "nf4", bnb_4bit_use_double_quant True)',
  );
  writeAdapterDtype(options, config, missing);
  missing.addEach(options, ['optimizerInBackward'], 'the Trainer steps the optimizer after backward');
  writeLoss(options, config, missing);
  if (options.seq !== undefined) config['sequence_len'] = options.seq;
  if (options.microBatch !== undefined) config['micro_batch_size'] = options.microBatch;
  if (options.gradAccum !== undefined) config['gradient_accumulation_steps'] = options.gradAccum;
  const optim = hfOptimizerFor(options);
  if (optim.name !== null) config['optimizer'] = optim.name;
  for (const { option, why } of optim.unnamed) missing.add(option, why);
  const precision = options.precision;
  if (precision === 'bf16') config['bf16'] = true;
  else if (precision === 'amp-fp16') config['fp16'] = true;
  else if (precision === 'fp32') config['bf16'] = false;
  else if (precision !== undefined) missing.add('precision', `${precision}: axolotl trains in the dtype it loads`);
  if (options.recompute === 'full' || options.recompute === 'none')
    config['gradient_checkpointing'] = options.recompute === 'full';
  else if (options.recompute !== undefined) missing.add('recompute', `${options.recompute}: axolotl checkpoints whole layers`);
  if (options.compile !== undefined) config['torch_compile'] = options.compile;
  // axolotl's fp8 is torchao's tensorwise recipe (core/trainers/base.py:683-700).
  if (options.fp8 === 'torchao-tensorwise' || options.fp8 === 'none') config['fp8'] = options.fp8 !== 'none';
  else if (options.fp8 !== undefined) missing.add('fp8', `${options.fp8}: axolotl's fp8 is torchao's tensorwise recipe`);
  if (options.fp8AllGather !== undefined) config['fp8_enable_fsdp_float8_all_gather'] = options.fp8AllGather;
  if (options.batching === 'padding-free')
    missing.add('batching', 'axolotl pads or packs (sample_packing); it has no padding-free key');
  else if (options.batching !== undefined) config['sample_packing'] = options.batching === 'packed';
  if (options.activationOffload === 'checkpoints') config['gradient_checkpointing'] = 'offload';
  else if (options.activationOffload === 'streamed')
    missing.add(
      'activationOffload',
      'axolotl offloads the checkpoints (gradient_checkpointing: offload), not every saved activation',
    );
  if (options.attention === 'sdpa') config['flash_attention'] = true;
  else if (options.attention === 'eager') config['eager_attention'] = true;
  const zero = options.zero ?? 0;
  if (zero === 3) {
    config['fsdp'] = ['full_shard', 'auto_wrap'];
    const fsdpConfig: Record<string, unknown> = {};
    if (options.offload === 'optimizer+params') fsdpConfig['offload_params'] = true;
    if (options.keepGatheredWeights !== undefined) fsdpConfig['reshard_after_forward'] = !options.keepGatheredWeights;
    if (Object.keys(fsdpConfig).length > 0) config['fsdp_config'] = fsdpConfig;
  } else if (zero === 1 || zero === 2)
    missing.add('zero', `ZeRO-${zero} has no FSDP form: write the DeepSpeed JSON and name it as deepspeed`);
  if (zero !== 3 && options.keepGatheredWeights === true)
    missing.add('keepGatheredWeights', 'FSDP keeps gathered weights only when it shards them (ZeRO-3)');
  if (options.shardGroup !== undefined && options.dp !== undefined) {
    config['dp_shard_size'] = options.shardGroup;
    config['dp_replicate_size'] = options.dp / options.shardGroup;
  } else missing.addEach(options, ['shardGroup'], 'dp_shard_size needs the process count beside it');
  missing.addEach(options, ['tp'], "not mapped from axolotl's tensor_parallel_size yet: pass --tp");
  if (options.offload === 'optimizer' || (options.offload === 'optimizer+params' && zero < 3))
    missing.add('offload', `${options.offload} offload: write the DeepSpeed JSON and name it as deepspeed`);
  if (options.offloadDevice === 'nvme') missing.add('offloadDevice', 'FSDP offloads to the CPU only; NVMe needs DeepSpeed');
  if (config['dp_shard_size'] === undefined)
    missing.addEach(options, ['dp'], 'the launcher sets the process count (accelerate launch --num_processes)');
  return { text: stringify(config), unexpressed: missing.list };
}
