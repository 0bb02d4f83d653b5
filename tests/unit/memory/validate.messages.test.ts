/**
 * The engine's error and warning messages are the product's interface: a reader sees them next to a field or on a
 * terminal. Each is pinned here as it reads.
 */
import { describe, expect, test } from 'vitest';
import { estimateMemory, type EstimateOptions } from '../../../src/memory/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

const errorsOf = (options: EstimateOptions) => {
  const outcome = estimateMemory(options);
  return outcome.ok ? [] : outcome.errors.map((e) => `--${e.field}: ${e.message}`);
};
const warningsOf = (options: EstimateOptions) => estimateOrThrow(options).warnings;

describe('errors, each naming its flag', () => {
  test('no model', () => {
    expect(errorsOf({})).toMatchInlineSnapshot(`
      [
        "--model: give --model ID, --arch with --hidden and --layers, or --params N (models: gpt2, gpt2-medium, gpt2-large, gpt2-xl, bert-base-uncased, llama-2-7b, llama-2-13b, llama-2-70b, llama-3-8b, llama-3-70b, mistral-7b, mixtral-8x7b, demo-tiny-gpt, demo-mlp, llama-3.1-8b, llama-3.1-70b, llama-3.1-405b, llama-3.2-1b, llama-3.2-3b, qwen2.5-7b, qwen2.5-72b, qwen3-0.6b, qwen3-8b, qwen3-32b, qwen3-30b-a3b, qwen3-235b-a22b, gemma-2-9b, gemma-3-1b, phi-4, mistral-nemo, mistral-small-24b, mixtral-8x22b, glm-4-9b, gpt-oss-20b, gpt-oss-120b, deepseek-v2-lite, deepseek-v3)",
      ]
    `);
  });
  test('an unknown model and a bad enumeration', () => {
    expect(errorsOf({ model: 'gpt5', precision: 'fp8' as 'fp32' })).toMatchInlineSnapshot(`
      [
        "--model: unknown model 'gpt5' (expected one of gpt2, gpt2-medium, gpt2-large, gpt2-xl, bert-base-uncased, llama-2-7b, llama-2-13b, llama-2-70b, llama-3-8b, llama-3-70b, mistral-7b, mixtral-8x7b, demo-tiny-gpt, demo-mlp, llama-3.1-8b, llama-3.1-70b, llama-3.1-405b, llama-3.2-1b, llama-3.2-3b, qwen2.5-7b, qwen2.5-72b, qwen3-0.6b, qwen3-8b, qwen3-32b, qwen3-30b-a3b, qwen3-235b-a22b, gemma-2-9b, gemma-3-1b, phi-4, mistral-nemo, mistral-small-24b, mixtral-8x22b, glm-4-9b, gpt-oss-20b, gpt-oss-120b, deepseek-v2-lite, deepseek-v3)",
        "--precision: invalid precision: fp8 (expected fp32, amp-fp16, amp-bf16, mixed-fp16, mixed-bf16, bf16)",
      ]
    `);
  });
  test('counts out of range', () => {
    expect(errorsOf({ model: 'gpt2', microBatch: -1, seq: 1e15, dp: 1.5 })).toMatchInlineSnapshot(`
      [
        "--micro-batch: micro-batch must be at least 1, got -1",
        "--dp: dp must be a whole number, got 1.5",
        "--seq: seq is too large (1000000000000000 > 100000000)",
      ]
    `);
  });
  test('tensor and pipeline degrees the model cannot take', () => {
    expect(errorsOf({ model: 'gpt2', tp: 5, pp: 13 })).toMatchInlineSnapshot(`
      [
        "--tp: heads (12) must be divisible by tp (5)",
        "--pp: pp (13) cannot exceed layers (12)",
      ]
    `);
  });
  test('offload without ZeRO', () => {
    expect(errorsOf({ model: 'gpt2', offload: 'optimizer' })).toMatchInlineSnapshot(`
      [
        "--offload: offload needs ZeRO: --zero 1, 2 or 3 (DeepSpeed ZeRO-Offload); FSDP CPU offload is --zero 3 --offload optimizer+params",
      ]
    `);
  });
  test('a custom shape that does not divide', () => {
    expect(errorsOf({ arch: 'llama', hidden: 100, layers: 2 })).toMatchInlineSnapshot(`
      [
        "--heads: --heads is required when hidden (100) is not a multiple of 64",
      ]
    `);
  });
  test('LoRA targets the architecture lacks', () => {
    expect(errorsOf({ model: 'gpt2', finetune: 'lora', loraTargets: 'gate' })).toMatchInlineSnapshot(`
      [
        "--lora-targets: gpt2 has no gate projection; choose from q,k,v,o,up,down",
      ]
    `);
  });
  test('a quantized format on a bare parameter count', () => {
    expect(errorsOf({ params: 7e9, mode: 'infer', weights: 'gptq' })).toMatchInlineSnapshot(`
      [
        "--weights: GPTQ 4-bit, group 128 quantizes Linear layers, which --params alone does not describe: give --model or --arch with a shape, or use fp32, fp16 or bf16",
      ]
    `);
  });
  test('a headroom outside 0–50 %', () => {
    expect(errorsOf({ model: 'gpt2', headroom: 80 })).toMatchInlineSnapshot(`
      [
        "--headroom: headroom must be a percentage between 0 and 50, got 80",
      ]
    `);
  });
});

describe('warnings, each saying what to do', () => {
  test('a bare parameter count', () => {
    expect(warningsOf({ params: 7e9 })).toMatchInlineSnapshot(`
      [
        "--params alone gives model states only: activations are 0. Give --model or --arch with a shape to include them",
      ]
    `);
  });
  test('selective recompute under SDPA, ZeRO on one GPU', () => {
    expect(warningsOf({ model: 'gpt2', recompute: 'selective', zero: 2 })).toMatchInlineSnapshot(`
      [
        "ZeRO stage 2 with --dp 1 shards nothing; raise --dp",
        "selective recompute drops the s×s attention activations, which SDPA (FlashAttention) never stores: no further saving; use --recompute full or --attention eager",
      ]
    `);
  });
  test('QLoRA turns checkpointing on', () => {
    expect(warningsOf({ model: 'llama-2-7b', finetune: 'qlora' })).toMatchInlineSnapshot(`
      [
        "QLoRA: prepare_model_for_kbit_training turns gradient checkpointing on, so this assumes --recompute full; pass --recompute none for a run without it",
      ]
    `);
  });
  test('training flags in inference mode', () => {
    expect(warningsOf({ model: 'gpt2', mode: 'infer', optimizer: 'sgd', zero: 1 })).toMatchInlineSnapshot(`
      [
        "ignored in infer mode: --optimizer, --zero",
      ]
    `);
  });
  test('does not fit', () => {
    expect(warningsOf({ model: 'llama-2-7b', gpu: 'rtx-4090', precision: 'mixed-bf16', optimizerImpl: 'foreach' }))
      .toMatchInlineSnapshot(`
      [
        "does not fit on the NVIDIA GeForce RTX 4090: 104.41 GiB over, counting the 10 % free margin",
      ]
    `);
  });
});
