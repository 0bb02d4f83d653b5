import { describe, expect, test } from 'vitest';
import { GIB } from '../../../src/base/bytes.ts';
import { resolveEstimateOptions, type ResolvedEstimate } from '../../../src/memory/validate.ts';
import { STACK_SPECS, STACKS, stackDefaults, type Stack } from '../../../src/memory/stacks.ts';
import type { EstimateOptions } from '../../../src/memory/options.ts';
import { readConfigJson } from '../../../src/memory/config-json.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

function resolved(options: EstimateOptions): ResolvedEstimate {
  const outcome = resolveEstimateOptions(options);
  if (!outcome.ok) throw new Error(outcome.errors.map((e) => e.message).join('; '));
  return outcome.value;
}

/** What each tool sets, as its cited line says, for a bf16 checkpoint (Llama 3 8B) and an fp32 one (GPT-2), full fine-tune. */
const CITED: Readonly<
  Record<
    Stack,
    {
      bf16Checkpoint: string;
      fp32Checkpoint: string;
      impl: string;
      recompute: string;
      kernels: string;
      grads: string;
      zero: number;
      optimizer: string;
      loss: string;
    }
  >
> = {
  // transformers 5: weights as stored, bf16=True autocast, adamw_torch_fused (training_args.py default_optim).
  'hf-trainer': {
    bf16Checkpoint: 'bf16',
    fp32Checkpoint: 'amp-bf16',
    impl: 'fused',
    recompute: 'none',
    kernels: 'eager',
    grads: 'free',
    zero: 0,
    optimizer: 'adamw',
    loss: 'eager',
  },
  // TRL 1.10: dtype float32 (trainer/utils.py:1144), bf16 on, gradient_checkpointing=True (base_config.py:61),
  // loss_type chunked_nll: head + loss per 256-token chunk under checkpoint (sft_config.py:336, sft_trainer.py:214).
  trl: {
    bf16Checkpoint: 'amp-bf16',
    fp32Checkpoint: 'amp-bf16',
    impl: 'fused',
    recompute: 'full',
    kernels: 'eager',
    grads: 'free',
    zero: 0,
    optimizer: 'adamw',
    loss: 'cut',
  },
  // PyTorch: float32 default dtype, autocast, foreach on CUDA (_default_to_fused_or_foreach).
  pytorch: {
    bf16Checkpoint: 'amp-bf16',
    fp32Checkpoint: 'amp-bf16',
    impl: 'foreach',
    recompute: 'none',
    kernels: 'eager',
    grads: 'free',
    zero: 0,
    optimizer: 'adamw',
    loss: 'eager',
  },
  // DeepSpeed 0.19.6: bf16 weights, fp32 master, "AdamW" builds FusedAdam (engine.py:2133-2135).
  deepspeed: {
    bf16Checkpoint: 'mixed-bf16',
    fp32Checkpoint: 'mixed-bf16',
    impl: 'fused',
    recompute: 'none',
    kernels: 'eager',
    grads: 'free',
    zero: 0,
    optimizer: 'adamw',
    loss: 'eager',
  },
  // FSDP2: MixedPrecisionPolicy(bf16 params, fp32 reduce) over fp32 shards; fully_shard is ZeRO-3.
  fsdp2: {
    bf16Checkpoint: 'mixed-bf16',
    fp32Checkpoint: 'mixed-bf16',
    impl: 'foreach',
    recompute: 'none',
    kernels: 'eager',
    grads: 'free',
    zero: 3,
    optimizer: 'adamw',
    loss: 'eager',
  },
  // Megatron-Core 0.20.0: Float16Optimizer fp32 main params, TE kernels, contiguous grad buffer, FusedAdam.
  megatron: {
    bf16Checkpoint: 'mixed-bf16',
    fp32Checkpoint: 'mixed-bf16',
    impl: 'fused',
    recompute: 'none',
    kernels: 'fused',
    grads: 'keep',
    zero: 0,
    optimizer: 'adamw',
    loss: 'vocab-parallel',
  },
  // torchtitan 0.2.2: mixed_precision_param bfloat16 (configs.py:94), fused (optimizer.py:111), FSDP over every GPU;
  // llama3_8b: SelectiveAC (op-level, config_registry.py:221), ChunkedLossWrapper (per-chunk backward in forward, :197).
  torchtitan: {
    bf16Checkpoint: 'mixed-bf16',
    fp32Checkpoint: 'mixed-bf16',
    impl: 'fused',
    recompute: 'op',
    kernels: 'eager',
    grads: 'free',
    zero: 3,
    optimizer: 'adamw',
    loss: 'fused-linear',
  },
  // torchtune 0.7.0 8B_full.yaml: dtype bf16, AdamW fused: True, activation checkpointing on, FSDP2, LinearCrossEntropyLoss.
  torchtune: {
    bf16Checkpoint: 'bf16',
    fp32Checkpoint: 'bf16',
    impl: 'fused',
    recompute: 'full',
    kernels: 'eager',
    grads: 'free',
    zero: 3,
    optimizer: 'adamw',
    loss: 'chunked',
  },
  // LLaMA-Factory 0.9.6: trainable parameters upcast to fp32 without pure_bf16 (adapter.py:337-349), checkpointing on.
  'llama-factory': {
    bf16Checkpoint: 'amp-bf16',
    fp32Checkpoint: 'amp-bf16',
    impl: 'fused',
    recompute: 'full',
    kernels: 'eager',
    grads: 'free',
    zero: 0,
    optimizer: 'adamw',
    loss: 'eager',
  },
  // axolotl 0.18.0: bf16 auto → torch_dtype bfloat16, adamw_torch_fused, gradient_checkpointing False.
  axolotl: {
    bf16Checkpoint: 'bf16',
    fp32Checkpoint: 'bf16',
    impl: 'fused',
    recompute: 'none',
    kernels: 'eager',
    grads: 'free',
    zero: 0,
    optimizer: 'adamw',
    loss: 'eager',
  },
  // Unsloth 2026.8.19: dtype None → bfloat16 (llama.py:2434-2435), use_gradient_checkpointing="unsloth",
  // unsloth_fused_ce_loss (llama.py:1497), optim "adamw_8bit" in its patched TRL configs (rl.py:3276).
  unsloth: {
    bf16Checkpoint: 'bf16',
    fp32Checkpoint: 'bf16',
    impl: 'fused',
    recompute: 'full',
    kernels: 'eager',
    grads: 'free',
    zero: 0,
    optimizer: 'adamw-8bit',
    loss: 'fused-linear',
  },
};

describe('each stack resolves to the defaults its tool sets (src/memory/stacks.ts, sources per line)', () => {
  test.each(STACKS)('%s', (stack) => {
    const cited = CITED[stack];
    const llama = resolved({ model: 'llama-3-8b', stack });
    expect(llama.precision).toBe(cited.bf16Checkpoint);
    expect(resolved({ model: 'gpt2', stack }).precision).toBe(cited.fp32Checkpoint);
    expect({
      impl: llama.optimizerImpl,
      recompute: llama.recompute,
      kernels: llama.kernels,
      grads: llama.grads,
      zero: llama.zero,
      optimizer: llama.optimizer,
      loss: llama.loss,
    }).toEqual({
      impl: cited.impl,
      recompute: cited.recompute,
      kernels: cited.kernels,
      grads: cited.grads,
      zero: cited.zero,
      optimizer: cited.optimizer,
      loss: cited.loss,
    });
  });

  test.each(STACKS)('%s: every default it sets and every gap it lists cites a source with a version', (stack) => {
    const defaults = stackDefaults(stack, null, 'full');
    const sources = [
      defaults.precision.source,
      ...Object.values(defaults.options).map((cited) => cited.source),
      ...defaults.notModelled.map((gap) => gap.source),
    ];
    for (const source of sources) expect(source).toMatch(/\d+(\.\d+|\.x)/);
    expect(STACK_SPECS[stack].version).toMatch(/\d/);
  });

  test('the stack the reader does not name is the Hugging Face Trainer', () => {
    expect(resolved({ model: 'gpt2' }).stack).toBe('hf-trainer');
  });
});

describe('resolution order: an explicit option > the stack default > the flag table default', () => {
  test('an option given wins over the stack, and the stack then does not list it as set', () => {
    const r = resolved({ model: 'llama-3-8b', stack: 'megatron', kernels: 'eager', precision: 'fp32' });
    expect(r.kernels).toBe('eager');
    expect(r.precision).toBe('fp32');
    expect(r.stackSettings.map((s) => s.flag)).not.toContain('kernels');
    expect(r.stackSettings.map((s) => s.flag)).not.toContain('precision');
  });

  test('a stack default wins over the flag table default (Megatron: fused kernels, kept gradients)', () => {
    const megatron = resolved({ model: 'llama-3-8b', stack: 'megatron' });
    const trainer = resolved({ model: 'llama-3-8b', stack: 'hf-trainer' });
    expect([megatron.kernels, megatron.grads]).toEqual(['fused', 'keep']);
    expect([trainer.kernels, trainer.grads]).toEqual(['eager', 'free']);
    expect(megatron.stackSettings).toContainEqual(expect.objectContaining({ flag: 'kernels', value: 'fused' }));
  });

  test.each(STACKS)(
    '%s: gradients in fp32 buffers only where the tool keeps them (Megatron arguments.py:1204-1217), else the weights’ dtype',
    (stack) => {
      expect(resolved({ model: 'llama-3-8b', stack }).gradDtype).toBe(stack === 'megatron' ? 'fp32' : 'param');
    },
  );

  test('Megatron’s fp32 gradient buffers follow --bf16 only: with --precision mixed-fp16 the gradients stay 16-bit, unlisted', () => {
    const fp16 = resolved({ model: 'llama-3-8b', stack: 'megatron', precision: 'mixed-fp16' });
    expect(fp16.gradDtype).toBe('param');
    expect(fp16.stackSettings.map((s) => s.flag)).not.toContain('grad-dtype');
    expect(resolved({ model: 'llama-3-8b', stack: 'megatron' }).stackSettings.map((s) => s.flag)).toContain('grad-dtype');
  });

  test("QLoRA's own checkpointing (prepare_model_for_kbit_training) wins over a stack that does not checkpoint", () => {
    const r = resolved({ model: 'llama-3-8b', stack: 'axolotl', finetune: 'qlora' });
    expect(r.recompute).toBe('full');
    expect(r.stackSettings.map((s) => s.flag)).not.toContain('recompute');
  });

  test('LLaMA-Factory upcasts a full fine-tune to fp32 but leaves a LoRA base as loaded (adapter.py:337-349)', () => {
    expect(resolved({ model: 'llama-3-8b', stack: 'llama-factory', finetune: 'full' }).precision).toBe('amp-bf16');
    expect(resolved({ model: 'llama-3-8b', stack: 'llama-factory', finetune: 'lora' }).precision).toBe('bf16');
  });

  test('a config.json stored dtype reaches the stacks that load as stored, and "auto" or none reads as float32', () => {
    const shape = {
      model_type: 'llama',
      hidden_size: 256,
      num_hidden_layers: 2,
      num_attention_heads: 4,
      intermediate_size: 512,
      vocab_size: 1000,
      max_position_embeddings: 128,
    };
    const read = (json: object) => {
      const reading = readConfigJson(json);
      if (!reading.ok) throw new Error('config did not read');
      return reading.config;
    };
    expect(resolved({ modelConfig: read({ ...shape, dtype: 'bfloat16' }) }).precision).toBe('bf16');
    expect(resolved({ modelConfig: read({ ...shape, torch_dtype: 'float16' }) }).precision).toBe('bf16');
    expect(resolved({ modelConfig: read({ ...shape, torch_dtype: 'auto' }) }).precision).toBe('amp-bf16');
    expect(resolved({ modelConfig: read(shape) }).precision).toBe('amp-bf16');
  });

  test('a stack sets the adapter dtype for LoRA and QLoRA only (torchtune 0.7.0 8B_lora.yaml:99 dtype: bf16)', () => {
    const options = { model: 'llama-3-8b', stack: 'torchtune' } as const;
    const lora = resolved({ ...options, finetune: 'lora' });
    expect(lora.loraDtype).toBe('bf16');
    expect(lora.stackSettings).toContainEqual(expect.objectContaining({ flag: 'lora-dtype', value: 'bf16' }));
    expect(resolved({ ...options, finetune: 'qlora' }).loraDtype).toBe('bf16');
    expect(resolved({ ...options, finetune: 'full' }).stackSettings.map((s) => s.flag)).not.toContain('lora-dtype');
    expect(resolved({ ...options, finetune: 'lora', loraDtype: 'fp32' }).loraDtype).toBe('fp32');
  });

  test('TRL builds its LoraConfig with lora_dropout 0.05 (model_config.py:115-118); PEFT, LLaMA-Factory and axolotl with 0', () => {
    const lora = (stack: Stack) => resolved({ model: 'llama-3-8b', stack, finetune: 'lora' });
    expect(lora('trl').loraDropout).toBe(0.05);
    expect(lora('trl').stackSettings).toContainEqual(expect.objectContaining({ flag: 'lora-dropout', value: '0.05' }));
    expect([lora('hf-trainer'), lora('llama-factory'), lora('axolotl')].map((r) => r.loraDropout)).toEqual([0, 0, 0]);
    expect(resolved({ model: 'llama-3-8b', stack: 'trl', finetune: 'lora', loraDropout: 0 }).loraDropout).toBe(0);
    expect(resolved({ model: 'llama-3-8b', stack: 'trl' }).stackSettings.map((s) => s.flag)).not.toContain('lora-dropout');
  });

  test("TRL keeps a QLoRA base's other parameters in 16 bits (sft_trainer.py never calls prepare_model_for_kbit_training)", () => {
    const options = { model: 'llama-3-8b', stack: 'trl' } as const;
    const qlora = resolved({ ...options, finetune: 'qlora' });
    expect(qlora.qloraKept).toBe('16-bit');
    expect(qlora.stackSettings).toContainEqual(expect.objectContaining({ flag: 'qlora-kept', value: '16-bit' }));
    expect(resolved({ ...options, finetune: 'lora' }).stackSettings.map((s) => s.flag)).not.toContain('qlora-kept');
    expect(resolved({ ...options, stack: 'llama-factory', finetune: 'qlora' }).qloraKept).toBe('16-bit');
    // PEFT's recipe, prepare_model_for_kbit_training, is what the Trainer runs.
    expect(resolved({ ...options, stack: 'hf-trainer', finetune: 'qlora' }).qloraKept).toBe('fp32');
  });

  test("a loss the reader gives wins over the stack's (Unsloth: fused-linear unless --loss says otherwise)", () => {
    expect(resolved({ model: 'llama-3-8b', stack: 'unsloth', loss: 'in-place' }).loss).toBe('in-place');
    expect(resolved({ model: 'llama-3-8b', stack: 'unsloth', optimizer: 'adamw' }).optimizer).toBe('adamw');
  });

  test('a bad stack names the field', () => {
    const outcome = resolveEstimateOptions({ model: 'gpt2', stack: 'keras' as Stack });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok)
      expect(outcome.errors).toEqual([
        {
          field: 'stack',
          message: expect.stringContaining('invalid stack: keras'),
          problem: {
            code: 'notAChoice',
            params: { flag: 'stack', value: 'keras', allowed: expect.arrayContaining(['hf-trainer', 'pytorch']) },
          },
        },
      ]);
  });
});

describe('the Trainer example of issue #28: Llama 3 8B full fine-tune, one 2,048-token sequence', () => {
  const job = { model: 'llama-3-8b', gpu: 'rtx-4090', microBatch: 1, seq: 2048 } as const;

  test('foreach AdamW keeps a √v list of 4 bytes per parameter that fused does not (torch/optim/adamw.py)', () => {
    const foreach = estimateOrThrow({ ...job, stack: 'pytorch', optimizerImpl: 'foreach' });
    const fused = estimateOrThrow({ ...job, stack: 'pytorch', optimizerImpl: 'fused' });
    const temporaries = (r: typeof foreach) => r.lines.find((l) => l.id === 'optimizer-temporaries')?.bytes ?? 0;
    expect(temporaries(foreach)).toBe(4 * foreach.params);
    expect(temporaries(fused)).toBe(0);
    // Issue #28: "Lesson 1's 150 GiB for Llama 3 8B falls to 122 GiB with fused" (fp32 weights under autocast).
    expect(foreach.perGpu.total / GIB).toBeCloseTo(150.06, 2);
    expect(fused.perGpu.total / GIB).toBeCloseTo(122.45, 2);
  });

  test('transformers 5 keeps the checkpoint bf16: bf16 weights, gradients and moments, about 61 GiB (issue #28)', () => {
    const trainer = estimateOrThrow(job);
    expect(trainer.resolved.stack).toBe('hf-trainer');
    expect(trainer.resolved.precision).toBe('bf16');
    expect(trainer.resolved.optimizerImpl).toBe('fused');
    // 8 bytes per parameter of model states: 2 (weights) + 2 (gradients) + 2 × 2 (AdamW moments in bf16).
    expect(trainer.perGpu.weights + trainer.perGpu.gradients + trainer.perGpu.optimizer).toBe(8 * trainer.params);
    expect(Math.round(trainer.perGpu.total / GIB)).toBe(61);
  });
});
