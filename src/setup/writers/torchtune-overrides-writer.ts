/**
 * torchtune command-line overrides (`tune run RECIPE --config CONFIG key=value …`) from an estimate's options. The
 * recipe and config name the model and whether it is a full, LoRA or QLoRA run, so those stay the reader's choice.
 */
import type { SetupOptions } from '../mapping.ts';
import { TORCHTUNE_LOSSES, TORCHTUNE_OPTIMIZERS } from '../torchtune-yaml.ts';
import { unexpressedList, type WrittenConfig } from './written-config.ts';

/** torchtune's attention modules for the engine's targets (torchtune/models/llama3_1/_model_builders.py). */
const ATTENTION_MODULES: Readonly<Record<string, string>> = { q: 'q_proj', k: 'k_proj', v: 'v_proj', o: 'output_proj' };

/** The first component `components` maps to `value`: the reader's table backwards (torch.optim.AdamW before Adam). */
function componentOf<T>(components: Readonly<Record<string, T>>, value: T): string | undefined {
  return Object.entries(components).find(([, mapped]) => mapped === value)?.[0];
}

/** Write the overrides for `options`, one `key=value` per word (`readTorchtuneOverrides` reads them back). */
export function writeTorchtuneOverrides(options: SetupOptions): WrittenConfig {
  const missing = unexpressedList();
  const words: string[] = [];
  const set = (key: string, value: string | number | boolean) =>
    words.push(`${key}=${typeof value === 'boolean' ? (value ? 'True' : 'False') : value}`);
  if (options.microBatch !== undefined) set('batch_size', options.microBatch);
  if (options.gradAccum !== undefined) set('gradient_accumulation_steps', options.gradAccum);
  if (options.seq !== undefined) set('tokenizer.max_seq_len', options.seq);
  if (options.precision === 'bf16' || options.precision === 'fp32') set('dtype', options.precision);
  else if (options.precision !== undefined)
    missing.add('precision', `${options.precision}: torchtune trains in bf16 or fp32 throughout`);
  if (options.recompute === 'full' || options.recompute === 'none')
    set('enable_activation_checkpointing', options.recompute === 'full');
  else if (options.recompute !== undefined)
    missing.add('recompute', `${options.recompute}: torchtune checkpoints whole layers here`);
  const optimizer = options.optimizer === undefined ? undefined : componentOf(TORCHTUNE_OPTIMIZERS, options.optimizer);
  if (optimizer !== undefined) set('optimizer._component_', optimizer);
  else if (options.optimizer !== undefined) missing.add('optimizer', `${options.optimizer}: pick its component by hand`);
  if (options.compile !== undefined) set('compile', options.compile);
  writeFp8(options, set, missing);
  if (options.batching === 'padding-free')
    missing.add('batching', 'torchtune pads or packs (dataset.packed); it has no padding-free key');
  else if (options.batching !== undefined) set('dataset.packed', options.batching === 'packed');
  if (options.activationOffload === 'streamed' || options.activationOffload === 'none')
    set('enable_activation_offloading', options.activationOffload === 'streamed');
  else if (options.activationOffload !== undefined)
    missing.add(
      'activationOffload',
      'torchtune streams every saved activation (enable_activation_offloading), not the checkpoints alone',
    );
  if (options.optimizer === 'adamw' && (options.optimizerImpl === 'fused' || options.optimizerImpl === 'foreach'))
    set('optimizer.fused', options.optimizerImpl === 'fused');
  else if (options.optimizerImpl !== undefined)
    missing.add('optimizerImpl', 'only torch.optim.AdamW takes fused (True) or foreach (False) here');
  if (options.optimizerInBackward !== undefined) set('optimizer_in_bwd', options.optimizerInBackward);
  const loss = options.loss === undefined ? undefined : componentOf(TORCHTUNE_LOSSES, options.loss);
  if (loss !== undefined) set('loss._component_', loss);
  else if (options.loss !== undefined) missing.add('loss', `${options.loss}: no torchtune loss component computes it`);
  if (options.loraDropout !== undefined) set('model.lora_dropout', options.loraDropout);
  if (options.dora !== undefined) set('model.use_dora', options.dora);
  missing.addEach(options, ['loraDtype'], 'dtype sets every parameter, adapters included');
  missing.addEach(options, ['modulesToSave'], 'torchtune trains no module in full beside the adapters');
  missing.addEach(options, ['qloraFormat', 'qloraKept'], "the qlora_ model builder fixes torchao's NF4 base");
  if (options.loraRank !== undefined) set('model.lora_rank', options.loraRank);
  if (options.loraTargets !== undefined) {
    const targets =
      options.loraTargets === 'all-linear'
        ? ['q', 'k', 'v', 'o', 'gate', 'up', 'down']
        : options.loraTargets === 'attention'
          ? ['q', 'k', 'v', 'o']
          : options.loraTargets.split(',');
    const attention = targets.flatMap((target) => ATTENTION_MODULES[target] ?? []);
    const mlp = ['gate', 'up', 'down'].filter((target) => targets.includes(target));
    if (mlp.length !== 0 && mlp.length !== 3) missing.add('loraTargets', 'torchtune adapts the whole MLP or none of it');
    set('model.lora_attn_modules', `[${attention.join(',')}]`);
    set('model.apply_lora_to_mlp', mlp.length === 3);
  }
  if (options.offload === 'optimizer+params' && options.offloadDevice !== 'nvme') set('fsdp_cpu_offload', true);
  else if (options.offload !== undefined && options.offload !== 'none')
    missing.add('offload', `${options.offload}: torchtune offloads parameters with FSDP to the CPU`);
  if (options.offloadDevice === 'nvme') missing.add('offloadDevice', 'torchtune offloads to the CPU only');
  if (options.zero === 3) set('fsdp_reshard_after_forward', options.keepGatheredWeights !== true);
  else if (options.zero !== undefined && options.zero !== 0)
    missing.add(
      'zero',
      `ZeRO-${options.zero} has no FSDP2 form (fsdp_reshard_after_forward=False is ZeRO-3 keeping the gathered weights)`,
    );
  missing.addEach(
    options,
    ['finetune'],
    'the recipe and config choose it (full_finetune_*, lora_finetune_* with a qlora_ model)',
  );
  missing.addEach(options, ['attention'], 'torchtune runs SDPA');
  if (options.shardGroup !== undefined && options.dp !== undefined) {
    // The distributed recipes' HSDP mesh; with it the file holds the data-parallel count too.
    set('data_parallel_shard_dim', options.shardGroup);
    set('data_parallel_replicate_dim', options.dp / options.shardGroup);
  } else {
    missing.addEach(options, ['shardGroup'], 'data_parallel_shard_dim needs the process count beside it');
    missing.addEach(options, ['dp'], 'the launcher sets the process count (tune run --nproc_per_node N)');
  }
  missing.addEach(options, ['tp'], "tensor_parallel_dim needs the model's tensor_parallel_plan: pass --tp");
  return { text: `${words.join(' ')}\n`, unexpressed: missing.list };
}

/**
 * `enable_fp8_training` and `fp8_recipe_name` (the keys `readTorchtuneFp8` reads back): a named recipe leaves the
 * float8 all-gather off, no name turns it on (quantization.py:265-268), so tensorwise with it on is written unnamed.
 */
function writeFp8(
  options: SetupOptions,
  set: (key: string, value: string | number | boolean) => void,
  missing: ReturnType<typeof unexpressedList>,
): void {
  const { fp8, fp8AllGather } = options;
  if (fp8 === undefined) {
    if (fp8AllGather !== undefined) missing.add('fp8AllGather', 'only with a float8 recipe');
    return;
  }
  if (fp8 === 'te') {
    missing.add('fp8', 'torchtune trains in float8 through torchao, not Transformer Engine');
    return;
  }
  set('enable_fp8_training', fp8 !== 'none');
  if (fp8 === 'torchao-tensorwise' && fp8AllGather === true) return;
  if (fp8 !== 'none') set('fp8_recipe_name', fp8 === 'torchao-rowwise' ? 'rowwise' : 'tensorwise');
  if (fp8AllGather !== undefined)
    missing.add('fp8AllGather', 'torchtune sets it by the recipe: on only with its unnamed default (tensorwise)');
}
