/** A DeepSpeed JSON from an estimate's options: ZeRO stage, offload, precision, batch and the optimizer. */
import type { SetupOptions } from '../mapping.ts';
import { TRAINER_SIDE_OPTIONS, unexpressedList, type WrittenConfig } from './written-config.ts';

/** Write the DeepSpeed JSON for `options` (the keys `readDeepSpeedJson` reads back). */
export function writeDeepSpeedJson(options: SetupOptions): WrittenConfig {
  const missing = unexpressedList();
  const config: Record<string, unknown> = {};
  // "auto" takes the Trainer's per_device_train_batch_size (transformers integrations/deepspeed.py), and gives every
  // written file a key that tells it from another tool's.
  config['train_micro_batch_size_per_gpu'] = options.microBatch ?? 'auto';
  if (options.gradAccum !== undefined) config['gradient_accumulation_steps'] = options.gradAccum;
  const precision = options.precision;
  if (precision === 'mixed-bf16') config['bf16'] = { enabled: true };
  else if (precision === 'mixed-fp16') config['fp16'] = { enabled: true };
  else if (precision === 'fp32') {
    config['bf16'] = { enabled: false };
    config['fp16'] = { enabled: false };
  } else if (precision !== undefined)
    missing.add('precision', `${precision}: DeepSpeed's 16-bit modes keep an fp32 master copy (mixed-bf16, mixed-fp16)`);
  const zero: Record<string, unknown> = {};
  if (options.zero !== undefined) zero['stage'] = options.zero;
  const device = options.offloadDevice ?? 'cpu';
  if (options.offload === 'optimizer' || options.offload === 'optimizer+params') zero['offload_optimizer'] = { device };
  if (options.offload === 'optimizer+params') zero['offload_param'] = { device };
  if (Object.keys(zero).length > 0) config['zero_optimization'] = zero;
  if (options.optimizer === 'adamw') {
    // FusedAdam unless torch_adam (deepspeed/runtime/engine.py); torch.optim.AdamW is foreach on CUDA.
    if (options.optimizerImpl === 'foreach') config['optimizer'] = { type: 'AdamW', params: { torch_adam: true } };
    else config['optimizer'] = { type: 'AdamW' };
    if (options.optimizerImpl === 'for-loop') missing.add('optimizerImpl', 'DeepSpeed builds FusedAdam or torch.optim.AdamW');
  } else if (options.optimizer === 'lion') config['optimizer'] = { type: 'Lion' };
  else if (options.optimizer !== undefined) missing.add('optimizer', `${options.optimizer}: give it to the trainer (optim)`);
  missing.addEach(
    options,
    ['seq', 'recompute', 'attention', 'finetune', 'loraRank', 'loraTargets', ...TRAINER_SIDE_OPTIONS],
    "not a DeepSpeed key: the trainer's arguments set it",
  );
  missing.addEach(options, ['fp8', 'fp8AllGather'], 'the accelerate config sets it (mixed_precision: fp8, fp8_config)');
  if (options.keepGatheredWeights === true)
    missing.add(
      'keepGatheredWeights',
      "DeepSpeed ZeRO-3 re-gathers in backward; FSDP2's reshard_after_forward=False keeps the weights",
    );
  if (options.compile !== undefined) missing.add('compile', "not a DeepSpeed key: the trainer's torch_compile sets it");
  if (options.activationOffload !== undefined && options.activationOffload !== 'none')
    missing.add('activationOffload', "DeepSpeed's JSON has no key for it: the training script offloads activations");
  missing.addEach(options, ['shardGroup', 'tp'], "DeepSpeed's JSON has no HSDP or tensor-parallel key (ZeRO++ hpZ is not HSDP)");
  missing.addEach(options, ['dp'], 'the launcher sets the process count (deepspeed --num_gpus, accelerate num_processes)');
  return { text: `${JSON.stringify(config, null, 2)}\n`, unexpressed: missing.list };
}
