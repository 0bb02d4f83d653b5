/**
 * `TrainingArguments` / TRL `SFTConfig`, with the model's `from_pretrained` keywords, `LoraConfig` and
 * `BitsAndBytesConfig`, from an estimate's options: as Python keyword text to paste into a script, or as one flat
 * JSON of TRL's keys (SFTConfig + ModelConfig), which `trl sft --config` and the reader take back.
 */
import type { SetupOptions } from '../mapping.ts';
import { hfOptimizerFor } from '../hf-optimizers.ts';
import { hfModuleNames } from '../lora-modules.ts';
import { flagOf } from '../../memory/flag-table.ts';
import type { QloraFormat } from '../../memory/lora.ts';
import { fourBitSettings, hfSavedModuleNames } from '../adapter-keys.ts';
import { unexpressedList, type WrittenConfig } from './written-config.ts';

/** Which Python call a key belongs to. */
type Call = 'from_pretrained' | 'BitsAndBytesConfig' | 'LoraConfig' | 'SFTConfig';

/** One keyword: its call, the Python keyword, the flat TRL JSON key, and its value. */
interface Keyword {
  readonly call: Call;
  readonly python: string;
  readonly trl: string;
  readonly value: string | number | boolean | readonly string[];
  /** A Python expression to print instead of the value (`torch.bfloat16`). */
  readonly expression?: string;
}

/** The weights' dtype at load and the Trainer's 16-bit flag of each precision the Trainer can run. */
const TRAINER_PRECISIONS = {
  fp32: { dtype: 'float32', half: null },
  'amp-bf16': { dtype: 'float32', half: 'bf16' },
  'amp-fp16': { dtype: 'float32', half: 'fp16' },
  bf16: { dtype: 'bfloat16', half: 'bf16' },
} as const;

/** The keywords for `options`, and what the Trainer cannot be told. */
function keywords(options: SetupOptions): { list: Keyword[]; missing: ReturnType<typeof unexpressedList> } {
  const missing = unexpressedList();
  const list: Keyword[] = [];
  const add = (call: Call, python: string, trl: string, value: Keyword['value'], expression?: string) =>
    list.push({ call, python, trl, value, ...(expression === undefined ? {} : { expression }) });
  const { precision } = options;
  if (precision !== undefined) {
    if (precision in TRAINER_PRECISIONS) {
      const { dtype, half } = TRAINER_PRECISIONS[precision as keyof typeof TRAINER_PRECISIONS];
      add('from_pretrained', 'dtype', 'dtype', dtype, `torch.${dtype}`);
      add('SFTConfig', 'bf16', 'bf16', half === 'bf16');
      add('SFTConfig', 'fp16', 'fp16', half === 'fp16');
    } else missing.add('precision', `${precision}: an fp32 master copy beside 16-bit weights needs DeepSpeed (write its JSON)`);
  }
  if (options.attention !== undefined) add('from_pretrained', 'attn_implementation', 'attn_implementation', options.attention);
  if (options.finetune === 'qlora') {
    // Both keys always: BitsAndBytesConfig defaults to fp4 and TRL's ModelConfig to no nested quantization.
    const { type, double } = fourBitSettings(options.qloraFormat ?? (flagOf('qloraFormat').default as QloraFormat));
    add('BitsAndBytesConfig', 'load_in_4bit', 'load_in_4bit', true);
    add('BitsAndBytesConfig', 'bnb_4bit_quant_type', 'bnb_4bit_quant_type', type);
    add('BitsAndBytesConfig', 'bnb_4bit_use_double_quant', 'use_bnb_nested_quant', double);
  } else missing.addEach(options, ['qloraFormat'], 'only with a 4-bit base (--finetune qlora)');
  if (options.finetune !== undefined) add('LoraConfig', 'use_peft', 'use_peft', options.finetune !== 'full');
  if (options.loraRank !== undefined) add('LoraConfig', 'r', 'lora_r', options.loraRank);
  if (options.loraTargets !== undefined) {
    const names = hfModuleNames(options.loraTargets);
    add('LoraConfig', 'target_modules', 'lora_target_modules', names[0] === 'all-linear' ? 'all-linear' : names);
  }
  if (options.loraDropout !== undefined) add('LoraConfig', 'lora_dropout', 'lora_dropout', options.loraDropout);
  if (options.dora !== undefined) add('LoraConfig', 'use_dora', 'use_dora', options.dora);
  if (options.modulesToSave !== undefined)
    add('LoraConfig', 'modules_to_save', 'lora_modules_to_save', hfSavedModuleNames(options.modulesToSave));
  writeLoss(options, add, missing);
  missing.addEach(
    options,
    ['loraDtype'],
    "get_peft_model's autocast_adapter_dtype sets it: a call argument, not a config key (True, the default, is fp32)",
  );
  missing.addEach(
    options,
    ['qloraKept'],
    "whether the script calls PEFT's prepare_model_for_kbit_training (fp32) or not (16-bit); SFTTrainer does not",
  );
  missing.addEach(options, ['optimizerInBackward'], 'the Trainer steps the optimizer after backward');
  if (options.microBatch !== undefined)
    add('SFTConfig', 'per_device_train_batch_size', 'per_device_train_batch_size', options.microBatch);
  if (options.gradAccum !== undefined)
    add('SFTConfig', 'gradient_accumulation_steps', 'gradient_accumulation_steps', options.gradAccum);
  if (options.seq !== undefined) add('SFTConfig', 'max_length', 'max_length', options.seq);
  if (options.recompute === 'full' || options.recompute === 'none')
    add('SFTConfig', 'gradient_checkpointing', 'gradient_checkpointing', options.recompute === 'full');
  else if (options.recompute !== undefined)
    missing.add('recompute', `${options.recompute}: the Trainer checkpoints whole layers`);
  if (options.compile !== undefined) add('SFTConfig', 'torch_compile', 'torch_compile', options.compile);
  if (options.activationOffload === 'streamed' || options.activationOffload === 'none')
    add('SFTConfig', 'activation_offloading', 'activation_offloading', options.activationOffload === 'streamed');
  else if (options.activationOffload !== undefined)
    missing.add('activationOffload', 'TRL streams every saved activation (activation_offloading), not the checkpoints alone');
  // TRL's SFTConfig packs rows of max_length (packing) or flattens the batch (padding_free); readTrlBatching reads them.
  if (options.batching === 'padding-free') add('SFTConfig', 'padding_free', 'padding_free', true);
  else if (options.batching !== undefined) add('SFTConfig', 'packing', 'packing', options.batching === 'packed');
  missing.addEach(options, ['fp8', 'fp8AllGather'], 'the accelerate config sets it (mixed_precision: fp8, fp8_config)');
  const optim = hfOptimizerFor(options);
  if (optim.name !== null) add('SFTConfig', 'optim', 'optim', optim.name);
  for (const { option, why } of optim.unnamed) missing.add(option, why);
  writeSharding(options, add, missing);
  missing.addEach(
    options,
    ['dp'],
    'the launcher sets the process count (accelerate launch --num_processes, torchrun --nproc_per_node)',
  );
  return { list, missing };
}

/** The loss as TRL's `loss_type` (`nll`, `chunked_nll`) or the Trainer's `use_liger_kernel`: the reader's rules backwards. */
function writeLoss(
  options: SetupOptions,
  add: (call: Call, python: string, trl: string, value: Keyword['value']) => void,
  missing: ReturnType<typeof unexpressedList>,
): void {
  const { loss } = options;
  if (loss === 'fused-linear') add('SFTConfig', 'use_liger_kernel', 'use_liger_kernel', true);
  else if (loss === 'cut') add('SFTConfig', 'loss_type', 'loss_type', 'chunked_nll');
  else if (loss === 'eager') add('SFTConfig', 'loss_type', 'loss_type', 'nll');
  else if (loss !== undefined) missing.add('loss', `${loss}: neither loss_type nor use_liger_kernel runs it`);
}

/**
 * ZeRO-3 as the Trainer's FSDP (keeping the gathered weights is SHARD_GRAD_OP, which does not reshard after forward),
 * offload with it; ZeRO-1, ZeRO-2 (weights whole all step) and optimizer-only offload need DeepSpeed.
 */
function writeSharding(
  options: SetupOptions,
  add: (call: Call, python: string, trl: string, value: Keyword['value']) => void,
  missing: ReturnType<typeof unexpressedList>,
): void {
  const words: string[] = [];
  if (options.zero === 3) words.push(options.keepGatheredWeights === true ? 'shard_grad_op' : 'full_shard');
  else if (options.zero === 1 || options.zero === 2)
    missing.add('zero', `ZeRO-${options.zero} has no FSDP form: write the DeepSpeed JSON and pass it as deepspeed`);
  if (options.zero !== 3 && options.keepGatheredWeights === true)
    missing.add('keepGatheredWeights', 'FSDP keeps gathered weights only when it shards them (ZeRO-3)');
  missing.addEach(options, ['shardGroup', 'tp'], 'the launcher sets the device mesh (accelerate parallelism_config)');
  if (options.offload === 'optimizer+params' && words.length > 0) words.push('offload');
  else if (options.offload !== undefined && options.offload !== 'none')
    missing.add('offload', `${options.offload} offload: write the DeepSpeed JSON and pass it as deepspeed`);
  if (words.length > 0) add('SFTConfig', 'fsdp', 'fsdp', [...words, 'auto_wrap'].join(' '));
  if (options.offloadDevice === 'nvme') missing.add('offloadDevice', 'FSDP offloads to the CPU only; NVMe needs DeepSpeed');
}

const python = (keyword: Keyword): string =>
  keyword.expression ?? (typeof keyword.value === 'boolean' ? (keyword.value ? 'True' : 'False') : JSON.stringify(keyword.value));

/** Write the keywords as Python: one call per line, only the calls that have a keyword. */
export function writeTrainingArgumentsPython(options: SetupOptions): WrittenConfig {
  const { list, missing } = keywords(options);
  const of = (call: Call) => list.filter((keyword) => keyword.call === call && keyword.python !== 'use_peft');
  const args = (call: Call) => of(call).map((keyword) => `${keyword.python}=${python(keyword)}`);
  const lines: string[] = [];
  const quantized = of('BitsAndBytesConfig').length > 0;
  if (quantized) lines.push(`quantization_config = BitsAndBytesConfig(${args('BitsAndBytesConfig').join(', ')})`);
  const load = [...args('from_pretrained'), ...(quantized ? ['quantization_config=quantization_config'] : [])];
  lines.push(`model = AutoModelForCausalLM.from_pretrained(${['MODEL', ...load].join(', ')})`);
  const peft = list.find((keyword) => keyword.python === 'use_peft');
  if (peft?.value === true) lines.push(`peft_config = LoraConfig(${args('LoraConfig').join(', ')})`);
  lines.push(`args = SFTConfig(${args('SFTConfig').join(', ')})`);
  return { text: `${lines.join('\n')}\n`, unexpressed: missing.list };
}

/** Write the keywords as one flat JSON of TRL's keys (`trl sft --config`, and `readTrainingArguments`). */
export function writeTrainingArgumentsJson(options: SetupOptions): WrittenConfig {
  const { list, missing } = keywords(options);
  const json = Object.fromEntries(list.map((keyword) => [keyword.trl, keyword.value]));
  return { text: `${JSON.stringify(json, null, 2)}\n`, unexpressed: missing.list };
}
