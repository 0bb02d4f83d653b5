/**
 * Writing for the target tool: over every stack an estimate can run on, every format whose text a reader reads back,
 * and a set of jobs, the written file, read back on the stack it implies with what it cannot say passed beside it
 * (as `estimate --training-config FILE` plus flags would), resolves to the same options and the same estimate.
 */
import { describe, expect, test } from 'vitest';
import {
  DEFAULT_STACK,
  estimateMemory,
  STACKS,
  stackDecidedKeysFor,
  type EstimateOptions,
  type EstimateResult,
} from '../../../src/memory/index.ts';
import {
  combineReadings,
  readTrainingConfig,
  WRITE_FORMATS,
  writeReproducing,
  type WriteFormat,
} from '../../../src/setup/index.ts';

/** The jobs: full, LoRA, QLoRA, ZeRO-2, ZeRO-3, offload, HSDP and tp, each with only the options a reader would give. */
const JOBS: Readonly<Record<string, EstimateOptions>> = {
  'full fine-tune': { finetune: 'full', microBatch: 1, seq: 1024 },
  'LoRA on the attention': { finetune: 'lora', loraRank: 16, loraTargets: 'attention', microBatch: 2, seq: 2048 },
  'QLoRA nf4-dq on every linear layer': { finetune: 'qlora', loraRank: 16, loraTargets: 'all-linear', qloraFormat: 'nf4-dq' },
  'ZeRO-2 on 4 GPUs': { finetune: 'full', zero: 2, dp: 4, seq: 1024 },
  'ZeRO-3 on 8 GPUs': { finetune: 'full', zero: 3, dp: 8, seq: 1024 },
  'ZeRO-3 with optimizer and parameters offloaded to the CPU': {
    finetune: 'full',
    zero: 3,
    dp: 8,
    offload: 'optimizer+params',
    offloadDevice: 'cpu',
  },
  'HSDP: ZeRO-3 within groups of 8 of 16 GPUs': { finetune: 'full', zero: 3, dp: 16, shardGroup: 8 },
  'ZeRO-3 over 4 data-parallel GPUs × tensor parallelism 2': { finetune: 'full', zero: 3, dp: 4, tp: 2, seq: 1024 },
};

/** A bf16 checkpoint (Llama 3 8B) and an fp32 one (GPT-2): stacks that load "as stored" train them differently. */
const MODELS = ['llama-3-8b', 'gpt2'] as const;

/** The formats read back as written (the Python form of TrainingArguments is code; its JSON twin is read instead). */
const READABLE: readonly WriteFormat[] = (Object.keys(WRITE_FORMATS) as WriteFormat[]).filter(
  (format) => format !== 'training-arguments',
);

function estimate(options: EstimateOptions): EstimateResult {
  const outcome = estimateMemory(options);
  if (!outcome.ok) throw new Error(outcome.errors.map((error) => `${error.field}: ${error.message}`).join('; '));
  return outcome.result;
}

/** What `estimate --training-config FILE` with the unexpressed options as flags gives for a written file. */
function readBackEstimate(format: WriteFormat, text: string, model: string, beside: EstimateOptions): EstimateResult {
  const outcome = readTrainingConfig(WRITE_FORMATS[format].readAs, text);
  if (!outcome.ok) throw new Error(`${outcome.error.key}: ${outcome.error.message}\n${text}`);
  const mapping = combineReadings([outcome.reading]);
  return estimate({ model, ...beside, ...mapping.options, stack: mapping.stack ?? DEFAULT_STACK });
}

describe.each(MODELS)('%s', (model) => {
  describe.each(STACKS)('estimated on %s', (stack) => {
    test.each(READABLE)('written as %s and read back, every job gives the same resolved options and estimate', (format) => {
      for (const job of Object.values(JOBS)) {
        const given = { model, stack, ...job };
        const original = estimate(given);
        const written = writeReproducing(format, given, original.resolved);
        const beside = Object.fromEntries(written.unexpressed.map((entry) => [entry.option, written.options[entry.option]]));
        const reproduced = readBackEstimate(format, written.text, model, beside);
        expect(reproduced.resolved.stack).toBe(written.targetStack);
        for (const key of stackDecidedKeysFor(original.resolved.finetune))
          expect([key, reproduced.resolved[key]]).toEqual([key, original.resolved[key]]);
        expect(reproduced.perGpu.total).toBe(original.perGpu.total);
        // Every note says where to set the option instead.
        for (const entry of written.unexpressed) expect(entry.why).not.toBe('');
      }
    });
  });
});

describe('what the target stack needs written', () => {
  const given: EstimateOptions = { model: 'llama-3-8b', stack: 'pytorch', ...JOBS['full fine-tune'] };
  const original = estimate(given);

  test('plain PyTorch written as an SFTConfig JSON: foreach AdamW must be said, or TRL fuses it', () => {
    // The witness that the round trip can fail: the options given alone read back on the Trainer's own defaults.
    const plain = WRITE_FORMATS['training-arguments-json'].write(given);
    expect(readBackEstimate('training-arguments-json', plain.text, 'llama-3-8b', {}).perGpu.total).toBeLessThan(
      original.perGpu.total,
    );
    const written = writeReproducing('training-arguments-json', given, original.resolved);
    // max_length is TRL's key, so the file runs on TRL's defaults.
    expect(written.targetStack).toBe('trl');
    expect(JSON.parse(written.text)).toMatchObject({ optim: 'adamw_torch' });
    expect(written.options).toMatchObject({ optimizer: 'adamw', optimizerImpl: 'foreach' });
    // TRL loads float32 weights under bf16 autocast as plain PyTorch does here: the precision needs no key.
    expect(written.options.precision).toBeUndefined();
    expect(original.resolved.precision).toBe('amp-bf16');
  });

  test('torchtune written as a Trainer file keeps its chunked loss and pure bf16 as flags it cannot say', () => {
    const tune: EstimateOptions = { model: 'llama-3-8b', stack: 'torchtune', ...JOBS['full fine-tune'] };
    const resolved = estimate(tune).resolved;
    const written = writeReproducing('training-arguments-json', tune, resolved);
    const unsaid = written.unexpressed.map((entry) => entry.option);
    expect(resolved.loss).toBe('chunked');
    expect(unsaid).toContain('loss');
  });

  test('a stack that agrees with the target adds nothing: TRL written as an SFTConfig is the options given', () => {
    const trainer: EstimateOptions = { model: 'llama-3-8b', stack: 'trl', ...JOBS['LoRA on the attention'] };
    const written = writeReproducing('training-arguments-json', trainer, estimate(trainer).resolved);
    expect(written.options).toEqual({ model: 'llama-3-8b', ...JOBS['LoRA on the attention'] });
  });
});
