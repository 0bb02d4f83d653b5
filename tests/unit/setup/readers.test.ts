/** The readers' rules, tool by tool, on small files written for each rule (the real files are in real-files.test.ts). */
import { describe, expect, test } from 'vitest';
import { readTrainingConfig, setupErrorLine, type FileReading } from '../../../src/setup/index.ts';

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

  test('paged optimizers, Liger and packing map to engine options; an unknown optimizer is named, not dropped', () => {
    const reading = read(
      '{"optim": "paged_adamw_8bit", "packing": true, "use_liger_kernel": true, "lr_scheduler_type": "cosine"}',
    );
    expect(reading.options).toEqual({ optimizer: 'paged-adamw-8bit', loss: 'fused-linear', batching: 'packed' });
    expect(notModelledKeys(reading)).toEqual([]);
    expect(read('{"optim": "galore_adamw"}').lines[0]?.effect).toMatchObject({
      kind: 'not-modelled',
      what: expect.stringMatching(/^optimizer galore_adamw: the engine counts adamw_torch, .*adafactor, sgd$/),
    });
  });

  // transformers 5.x training_args.py OptimizerNames, as trainer.py get_optimizer_cls_and_kwargs builds each.
  test.each([
    ['adamw_torch_fused', 'adamw'],
    ['adamw_bnb_8bit', 'adamw-8bit'],
    ['adamw_8bit', 'adamw-8bit'],
    ['paged_adamw_32bit', 'paged-adamw'],
    ['paged_adamw_8bit', 'paged-adamw-8bit'],
    ['adamw_torch_8bit', 'adamw-8bit-torchao'],
    ['adamw_torch_4bit', 'adamw-4bit-torchao'],
    ['lion_32bit', 'lion'],
    ['adafactor', 'adafactor'],
  ])('optim %s is --optimizer %s', (name, optimizer) => {
    expect(read(`{"optim": "${name}"}`).options.optimizer).toBe(optimizer);
  });

  test('TRL loss_type: chunked_nll keeps only the head input (cut), nll is the eager loss, Liger wins over both', () => {
    expect(read('{"loss_type": "chunked_nll", "max_length": 1024}').options.loss).toBe('cut');
    expect(read('{"loss_type": "nll", "max_length": 1024}').options.loss).toBe('eager');
    expect(notModelledKeys(read('{"loss_type": "dft", "max_length": 1024}'))).toEqual(['loss_type']);
  });

  test('TRL ModelConfig LoRA keys: dropout, DoRA and modules_to_save become engine options', () => {
    const reading = read(
      '{"use_peft": true, "lora_dropout": 0.1, "use_dora": true, "lora_modules_to_save": ["lm_head", "embed_tokens"], "max_length": 512}',
    );
    expect(reading.options).toMatchObject({ finetune: 'lora', loraDropout: 0.1, dora: true, modulesToSave: 'embed,head' });
    expect(notModelledKeys(reading)).toEqual([]);
    const other = read('{"use_peft": true, "lora_modules_to_save": ["score"], "max_length": 512}');
    expect(other.options.modulesToSave).toBeUndefined();
    expect(notModelledKeys(other)).toEqual(['lora_modules_to_save']);
  });

  test('a bad LoRA dropout names the key', () => {
    const outcome = readTrainingConfig('f', '{"use_peft": true, "lora_dropout": 1.5, "max_length": 512}');
    expect(outcome.ok ? '' : `${outcome.error.key}: ${outcome.error.message}`).toBe(
      'lora_dropout: expected a dropout probability in [0, 1), got 1.5',
    );
  });

  test("TRL's 4-bit keys: NF4 without nested quantization by default (model_config.py:160-167), storage changes nothing", () => {
    const plain = read('{"load_in_4bit": true, "max_length": 512}');
    expect(plain.options).toMatchObject({ finetune: 'qlora', qloraFormat: 'nf4' });
    const nested = read(
      '{"load_in_4bit": true, "bnb_4bit_quant_type": "fp4", "use_bnb_nested_quant": true, "bnb_4bit_quant_storage": "bfloat16", "max_length": 512}',
    );
    expect(nested.options.qloraFormat).toBe('fp4-dq');
    expect(nested.lines.find((line) => line.key === 'bnb_4bit_quant_storage')?.effect.kind).toBe('no-effect');
    expect(nested.unknown).toEqual([]);
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

  test('pure_bf16 keeps LoRA adapters in bf16 (adapter.py:281 autocast_adapter_dtype=False)', () => {
    expect(read('finetuning_type: lora\nbf16: true\npure_bf16: true\n').options).toEqual({
      finetune: 'lora',
      precision: 'bf16',
      loraDtype: 'bf16',
    });
    expect(read('finetuning_type: lora\nbf16: true\n').options.loraDtype).toBeUndefined();
  });

  test('QLoRA format: nf4 with double quantization unless the YAML says otherwise (model_args.py:287-293)', () => {
    expect(read('finetuning_type: lora\nquantization_bit: 4\n').options.qloraFormat).toBe('nf4-dq');
    expect(read('finetuning_type: lora\nquantization_bit: 4\nquantization_type: fp4\n').options.qloraFormat).toBe('fp4-dq');
    expect(read('finetuning_type: lora\nquantization_bit: 4\ndouble_quantization: false\n').options.qloraFormat).toBe('nf4');
  });

  test('use_dora, additional_target and enable_liger_kernel map to engine options', () => {
    const reading = read(
      'finetuning_type: lora\nlora_dropout: 0.1\nuse_dora: true\nadditional_target: embed_tokens,lm_head\nenable_liger_kernel: true\n',
    );
    expect(reading.options).toEqual({
      finetune: 'lora',
      loraDropout: 0.1,
      dora: true,
      modulesToSave: 'embed,head',
      loss: 'fused-linear',
    });
    expect(notModelledKeys(reading)).toEqual([]);
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

  test('FSDP version 1 SHARD_GRAD_OP (torch api.py:44-50, not resharded after forward) is ZeRO-3 keeping the gathered weights', () => {
    const reading = read('distributed_type: FSDP\nfsdp_config:\n  fsdp_sharding_strategy: SHARD_GRAD_OP\n');
    expect(reading.options).toEqual({ zero: 3, keepGatheredWeights: true });
    // The legacy number 2 is the same strategy.
    expect(read('distributed_type: FSDP\nfsdp_config:\n  fsdp_sharding_strategy: 2\n').options).toEqual(reading.options);
  });

  test('HYBRID_SHARD on 2 machines of 8 processes shards within a machine: --shard-group 8 of dp 16', () => {
    const reading = read(
      'distributed_type: FSDP\nnum_machines: 2\nnum_processes: 16\nfsdp_config:\n  fsdp_sharding_strategy: HYBRID_SHARD\n',
    );
    expect(reading.options).toEqual({ dp: 16, zero: 3, shardGroup: 8 });
  });

  test('HYBRID_SHARD_ZERO2 is HSDP keeping the gathered weights; on one machine the group is every process', () => {
    const two = read(
      'distributed_type: FSDP\nnum_machines: 4\nnum_processes: 32\nfsdp_config:\n  fsdp_sharding_strategy: HYBRID_SHARD_ZERO2\n',
    );
    expect(two.options).toEqual({ dp: 32, zero: 3, keepGatheredWeights: true, shardGroup: 8 });
    const one = read(
      'distributed_type: FSDP\nnum_machines: 1\nnum_processes: 8\nfsdp_config:\n  fsdp_sharding_strategy: HYBRID_SHARD\n',
    );
    expect(one.options).toEqual({ dp: 8, zero: 3 });
    expect(one.lines.find((line) => line.key === 'num_machines')?.effect.kind).toBe('no-effect');
  });

  test('HYBRID_SHARD over machines that do not divide the processes, or without a process count, names the key', () => {
    const uneven = readTrainingConfig(
      'a.yaml',
      'distributed_type: FSDP\nnum_machines: 3\nnum_processes: 16\nfsdp_config:\n  fsdp_sharding_strategy: HYBRID_SHARD\n',
    );
    expect(uneven.ok ? null : uneven.error.key).toBe('num_machines');
    const countless = readTrainingConfig(
      'a.yaml',
      'distributed_type: FSDP\nnum_machines: 2\nfsdp_config:\n  fsdp_sharding_strategy: HYBRID_SHARD\n',
    );
    expect(countless.ok ? null : countless.error.key).toBe('num_processes');
  });

  test('FSDP2 with a version 1 strategy name: resharding as accelerate’s to-fsdp2 maps it, and no hybrid group from it', () => {
    const hybrid = read(
      'distributed_type: FSDP\nnum_machines: 2\nnum_processes: 16\nfsdp_config:\n  fsdp_version: 2\n  fsdp_sharding_strategy: HYBRID_SHARD\n',
    );
    expect(hybrid.options).toEqual({ dp: 16, zero: 3 });
    const zero2 = read('distributed_type: FSDP\nfsdp_config:\n  fsdp_version: 2\n  fsdp_sharding_strategy: SHARD_GRAD_OP\n');
    expect(zero2.options).toEqual({ zero: 3, keepGatheredWeights: true });
  });

  test('FSDP2 parallelism_config: dp_replicate × dp_shard data-parallel GPUs, the shard size as the HSDP group, cp not modelled', () => {
    const reading = read(
      'distributed_type: FSDP\nnum_processes: 16\nfsdp_config:\n  fsdp_version: 2\nparallelism_config:\n  parallelism_config_dp_replicate_size: 2\n  parallelism_config_dp_shard_size: 4\n  parallelism_config_cp_size: 2\n',
    );
    expect(reading.options).toEqual({ dp: 8, zero: 3, shardGroup: 4 });
    expect(notModelledKeys(reading)).toEqual(['parallelism_config.parallelism_config_cp_size']);
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

  test('DoRA, modules_to_save, the loss plugins and embeddings_skip_upcast map to engine options', () => {
    const reading = read(
      [
        'base_model: x',
        'adapter: qlora',
        'peft_use_dora: true',
        'lora_modules_to_save: [embed_tokens]',
        'embeddings_skip_upcast: true',
        'cut_cross_entropy: true',
        '',
      ].join('\n'),
    );
    expect(reading.options).toEqual({
      finetune: 'qlora',
      dora: true,
      modulesToSave: 'embed',
      qloraKept: '16-bit',
      loss: 'cut',
    });
    expect(read('base_model: x\nliger_fused_linear_cross_entropy: true\n').options.loss).toBe('fused-linear');
    // peft_autocast_adapter_dtype: false leaves the adapters in the loaded dtype (bf16 here), true upcasts them.
    const adapterDtype = (flag: boolean) =>
      read(`base_model: x\nadapter: lora\nbf16: auto\npeft_autocast_adapter_dtype: ${flag}\n`).options.loraDtype;
    expect([adapterDtype(false), adapterDtype(true)]).toEqual(['bf16', 'fp32']);
    // Without a 4-bit base no k-bit preparation runs: the key is known but changes nothing.
    expect(read('base_model: x\nadapter: lora\nembeddings_skip_upcast: true\n').ignored.map((key) => key.key)).toEqual([
      'base_model',
      'embeddings_skip_upcast',
    ]);
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
    expect(reading.options).toEqual({ finetune: 'full', optimizer: 'paged-adamw-8bit', precision: 'bf16' });
    expect(notModelledKeys(reading)).toEqual([]);
  });

  test('optimizer_in_bwd, the chunked losses, DoRA and the torchao optimizers map to engine options', () => {
    const reading = read(
      [
        'model:',
        '  _component_: torchtune.models.llama3_1.lora_llama3_1_8b',
        '  use_dora: true',
        '  lora_dropout: 0.05',
        'optimizer:',
        '  _component_: torchao.optim.AdamW8bit',
        'optimizer_in_bwd: true',
        'loss:',
        '  _component_: torchtune.modules.loss.LinearCrossEntropyLoss',
        '',
      ].join('\n'),
    );
    expect(reading.options).toEqual({
      finetune: 'lora',
      dora: true,
      loraDropout: 0.05,
      optimizer: 'adamw-8bit-torchao',
      optimizerInBackward: true,
      loss: 'chunked',
    });
    expect(notModelledKeys(reading)).toEqual([]);
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
      loraDropout: 0,
      // Unsloth's load_in_4bit: BitsAndBytesConfig(bnb_4bit_use_double_quant = True, bnb_4bit_quant_type = "nf4").
      qloraFormat: 'nf4-dq',
    });
    expect(notModelledKeys(reading)).toEqual([]);
    expect(reading.unknown).toEqual([]);
  });
});

describe('sharding strategies outside accelerate', () => {
  test('TrainingArguments fsdp "shard_grad_op" is ZeRO-3 keeping the gathered weights; hybrid_shard names its group as not modelled', () => {
    expect(read('{"fsdp": "shard_grad_op auto_wrap"}').options).toEqual({ zero: 3, keepGatheredWeights: true });
    const hybrid = read('{"fsdp": "hybrid_shard auto_wrap"}');
    expect(hybrid.options).toEqual({ zero: 3 });
    expect(notModelledKeys(hybrid)).toEqual(['fsdp']);
  });

  test('axolotl dp_shard_size 8 × dp_replicate_size 2 is HSDP: dp 16, --shard-group 8', () => {
    expect(read('base_model: x\ndp_shard_size: 8\ndp_replicate_size: 2\n').options).toEqual({
      finetune: 'full',
      dp: 16,
      shardGroup: 8,
    });
    expect(read('base_model: x\nfsdp: [shard_grad_op, auto_wrap]\n').options).toEqual({
      finetune: 'full',
      zero: 3,
      keepGatheredWeights: true,
    });
  });

  test('torchtune data_parallel_shard_dim 8 × data_parallel_replicate_dim 2 is HSDP; an inferred shard dim is named', () => {
    const mesh = read('data_parallel_shard_dim=8 data_parallel_replicate_dim=2 tensor_parallel_dim=2');
    expect(mesh.options).toMatchObject({ dp: 16, shardGroup: 8, tp: 2 });
    const inferred = read('data_parallel_shard_dim=-1 data_parallel_replicate_dim=2');
    expect(inferred.options.shardGroup).toBeUndefined();
    expect(notModelledKeys(inferred)).toEqual(['data_parallel_replicate_dim']);
  });

  test('DeepSpeed ZeRO++ zero_hpz_partition_size 8 is named as a second weight shard, not as HSDP', () => {
    const reading = read('{"zero_optimization": {"stage": 3, "zero_hpz_partition_size": 8}}', 'ds.json');
    expect(reading.options).toEqual({ zero: 3 });
    expect(notModelledKeys(reading)).toEqual(['zero_optimization.zero_hpz_partition_size']);
    expect(reading.unknown).toEqual([]);
  });
});

describe('torchtitan job config (TOML)', () => {
  const toml = (...lines: string[]) => read(['[job]', 'description = "t"', ...lines].join('\n'), 'train.toml');

  test('an HSDP mesh of 2 replicas × 8 shards with tp 2, the global batch as accumulation steps, the torchtitan stack', () => {
    const reading = toml(
      '[training]',
      'local_batch_size = 2',
      'global_batch_size = 128',
      'seq_len = 4096',
      '[parallelism]',
      'data_parallel_replicate_degree = 2',
      'data_parallel_shard_degree = 8',
      'tensor_parallel_degree = 2',
      'fsdp_reshard_after_forward = "never"',
    );
    expect(reading.stack).toBe('torchtitan');
    expect(reading.options).toEqual({
      microBatch: 2,
      seq: 4096,
      dp: 16,
      zero: 3,
      shardGroup: 8,
      keepGatheredWeights: true,
      tp: 2,
      gradAccum: 4,
    });
  });

  test('training.dtype bfloat16 is pure bf16; mixed_precision_param float32 is fp32; CPU offload of FSDP', () => {
    expect(toml('[training]', 'dtype = "bfloat16"', 'mixed_precision_param = "bfloat16"').options).toEqual({
      precision: 'bf16',
    });
    expect(toml('[training]', 'mixed_precision_param = "float32"', 'enable_cpu_offload = true').options).toEqual({
      precision: 'fp32',
      offload: 'optimizer+params',
      offloadDevice: 'cpu',
    });
  });

  test('checkpointing: op, every block (1), every 2nd block named; pipeline stages and float8 named as not modelled', () => {
    expect(toml('[activation_checkpoint]', 'mode = "selective"', 'selective_ac_option = "1"').options.recompute).toBe('full');
    const reading = toml(
      '[model]',
      'converters = ["quantize.linear.float8"]',
      '[activation_checkpoint]',
      'mode = "selective"',
      'selective_ac_option = "2"',
      '[parallelism]',
      'pipeline_parallel_degree = 4',
    );
    expect(reading.options.recompute).toBeUndefined();
    expect(notModelledKeys(reading)).toEqual([
      'parallelism.pipeline_parallel_degree',
      'activation_checkpoint.selective_ac_option',
      'model.converters',
    ]);
  });

  test('a global batch that local × dp does not divide, or a mode torchtitan does not have, names the key', () => {
    const uneven = readTrainingConfig(
      'train.toml',
      '[training]\nlocal_batch_size = 3\nglobal_batch_size = 16\n[parallelism]\ndata_parallel_shard_degree = 2\n',
    );
    expect(uneven.ok ? null : uneven.error.key).toBe('training.global_batch_size');
    const mode = readTrainingConfig('train.toml', '[job]\n[activation_checkpoint]\nmode = "some"\n');
    expect(mode.ok ? null : mode.error.key).toBe('activation_checkpoint.mode');
  });

  test('TOML this reader cannot read is one line naming the file and the line', () => {
    const outcome = readTrainingConfig('train.toml', '[job]\n\n[training]\nx = { a = 1 }\n');
    expect(outcome.ok ? null : setupErrorLine(outcome.error)).toBe(
      'train.toml: not read as TOML (line 4: inline tables ({…}) are not read)',
    );
  });
});

describe('batch layouts (memory batching.ts), tool by tool', () => {
  const batching = (text: string) => read(text).options.batching;
  const effectOf = (reading: FileReading, key: string) => reading.lines.find((line) => line.key === key)?.effect.kind;

  test('TRL: packing packs rows of max_length; padding_free alone flattens; packing wins over padding_free', () => {
    expect(batching('{"packing": true, "max_length": 2048}')).toBe('packed');
    expect(batching('{"padding_free": true}')).toBe('padding-free');
    const both = read('{"packing": true, "padding_free": true}');
    expect(both.options.batching).toBe('packed');
    expect(effectOf(both, 'padding_free')).toBe('no-effect');
    expect(batching('{"packing": false, "per_device_train_batch_size": 1}')).toBe('padded');
    expect(notModelledKeys(read('{"packing": true, "padding_free": true}'))).toEqual([]);
  });

  test('TRL on a command line: --padding_free', () => {
    expect(batching('python sft.py --padding_free --per_device_train_batch_size 8')).toBe('padding-free');
  });

  test('LLaMA-Factory: packing and neat_packing (which implies packing) are packed rows', () => {
    expect(batching('finetuning_type: full\npacking: true\n')).toBe('packed');
    const neat = read('finetuning_type: full\nneat_packing: true\npacking: false\n');
    expect(neat.options.batching).toBe('packed');
    expect(effectOf(neat, 'packing')).toBe('no-effect');
    expect(notModelledKeys(neat)).toEqual([]);
  });

  test('axolotl: sample_packing', () => {
    expect(batching('base_model: x\nsample_packing: true\n')).toBe('packed');
    expect(batching('base_model: x\nsample_packing: false\n')).toBe('padded');
  });

  test('torchtune: dataset.packed', () => {
    const reading = read(
      'model:\n  _component_: torchtune.models.llama3_1.llama3_1_8b\ndataset:\n  _component_: torchtune.datasets.alpaca_dataset\n  packed: True\n',
    );
    expect(reading.options.batching).toBe('packed');
  });
});

describe('FP8 training (memory fp8.ts), tool by tool', () => {
  test('accelerate: mixed_precision fp8 with the TE backend; with AO, tensorwise and its float8 all-gather', () => {
    const te = read('distributed_type: MULTI_GPU\nmixed_precision: fp8\nfp8_config:\n  backend: TE\n  fp8_format: HYBRID\n');
    expect(te.options).toMatchObject({ fp8: 'te' });
    expect(te.unknown).toEqual([]);
    const ao = read(
      'distributed_type: FSDP\nmixed_precision: fp8\nfp8_config:\n  backend: AO\n  enable_fsdp_float8_all_gather: true\n',
    );
    expect(ao.options).toMatchObject({ fp8: 'torchao-tensorwise', fp8AllGather: true });
  });

  test('accelerate: MS-AMP, or fp8 without a backend, is named as not modelled', () => {
    const msamp = read('distributed_type: MULTI_GPU\nmixed_precision: fp8\nfp8_config:\n  backend: MSAMP\n');
    expect(notModelledKeys(msamp)).toEqual(['mixed_precision']);
    expect(msamp.options.fp8).toBeUndefined();
  });

  test('axolotl: fp8 is torchao tensorwise; fp8_enable_fsdp_float8_all_gather its all-gather', () => {
    const reading = read('base_model: x\nfp8: true\nfp8_enable_fsdp_float8_all_gather: true\n');
    expect(reading.options).toMatchObject({ fp8: 'torchao-tensorwise', fp8AllGather: true });
  });

  test('torchtune: enable_fp8_training alone is tensorwise with the all-gather on; a named recipe is that recipe', () => {
    const component = 'model:\n  _component_: torchtune.models.llama3_1.llama3_1_8b\n';
    expect(read(`${component}enable_fp8_training: true\n`).options).toMatchObject({
      fp8: 'torchao-tensorwise',
      fp8AllGather: true,
    });
    const rowwise = read(`${component}enable_fp8_training: true\nfp8_recipe_name: rowwise\n`);
    expect(rowwise.options.fp8).toBe('torchao-rowwise');
    expect(rowwise.options.fp8AllGather).toBeUndefined();
    expect(notModelledKeys(read(`${component}enable_fp8_training: true\nfp8_recipe_name: rowwise_with_gw_hp\n`))).toEqual([
      'fp8_recipe_name',
    ]);
  });
});
