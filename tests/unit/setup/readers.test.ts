/** The readers' rules, tool by tool, on small files written for each rule (the real files are in real-files.test.ts). */
import { describe, expect, test } from 'vitest';
import { readTrainingConfig, type FileReading } from '../../../src/setup/index.ts';

/** Read `text` as `file`; the test fails if it is refused. */
function read(text: string, file = 'f'): FileReading {
  const outcome = readTrainingConfig(file, text);
  if (!outcome.ok) throw new Error(`${outcome.error.key}: ${outcome.error.message}`);
  return outcome.reading;
}

const notModelledKeys = (reading: FileReading) =>
  reading.lines.filter((line) => line.effect.kind === 'not-modelled').map((line) => line.key);

describe('TrainingArguments / SFTConfig', () => {
  test('a command line after `python script.py`: lists, --key=value and bare flags, TRL keys make it TRL', () => {
    const reading = read(
      `accelerate launch --num_processes 8 sft.py \\
         --per_device_train_batch_size=4 --gradient_accumulation_steps 2 --gradient_checkpointing \\
         --use_peft --lora_r 32 --lora_target_modules q_proj v_proj --max_length 4096 --optim adamw_torch_fused`,
    );
    expect(reading.stack).toBe('trl');
    expect(reading.options).toEqual({
      microBatch: 4,
      gradAccum: 2,
      recompute: 'full',
      optimizer: 'adamw',
      optimizerImpl: 'fused',
      seq: 4096,
      finetune: 'lora',
      loraRank: 32,
      loraTargets: 'q,v',
    });
  });

  test('bf16 over fp32 weights is autocast; over bf16 weights pure bf16; without a dtype the stack decides', () => {
    expect(read('{"bf16": true, "dtype": "float32"}').options.precision).toBe('amp-bf16');
    expect(read('{"bf16": true, "torch_dtype": "bfloat16"}').options.precision).toBe('bf16');
    const alone = read('{"bf16": true, "output_dir": "out"}');
    expect(alone.options.precision).toBeUndefined();
    expect(alone.lines.map((line) => line.effect.kind)).toEqual(['left-to-stack']);
    expect(alone.half).toBe('bf16');
    expect(alone.stack).toBe('hf-trainer');
  });

  test('bf16 and fp16 both true is refused, as TrainingArguments refuses it', () => {
    const outcome = readTrainingConfig('args.json', '{"bf16": true, "fp16": true}');
    expect(outcome.ok ? '' : outcome.error.key).toBe('fp16');
  });

  test('TRL activation_offloading streams the saved activations; torch_compile is the stated --compile', () => {
    const reading = read('{"per_device_train_batch_size": 2, "activation_offloading": true, "torch_compile": true}');
    expect(reading.options).toEqual({ microBatch: 2, activationOffload: 'streamed', compile: true });
    expect(notModelledKeys(reading)).toEqual([]);
  });

  test('paged and unknown optimizers, packing and Liger are named, not dropped', () => {
    const reading = read(
      '{"optim": "paged_adamw_8bit", "packing": true, "use_liger_kernel": true, "lr_scheduler_type": "cosine"}',
    );
    expect(reading.options).toEqual({ optimizer: 'adamw-8bit' });
    expect(notModelledKeys(reading)).toEqual(['optim', 'packing', 'use_liger_kernel']);
    expect(read('{"optim": "adafactor"}').lines[0]?.effect).toEqual({
      kind: 'not-modelled',
      what: 'optimizer adafactor: the engine counts SGD, AdamW and 8-bit AdamW',
    });
  });

  test('fsdp "full_shard auto_wrap offload" is ZeRO-3 with parameters and optimizer on the host', () => {
    expect(read('{"fsdp": "full_shard auto_wrap offload", "per_device_train_batch_size": 1}').options).toEqual({
      microBatch: 1,
      zero: 3,
      offload: 'optimizer+params',
      offloadDevice: 'cpu',
    });
  });
});

describe('LLaMA-Factory', () => {
  test('pure_bf16 keeps the trainable weights in bf16; a full fine-tune without it is autocast over fp32', () => {
    expect(read('finetuning_type: full\nbf16: true\npure_bf16: true\n').options.precision).toBe('bf16');
    expect(read('finetuning_type: full\nbf16: true\n').options.precision).toBe('amp-bf16');
  });

  test('quantization_bit 4 is QLoRA; 8 bits, DPO and Unsloth checkpointing are named', () => {
    expect(read('finetuning_type: lora\nquantization_bit: 4\n').options.finetune).toBe('qlora');
    const reading = read('stage: dpo\nfinetuning_type: lora\nquantization_bit: 8\nuse_unsloth_gc: true\n');
    expect(notModelledKeys(reading)).toEqual(['quantization_bit', 'stage', 'use_unsloth_gc']);
  });

  test('flash_attn disabled is eager attention; gradient checkpointing is switched off explicitly', () => {
    expect(read('finetuning_type: full\nflash_attn: disabled\ndisable_gradient_checkpointing: true\n').options).toEqual({
      finetune: 'full',
      attention: 'eager',
      recompute: 'none',
    });
  });
});

describe('accelerate', () => {
  test('DeepSpeed through accelerate: its plugin keys, with parameters offloaded to NVMe', () => {
    const reading = read(
      'distributed_type: DEEPSPEED\nnum_processes: 8\ndeepspeed_config:\n  zero_stage: 3\n  offload_param_device: nvme\n  offload_optimizer_device: nvme\n  gradient_accumulation_steps: 4\n',
    );
    expect(reading.stack).toBe('deepspeed');
    expect(reading.options).toEqual({ dp: 8, zero: 3, gradAccum: 4, offload: 'optimizer+params', offloadDevice: 'nvme' });
  });

  test('FSDP version 2 with reshard_after_forward false is ZeRO-3 keeping the gathered weights', () => {
    const reading = read('distributed_type: FSDP\nfsdp_config:\n  fsdp_version: 2\n  fsdp_reshard_after_forward: false\n');
    expect(reading.options).toEqual({ zero: 3, keepGatheredWeights: true });
  });

  test('FSDP version 2 without reshard_after_forward is ZeRO-3, as accelerate defaults it', () => {
    const reading = read('distributed_type: FSDP\nfsdp_config:\n  fsdp_version: 2\n  fsdp_offload_params: true\n');
    expect(reading.stack).toBe('fsdp2');
    expect(reading.options).toEqual({ zero: 3, offload: 'optimizer+params', offloadDevice: 'cpu' });
  });

  test('FSDP version 1 SHARD_GRAD_OP is ZeRO-2', () => {
    expect(read('distributed_type: FSDP\nfsdp_config:\n  fsdp_sharding_strategy: SHARD_GRAD_OP\n').options.zero).toBe(2);
  });
});

describe('axolotl', () => {
  test('gradient_checkpointing: offload recomputes and offloads the checkpoints to the host', () => {
    const reading = read('base_model: x\ngradient_checkpointing: offload\n');
    expect(reading.options.recompute).toBe('full');
    expect(reading.options.activationOffload).toBe('checkpoints');
    expect(notModelledKeys(reading)).toEqual([]);
  });

  test('gradient_checkpointing: offload_disk recomputes and names the checkpoints on disk as not modelled', () => {
    const reading = read('base_model: x\ngradient_checkpointing: offload_disk\n');
    expect(reading.options.recompute).toBe('full');
    expect(reading.options.activationOffload).toBeUndefined();
    expect(notModelledKeys(reading)).toEqual(['gradient_checkpointing']);
  });

  test('lora_target_modules as a list, without lora_target_linear', () => {
    expect(read('base_model: x\nadapter: lora\nlora_r: 8\nlora_target_modules:\n  - q_proj\n  - v_proj\n').options).toEqual({
      finetune: 'lora',
      loraRank: 8,
      loraTargets: 'q,v',
    });
  });
});

describe('torchtune', () => {
  test('a full fine-tune with a paged 8-bit AdamW from bitsandbytes', () => {
    const reading = read(
      'model:\n  _component_: torchtune.models.llama3_1.llama3_1_8b\noptimizer:\n  _component_: bitsandbytes.optim.PagedAdamW8bit\n  lr: 1e-5\ndtype: bf16\n',
    );
    expect(reading.options).toEqual({ finetune: 'full', optimizer: 'adamw-8bit', precision: 'bf16' });
    expect(notModelledKeys(reading)).toEqual(['optimizer._component_']);
  });

  test('torch.optim.AdamW without fused is foreach, PyTorch’s CUDA default', () => {
    expect(read('optimizer:\n  _component_: torch.optim.AdamW\n').options).toEqual({
      optimizer: 'adamw',
      optimizerImpl: 'foreach',
    });
  });

  test('activation offloading streams the saved activations; FSDP2 not resharding keeps the gathered weights', () => {
    const reading = read(
      'optimizer:\n  _component_: torch.optim.AdamW\n  fused: True\nenable_activation_checkpointing: True\nenable_activation_offloading: True\nfsdp_reshard_after_forward: False\n',
    );
    expect(reading.options).toEqual({
      optimizer: 'adamw',
      optimizerImpl: 'fused',
      recompute: 'full',
      activationOffload: 'streamed',
      zero: 3,
      keepGatheredWeights: true,
    });
    expect(notModelledKeys(reading)).toEqual([]);
  });
});

describe('Unsloth', () => {
  test('from_pretrained, get_peft_model and TrainingArguments keywords: QLoRA with offloaded checkpointing named', () => {
    const reading = read(
      `from_pretrained:
  model_name: unsloth/Meta-Llama-3.1-8B-bnb-4bit
  max_seq_length: 2048
  load_in_4bit: true
get_peft_model:
  r: 16
  target_modules: [q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj]
  lora_dropout: 0
  use_gradient_checkpointing: unsloth
training_arguments:
  per_device_train_batch_size: 2
  gradient_accumulation_steps: 4
  optim: adamw_8bit
  bf16: true
`,
    );
    expect(reading.stack).toBe('unsloth');
    expect(reading.options).toEqual({
      seq: 2048,
      finetune: 'qlora',
      loraRank: 16,
      loraTargets: 'all-linear',
      recompute: 'full',
      activationOffload: 'checkpoints',
      microBatch: 2,
      gradAccum: 4,
      optimizer: 'adamw-8bit',
    });
    expect(notModelledKeys(reading)).toEqual([]);
    expect(reading.unknown).toEqual([]);
  });
});
