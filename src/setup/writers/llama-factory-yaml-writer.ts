/**
 * A LLaMA-Factory training YAML from an estimate's options: the keys that change memory only (the reader adds its
 * model, dataset and template). Sharding and offload go in a DeepSpeed JSON, which the YAML names.
 */
import { stringify } from 'yaml';
import type { Precision } from '../../memory/precision.ts';
import { fourBitSettings, hfSavedModuleNames } from '../adapter-keys.ts';
import { hfOptimizerFor } from '../hf-optimizers.ts';
import type { SetupOptions } from '../mapping.ts';
import { unexpressedList, type WrittenConfig } from './written-config.ts';

/** Where the YAML points for its DeepSpeed JSON: the file `writeDeepSpeedJson` writes, saved beside it. */
export const LLAMA_FACTORY_DEEPSPEED_PATH = 'ds_config.json';

/**
 * The 16-bit keys of each precision LLaMA-Factory runs (`readPrecision` in llama-factory-yaml.ts read backwards): a
 * full fine-tune is autocast over upcast fp32 weights unless `pure_bf16`; LoRA keeps its 16-bit base.
 */
function precisionKeys(precision: Precision, adapters: boolean): Record<string, boolean> | null {
  if (precision === 'fp32') return { bf16: false };
  if (precision === 'bf16') return adapters ? { bf16: true } : { bf16: true, pure_bf16: true };
  if (precision === 'amp-fp16') return { fp16: true };
  if (precision === 'amp-bf16' && !adapters) return { bf16: true };
  return null;
}

/** Write the LLaMA-Factory YAML for `options` (the keys `readLlamaFactoryYaml` reads back). */
export function writeLlamaFactoryYaml(options: SetupOptions): WrittenConfig {
  const missing = unexpressedList();
  const config: Record<string, unknown> = {};
  const adapters = options.finetune === 'lora' || options.finetune === 'qlora';
  const sharded = (options.zero ?? 0) > 0 || (options.offload ?? 'none') !== 'none';
  if (options.finetune !== undefined) config['finetuning_type'] = adapters ? 'lora' : 'full';
  if (options.finetune === 'qlora') config['quantization_bit'] = 4;
  if (options.loraRank !== undefined) config['lora_rank'] = options.loraRank;
  if (options.loraTargets !== undefined)
    config['lora_target'] =
      options.loraTargets === 'all-linear'
        ? 'all'
        : (options.loraTargets === 'attention' ? 'q,k,v,o' : options.loraTargets)
            .split(',')
            .map((target) => `${target}_proj`)
            .join(',');
  if (options.finetune === 'qlora' && options.qloraFormat !== undefined) {
    const { type, double } = fourBitSettings(options.qloraFormat);
    config['quantization_type'] = type;
    config['double_quantization'] = double;
  } else missing.addEach(options, ['qloraFormat'], 'only with a 4-bit base (quantization_bit: 4)');
  if (adapters) {
    if (options.loraDropout !== undefined) config['lora_dropout'] = options.loraDropout;
    if (options.dora !== undefined) config['use_dora'] = options.dora;
    if (options.modulesToSave !== undefined) config['additional_target'] = hfSavedModuleNames(options.modulesToSave).join(',');
  } else missing.addEach(options, ['loraDropout', 'dora', 'modulesToSave'], 'only with finetuning_type: lora');
  if (options.loss === 'fused-linear') config['enable_liger_kernel'] = true;
  else missing.addEach(options, ['loss'], "LLaMA-Factory runs the Trainer's loss unless enable_liger_kernel");
  // pure_bf16 keeps LoRA's adapters in bf16 over a bf16 base; without it they are upcast to fp32 (adapter.py:281).
  if (adapters && options.loraDtype === 'bf16' && options.precision === 'bf16' && !sharded) config['pure_bf16'] = true;
  else
    missing.addEach(
      options,
      ['loraDtype'],
      'LLaMA-Factory decides it: adapters fp32 unless pure_bf16 (bf16 adapters over a bf16 base)',
    );
  missing.addEach(options, ['qloraKept'], "LLaMA-Factory keeps a 4-bit base's other parameters in 16 bits");
  missing.addEach(options, ['optimizerInBackward'], 'the Trainer steps the optimizer after backward');
  if (options.microBatch !== undefined) config['per_device_train_batch_size'] = options.microBatch;
  if (options.gradAccum !== undefined) config['gradient_accumulation_steps'] = options.gradAccum;
  if (options.seq !== undefined) config['cutoff_len'] = options.seq;
  if (options.precision !== undefined) {
    const keys = precisionKeys(options.precision, adapters);
    if (keys !== null && !sharded) Object.assign(config, keys);
    else if (!sharded) missing.add('precision', `${options.precision} is not how LLaMA-Factory trains this`);
  }
  if (options.recompute === 'full' || options.recompute === 'none')
    config['disable_gradient_checkpointing'] = options.recompute === 'none';
  else if (options.recompute !== undefined)
    missing.add('recompute', `${options.recompute}: LLaMA-Factory checkpoints whole layers`);
  if (options.attention !== undefined) config['flash_attn'] = options.attention === 'eager' ? 'disabled' : 'sdpa';
  const optim = hfOptimizerFor(options);
  if (optim.name !== null) config['optim'] = optim.name;
  for (const { option, why } of optim.unnamed) missing.add(option, why);
  if (sharded) {
    config['deepspeed'] = LLAMA_FACTORY_DEEPSPEED_PATH;
    missing.addEach(
      options,
      ['zero', 'offload', 'offloadDevice', 'precision'],
      `in the DeepSpeed JSON it names (${LLAMA_FACTORY_DEEPSPEED_PATH})`,
    );
  }
  if (options.keepGatheredWeights === true)
    missing.add('keepGatheredWeights', "FSDP2's reshard_after_forward=False: set it in the accelerate config");
  if (options.compile !== undefined) missing.add('compile', 'LLaMA-Factory has no key for it');
  missing.addEach(options, ['fp8', 'fp8AllGather'], 'the accelerate config sets it (mixed_precision: fp8, fp8_config)');
  if (options.batching === 'padding-free')
    missing.add('batching', 'LLaMA-Factory pads or packs (packing); it has no padding-free key');
  else if (options.batching !== undefined) config['packing'] = options.batching === 'packed';
  if (options.activationOffload !== undefined && options.activationOffload !== 'none')
    missing.add('activationOffload', 'LLaMA-Factory has no key for it');
  missing.addEach(options, ['shardGroup', 'tp'], 'the accelerate config it runs under sets the device mesh (parallelism_config)');
  missing.addEach(options, ['dp'], 'the launcher sets the process count (FORCE_TORCHRUN=1 NPROC_PER_NODE=N)');
  return { text: stringify(config), unexpressed: missing.list };
}
