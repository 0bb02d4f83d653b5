/**
 * Real configuration files from the tools' own repositories (tests/fixtures/training-configs/SOURCES.md), each with
 * the engine options it must produce and the lines that name what the engine does not count.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { estimateMemory } from '../../../src/memory/index.ts';
import { combineReadings, readTrainingConfig, type FileReading, type SetupMapping } from '../../../src/setup/index.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/training-configs/', import.meta.url));

/** Read fixture files (paths under the fixtures folder) and combine them, with Llama 3 8B's hidden size 4096. */
function mapping(...paths: string[]): SetupMapping {
  const readings: FileReading[] = paths.map((path) => {
    const outcome = readTrainingConfig(path, readFileSync(`${FIXTURES}${path}`, 'utf8'));
    if (!outcome.ok) throw new Error(`${outcome.error.file}: ${outcome.error.key}: ${outcome.error.message}`);
    return outcome.reading;
  });
  return combineReadings(readings, { hidden: 4096 });
}

/** The `what` of every not-modelled line, by key. */
const notModelled = (result: SetupMapping) =>
  Object.fromEntries(result.lines.flatMap((line) => (line.effect.kind === 'not-modelled' ? [[line.key, line.effect.what]] : [])));

describe('LLaMA-Factory examples/', () => {
  test('train_lora/llama3_lora_sft.yaml: LoRA r=8 on every linear layer, bf16 base, batch 1 × 8, 2048 tokens', () => {
    const result = mapping('llama-factory/llama3_lora_sft.yaml');
    expect(result.stack).toBe('llama-factory');
    expect(result.options).toEqual({
      finetune: 'lora',
      loraRank: 8,
      loraTargets: 'all-linear',
      microBatch: 1,
      gradAccum: 8,
      seq: 2048,
      precision: 'bf16',
    });
    expect(result.unknown).toEqual([]);
    expect(result.ignored.map((k) => k.key)).toContain('learning_rate');
  });

  test('train_full/llama3_full_sft.yaml with the ds_z3_config.json it names: ZeRO-3, "auto" filled from the YAML', () => {
    const result = mapping('llama-factory/llama3_full_sft.yaml', 'llama-factory/ds_z3_config.json');
    expect(result.options).toEqual({
      finetune: 'full',
      microBatch: 1,
      gradAccum: 2,
      seq: 2048,
      precision: 'mixed-bf16',
      zero: 3,
    });
    expect(result.conflicts).toEqual([]);
    expect(result.missing).toEqual([]);
    const filled = result.lines.filter((line) => line.value.startsWith('auto →')).map((line) => [line.key, line.value]);
    expect(filled).toEqual([
      ['train_micro_batch_size_per_gpu', 'auto → 1'],
      ['gradient_accumulation_steps', 'auto → 2'],
      ['bf16.enabled', 'auto → bf16'],
      ['zero_optimization.reduce_bucket_size', 'auto → h² = 16777216 (h = 4096)'],
      ['zero_optimization.stage3_prefetch_bucket_size', 'auto → 0.9·h² = 15099494 (h = 4096)'],
      ['zero_optimization.stage3_param_persistence_threshold', 'auto → 10·h = 40960 (h = 4096)'],
    ]);
  });

  test('train_full/llama3_full_sft.yaml alone names the DeepSpeed JSON as missing', () => {
    const result = mapping('llama-factory/llama3_full_sft.yaml');
    expect(result.missing).toEqual([{ file: 'llama-factory/llama3_full_sft.yaml', key: 'deepspeed' }]);
    expect(result.options.precision).toBe('amp-bf16');
  });

  test('accelerate/fsdp2_config.yaml: FSDP2 resharding after forward is ZeRO-3 on 2 processes', () => {
    const result = mapping('llama-factory/fsdp2_config.yaml');
    expect(result.stack).toBe('fsdp2');
    expect(result.options).toEqual({ dp: 2, zero: 3 });
    expect(result.lines.find((line) => line.key === 'mixed_precision')?.effect.kind).toBe('left-to-stack');
  });
});

describe('accelerate examples/config_yaml_templates/', () => {
  test('fsdp.yaml: FULL_SHARD is ZeRO-3, 2 processes, checkpointing off', () => {
    expect(mapping('accelerate/fsdp.yaml').options).toEqual({ dp: 2, zero: 3, recompute: 'none' });
  });

  test('deepspeed.yaml: 2 processes, and the DeepSpeed JSON it names is reported missing', () => {
    const result = mapping('accelerate/deepspeed.yaml');
    expect(result.stack).toBe('deepspeed');
    expect(result.options).toEqual({ dp: 2 });
    expect(result.missing.map((k) => k.key)).toEqual(['deepspeed_config.deepspeed_config_file']);
  });
});

describe('accelerate examples/torch_native_parallelism/configs/', () => {
  test('tp_hsdp.yaml: 8 processes as 2 replicas × 2 shards × tp 2: dp 4, --shard-group 2, --tp 2, ZeRO-3', () => {
    const result = mapping('accelerate/tp_hsdp.yaml');
    expect(result.stack).toBe('fsdp2');
    expect(result.options).toEqual({ dp: 4, shardGroup: 2, tp: 2, zero: 3, recompute: 'none' });
    expect(result.unknown).toEqual([]);
  });
});

describe('torchtitan torchtitan/models/llama3/train_configs/ (0.2.2, TOML)', () => {
  test('llama3_8b.toml: batch 1 × 8192 tokens, FSDP over every GPU, op-level checkpointing, AdamW, fp32-upcast loss', () => {
    const result = mapping('torchtitan/llama3_8b.toml');
    expect(result.stack).toBe('torchtitan');
    expect(result.options).toEqual({
      microBatch: 1,
      seq: 8192,
      zero: 3,
      recompute: 'op',
      optimizer: 'adamw',
      compile: false,
      loss: 'eager',
    });
    expect(result.unknown).toEqual([]);
    // The data-parallel degree is the launcher's (-1): the reader says so instead of guessing it.
    expect(result.lines.filter((line) => line.effect.kind === 'left-to-stack').map((line) => line.key)).toEqual([
      'parallelism.data_parallel_shard_degree',
    ]);
  });

  test('llama3_8b.toml with the launcher’s 8 GPUs estimates on torchtitan’s stack: FSDP2 bf16 over fp32 shards', () => {
    const result = mapping('torchtitan/llama3_8b.toml');
    const outcome = estimateMemory({ model: 'llama-3.1-8b', dp: 8, ...result.options, stack: 'torchtitan' });
    expect(outcome.ok ? outcome.result.resolved.precision : outcome.errors).toBe('mixed-bf16');
  });

  test('llama3_70b.toml: batch 8, 8-way tensor parallelism, full checkpointing', () => {
    const result = mapping('torchtitan/llama3_70b.toml');
    expect(result.options).toEqual({
      microBatch: 8,
      seq: 8192,
      zero: 3,
      tp: 8,
      recompute: 'full',
      optimizer: 'adamw',
      compile: false,
      loss: 'eager',
    });
    expect(result.unknown).toEqual([]);
  });
});

describe('torchtune recipes/configs/', () => {
  test('llama3_1/8B_qlora_single_device.yaml: QLoRA r=8 on q,k,v,o and the MLP, bf16, fused AdamW, chunked loss', () => {
    const result = mapping('torchtune/8B_qlora_single_device.yaml');
    expect(result.stack).toBe('torchtune');
    expect(result.options).toEqual({
      finetune: 'qlora',
      loraRank: 8,
      loraTargets: 'all-linear',
      microBatch: 2,
      gradAccum: 16,
      precision: 'bf16',
      recompute: 'full',
      activationOffload: 'none',
      optimizer: 'adamw',
      optimizerImpl: 'fused',
      // loss: _component_: torchtune.modules.loss.CEWithChunkedOutputLoss; lora_dropout: 0.0.
      loss: 'chunked',
      loraDropout: 0,
      compile: false,
    });
    expect(notModelled(result)).toEqual({});
    expect(result.unknown).toEqual([]);
  });
});

describe('torchtune recipes/configs/, batch layout', () => {
  test('llama3_2/3B_full.yaml: dataset.packed False pads each batch, batch 4 × 8', () => {
    const result = mapping('torchtune/3B_full.yaml');
    expect(result.stack).toBe('torchtune');
    expect(result.options).toMatchObject({ finetune: 'full', microBatch: 4, gradAccum: 8, batching: 'padded' });
    expect(notModelled(result)).toEqual({});
  });
});

describe('axolotl examples/', () => {
  test('llama-3/qlora.yml: QLoRA r=32 on every linear layer, paged AdamW, dropout 0.05, packed rows', () => {
    const result = mapping('axolotl/qlora.yml');
    expect(result.stack).toBe('axolotl');
    expect(result.options).toEqual({
      finetune: 'qlora',
      loraRank: 32,
      loraTargets: 'all-linear',
      seq: 4096,
      microBatch: 2,
      gradAccum: 4,
      // optimizer: paged_adamw_32bit; lora_dropout: 0.05.
      optimizer: 'paged-adamw',
      loraDropout: 0.05,
      precision: 'bf16',
      recompute: 'full',
      attention: 'sdpa',
      // sample_packing: true packs rows of sequence_len 4096.
      batching: 'packed',
    });
    expect(notModelled(result)).toEqual({});
    expect(result.unknown).toEqual([]);
  });
});

describe('axolotl examples/, FP8', () => {
  test('llama-3/3b-fp8-fsdp2.yaml: torchao float8 with the float8 all-gather on FSDP2, packed rows of 512', () => {
    const result = mapping('axolotl/3b-fp8-fsdp2.yaml');
    expect(result.stack).toBe('axolotl');
    expect(result.options).toMatchObject({
      seq: 512,
      microBatch: 16,
      zero: 3,
      // sample_packing: true; fp8: true and fp8_enable_fsdp_float8_all_gather: true (Float8LinearConfig, tensorwise).
      batching: 'packed',
      fp8: 'torchao-tensorwise',
      fp8AllGather: true,
    });
    expect(notModelled(result)).toEqual({});
  });

  test('its options estimate on 8 H100s and are refused on A100s, naming --fp8', () => {
    const { options } = mapping('axolotl/3b-fp8-fsdp2.yaml');
    const job = { model: 'llama-3.2-3b', dp: 8, ...options };
    expect(estimateMemory({ ...job, gpu: 'h100-80gb' }).ok).toBe(true);
    const refused = estimateMemory({ ...job, gpu: 'a100-80gb' });
    expect(refused.ok ? [] : refused.errors.map((e) => e.field)).toEqual(['fp8']);
  });
});

describe('transformers tests/deepspeed/', () => {
  test('ds_config_zero3.json: ZeRO-3 with parameters and optimizer offloaded to the CPU; "auto" left to the stack alone', () => {
    const result = mapping('deepspeed/ds_config_zero3.json');
    expect(result.options).toEqual({ zero: 3, offload: 'optimizer+params', offloadDevice: 'cpu', optimizer: 'adamw' });
    const left = result.lines.filter((line) => line.effect.kind === 'left-to-stack').map((line) => line.key);
    expect(left).toEqual(['train_micro_batch_size_per_gpu', 'gradient_accumulation_steps', 'fp16.enabled']);
  });

  test('ds_config_zero2.json: ZeRO-2 with the optimizer on the CPU (DeepSpeedCPUAdam, no GPU implementation set)', () => {
    const result = mapping('deepspeed/ds_config_zero2.json');
    expect(result.options).toEqual({ zero: 2, offload: 'optimizer', offloadDevice: 'cpu', optimizer: 'adamw' });
    expect(notModelled(result)['zero_optimization.reduce_bucket_size']).toBe('a reduce bucket of 200000000 elements');
  });

  test('ds_config_zero2.json with a TRL command line: "auto" takes the command line’s batch, accumulation and fp16', () => {
    const result = combineReadings(
      [
        readTrainingConfig('ds_config_zero2.json', readFileSync(`${FIXTURES}deepspeed/ds_config_zero2.json`, 'utf8')),
        readTrainingConfig(
          'cmd',
          'python trl/scripts/sft.py --per_device_train_batch_size 4 --gradient_accumulation_steps 2 --fp16',
        ),
      ].map((outcome) => {
        if (!outcome.ok) throw new Error(outcome.error.message);
        return outcome.reading;
      }),
    );
    expect(result.stack).toBe('hf-trainer');
    expect(result.options).toMatchObject({ microBatch: 4, gradAccum: 2, precision: 'mixed-fp16', zero: 2 });
  });
});

describe('TRL examples/ and trl/scripts/', () => {
  test('scripts/sft.py, its LoRA command line: batch 2 × 8, LoRA r=32, packed rows (--packing)', () => {
    const result = mapping('trl/sft_lora_command.txt');
    expect(result.stack).toBe('trl');
    expect(result.options).toEqual({ microBatch: 2, gradAccum: 8, finetune: 'lora', loraRank: 32, batching: 'packed' });
    expect(notModelled(result)).toEqual({});
    expect(result.unknown).toEqual([]);
  });

  test('cli_configs/example_config.yaml: a TRL config with nothing that changes memory, every key ignored', () => {
    const result = mapping('trl/example_config.yaml');
    expect(result.stack).toBe('trl');
    expect(result.options).toEqual({});
    expect(result.ignored.map((k) => k.key)).toEqual([
      'model_name_or_path',
      'dataset_name',
      'report_to',
      'learning_rate',
      'lr_scheduler_type',
    ]);
  });

  test('accelerate_configs/deepspeed_zero3.yaml: ZeRO-3 on 8 processes, bf16 through DeepSpeed is mixed-bf16', () => {
    expect(mapping('trl/deepspeed_zero3.yaml').options).toEqual({ dp: 8, precision: 'mixed-bf16', zero: 3 });
  });

  test('accelerate_configs/fsdp2.yaml: FSDP2 resharding after forward on 8 processes, checkpointing off', () => {
    const result = mapping('trl/fsdp2.yaml');
    expect(result.stack).toBe('fsdp2');
    expect(result.options).toEqual({ dp: 8, zero: 3, recompute: 'none' });
  });

  test('the LoRA command line with the FSDP2 config: the trainer’s stack, the launcher’s processes', () => {
    const result = mapping('trl/fsdp2.yaml', 'trl/sft_lora_command.txt');
    expect(result.stack).toBe('trl');
    expect(result.options).toEqual({
      dp: 8,
      zero: 3,
      recompute: 'none',
      microBatch: 2,
      gradAccum: 8,
      finetune: 'lora',
      loraRank: 32,
      batching: 'packed',
    });
  });
});
