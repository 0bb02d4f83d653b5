/**
 * The writers, read back: every written file, read by its tool's reader, gives back every option the writer did not
 * name as unexpressed, and the same estimate.
 */
import { describe, expect, test } from 'vitest';
import { estimateMemory } from '../../../src/memory/index.ts';
import { OPTIMIZERS } from '../../../src/memory/optimizer.ts';
import {
  combineReadings,
  LLAMA_FACTORY_DEEPSPEED_PATH,
  readTrainingConfig,
  writeAccelerateYaml,
  writeAxolotlYaml,
  writeDeepSpeedJson,
  writeLlamaFactoryYaml,
  writeTorchtuneOverrides,
  writeTrainingArgumentsJson,
  writeTrainingArgumentsPython,
  type FileReading,
  type SetupOptions,
  type WrittenConfig,
} from '../../../src/setup/index.ts';

/** Option sets that between them use every value each writer handles, all options explicit. */
const OPTION_SETS: Readonly<Record<string, SetupOptions>> = {
  'LoRA on q,v, bf16, fused AdamW, checkpoints offloaded, packed rows': {
    precision: 'bf16',
    optimizer: 'adamw',
    optimizerImpl: 'fused',
    microBatch: 2,
    gradAccum: 8,
    seq: 4096,
    recompute: 'full',
    activationOffload: 'checkpoints',
    attention: 'sdpa',
    finetune: 'lora',
    loraRank: 16,
    loraTargets: 'q,v',
    batching: 'packed',
  },
  'full fine-tune, autocast bf16, 8-bit AdamW, ZeRO-3 and activations offloaded to the CPU on 8 GPUs': {
    precision: 'amp-bf16',
    optimizer: 'adamw-8bit',
    microBatch: 1,
    gradAccum: 4,
    seq: 2048,
    recompute: 'none',
    activationOffload: 'streamed',
    attention: 'eager',
    finetune: 'full',
    zero: 3,
    offload: 'optimizer+params',
    offloadDevice: 'cpu',
    dp: 8,
  },
  'QLoRA, mixed bf16, foreach AdamW, ZeRO-1 with the optimizer on NVMe': {
    precision: 'mixed-bf16',
    optimizer: 'adamw',
    optimizerImpl: 'foreach',
    microBatch: 4,
    gradAccum: 1,
    zero: 1,
    offload: 'optimizer',
    offloadDevice: 'nvme',
    dp: 4,
    finetune: 'qlora',
    loraRank: 64,
    loraTargets: 'all-linear',
    qloraFormat: 'nf4-dq',
  },
  'LoRA with DoRA, dropout 0.1, embedding and head trained in full, Liger loss, paged 8-bit AdamW': {
    precision: 'bf16',
    optimizer: 'paged-adamw-8bit',
    finetune: 'lora',
    loraRank: 8,
    loraTargets: 'all-linear',
    loraDropout: 0.1,
    loraDtype: 'bf16',
    dora: true,
    modulesToSave: 'embed,head',
    loss: 'fused-linear',
    recompute: 'full',
    microBatch: 1,
    seq: 1024,
  },
  'QLoRA on FP4 without double quantization, 16-bit kept parameters, TRL chunked loss, Lion': {
    precision: 'bf16',
    optimizer: 'lion',
    finetune: 'qlora',
    qloraFormat: 'fp4',
    qloraKept: '16-bit',
    loraRank: 16,
    loss: 'cut',
    microBatch: 4,
  },
  'full fine-tune in bf16, torchao 8-bit AdamW stepped in backward, chunked loss, float8 rowwise': {
    precision: 'bf16',
    optimizer: 'adamw-8bit-torchao',
    optimizerInBackward: true,
    loss: 'chunked',
    finetune: 'full',
    microBatch: 2,
    gradAccum: 1,
    fp8: 'torchao-rowwise',
  },
  'LoRA, bf16, ZeRO-3 keeping the gathered weights on 4 GPUs, padding-free batches': {
    precision: 'bf16',
    finetune: 'lora',
    loraRank: 8,
    loraTargets: 'all-linear',
    zero: 3,
    keepGatheredWeights: true,
    dp: 4,
    batching: 'padding-free',
  },
  'fp32 SGD, ZeRO-2 on 2 GPUs, padded batches, no FP8': {
    precision: 'fp32',
    zero: 2,
    dp: 2,
    optimizer: 'sgd',
    finetune: 'full',
    recompute: 'full',
    seq: 512,
    microBatch: 8,
    batching: 'padded',
    fp8: 'none',
  },
  'full fine-tune, ZeRO-3 on 8 GPUs, float8 tensorwise with the float8 all-gather': {
    precision: 'bf16',
    finetune: 'full',
    microBatch: 1,
    zero: 3,
    dp: 8,
    fp8: 'torchao-tensorwise',
    fp8AllGather: true,
  },
  'full fine-tune under Transformer Engine FP8': {
    precision: 'bf16',
    finetune: 'full',
    microBatch: 1,
    fp8: 'te',
  },
};

/** Each writer whose text a reader reads back, with the file name it is read under. */
const WRITERS: ReadonlyArray<readonly [string, string, (options: SetupOptions) => WrittenConfig]> = [
  ['TrainingArguments JSON', 'sft_config.json', writeTrainingArgumentsJson],
  ['DeepSpeed JSON', 'ds_config.json', writeDeepSpeedJson],
  ['accelerate YAML', 'accelerate.yaml', writeAccelerateYaml],
  ['LLaMA-Factory YAML', 'train.yaml', writeLlamaFactoryYaml],
  ['axolotl YAML', 'axolotl.yaml', writeAxolotlYaml],
  ['torchtune overrides', 'overrides', writeTorchtuneOverrides],
];

function readBack(file: string, text: string): FileReading {
  const outcome = readTrainingConfig(file, text);
  if (!outcome.ok) throw new Error(`${outcome.error.key}: ${outcome.error.message}\n${text}`);
  return outcome.reading;
}

/** `options` without the keys named. */
function without(options: SetupOptions, keys: readonly string[]): SetupOptions {
  return Object.fromEntries(Object.entries(options).filter(([key]) => !keys.includes(key)));
}

describe.each(WRITERS)('%s', (_name, file, write) => {
  test.each(Object.entries(OPTION_SETS))('read back: %s', (_set, options) => {
    const written = write(options);
    const unexpressed = written.unexpressed.map((entry) => entry.option);
    expect(readBack(file, written.text).options).toEqual(without(options, unexpressed));
    // Every option is either written or named with a reason.
    for (const entry of written.unexpressed) expect(entry.why).not.toBe('');
  });
});

describe('every optimizer through the Trainer, torchtune and DeepSpeed files', () => {
  test.each(OPTIMIZERS)('%s is written and read back, or named as unexpressed', (optimizer) => {
    for (const [, file, write] of WRITERS.filter(([name]) => /TrainingArguments|torchtune|DeepSpeed/.test(name))) {
      const written = write({ optimizer, microBatch: 1 });
      const unexpressed = written.unexpressed.some((entry) => entry.option === 'optimizer');
      expect(readBack(file, written.text).options.optimizer).toBe(unexpressed ? undefined : optimizer);
    }
  });

  test('the Trainer names every optimizer but AdamW without an implementation, SGD with momentum and CPU offload', () => {
    const unnamed = OPTIMIZERS.filter((optimizer) =>
      writeTrainingArgumentsJson({ optimizer }).unexpressed.some((entry) => entry.option === 'optimizer'),
    );
    expect(unnamed).toEqual(['sgd-momentum', 'adamw', 'adamw-cpu-offload']);
  });
});

describe('writers together', () => {
  test('a LLaMA-Factory YAML and the DeepSpeed JSON it names give back the options and the same estimate', () => {
    const options = OPTION_SETS['QLoRA, mixed bf16, foreach AdamW, ZeRO-1 with the optimizer on NVMe']!;
    const yaml = writeLlamaFactoryYaml(options);
    const json = writeDeepSpeedJson(options);
    expect(yaml.text).toContain(`deepspeed: ${LLAMA_FACTORY_DEEPSPEED_PATH}`);
    const combined = combineReadings([readBack('train.yaml', yaml.text), readBack(LLAMA_FACTORY_DEEPSPEED_PATH, json.text)]);
    expect(combined.missing).toEqual([]);
    expect(combined.options).toEqual(without(options, ['dp']));
    const estimate = (given: SetupOptions) => {
      const outcome = estimateMemory({ model: 'llama-3-8b', dp: 4, ...given });
      if (!outcome.ok) throw new Error(outcome.errors.map((e) => e.message).join('; '));
      return outcome.result.perGpu.total;
    };
    expect(estimate(combined.options)).toBe(estimate(options));
  });

  test('the Python text names every call the options need, with Python literals', () => {
    const text = writeTrainingArgumentsPython(
      OPTION_SETS['QLoRA, mixed bf16, foreach AdamW, ZeRO-1 with the optimizer on NVMe']!,
    ).text;
    expect(text).toContain(
      'quantization_config = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_use_double_quant=True)',
    );
    expect(text).toContain('model = AutoModelForCausalLM.from_pretrained(MODEL, quantization_config=quantization_config)');
    expect(text).toContain('peft_config = LoraConfig(r=64, target_modules="all-linear")');
    expect(text).toContain('args = SFTConfig(per_device_train_batch_size=4, gradient_accumulation_steps=1, optim="adamw_torch")');
  });

  test('the Python text carries LoRA dropout, DoRA, modules_to_save, the Liger loss and a paged optimizer', () => {
    const text = writeTrainingArgumentsPython(
      OPTION_SETS['LoRA with DoRA, dropout 0.1, embedding and head trained in full, Liger loss, paged 8-bit AdamW']!,
    ).text;
    expect(text).toContain(
      'peft_config = LoraConfig(r=8, target_modules="all-linear", lora_dropout=0.1, use_dora=True, modules_to_save=["embed_tokens","lm_head"])',
    );
    expect(text).toMatch(/args = SFTConfig\(.*use_liger_kernel=True.*optim="paged_adamw_8bit"/);
  });
});
