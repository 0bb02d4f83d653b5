/**
 * The writers, read back: every written file, read by its tool's reader, gives back every option the writer did not
 * name as unexpressed, and the same estimate.
 */
import { describe, expect, test } from 'vitest';
import { estimateMemory } from '../../../src/memory/index.ts';
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
  'LoRA on q,v, bf16, fused AdamW, checkpoints offloaded': {
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
  },
  'LoRA, bf16, ZeRO-3 keeping the gathered weights on 4 GPUs': {
    precision: 'bf16',
    finetune: 'lora',
    loraRank: 8,
    loraTargets: 'all-linear',
    zero: 3,
    keepGatheredWeights: true,
    dp: 4,
  },
  'fp32 SGD, ZeRO-2 on 2 GPUs': {
    precision: 'fp32',
    zero: 2,
    dp: 2,
    optimizer: 'sgd',
    finetune: 'full',
    recompute: 'full',
    seq: 512,
    microBatch: 8,
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
});
