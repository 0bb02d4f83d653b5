import { describe, expect, test } from 'vitest';
import { estimateMemory, type EstimateOptions } from '../../../src/memory/index.ts';

function fields(options: EstimateOptions): string[] {
  const outcome = estimateMemory(options);
  return outcome.ok ? [] : outcome.errors.map((e) => e.field);
}

describe('estimateMemory(invalid) returns { ok: false, errors } naming the field', () => {
  test.each<[string, EstimateOptions, string]>([
    ['heads not divisible by tp', { model: 'llama-2-7b', tp: 3 }, 'tp'],
    ['kv heads not dividing heads', { arch: 'llama', hidden: 4096, layers: 32, heads: 32, kvHeads: 5 }, 'kv-heads'],
    ['zero GPUs', { model: 'gpt2', dp: 0 }, 'dp'],
    ['negative batch', { model: 'gpt2', microBatch: -1 }, 'micro-batch'],
    ['fractional batch', { model: 'gpt2', microBatch: 1.5 }, 'micro-batch'],
    ['NaN sequence', { model: 'gpt2', seq: Number.NaN }, 'seq'],
    ['infinite tp', { model: 'gpt2', tp: Number.POSITIVE_INFINITY }, 'tp'],
    ['zero pipeline stages', { model: 'gpt2', pp: 0 }, 'pp'],
    ['more stages than layers', { model: 'gpt2', pp: 13 }, 'pp'],
    ['unknown model', { model: 'gpt-5' }, 'model'],
    ['no model at all', {}, 'model'],
    ['input layer on a transformer', { model: 'gpt2', inputs: 16 }, 'inputs'],
    ['zero input features', { arch: 'mlp', hidden: 64, layers: 2, inputs: 0 }, 'inputs'],
    ['custom arch without hidden', { arch: 'gpt2', layers: 2 }, 'hidden'],
    ['custom arch without layers', { arch: 'gpt2', hidden: 64 }, 'layers'],
    ['hidden not divisible by heads', { arch: 'gpt2', hidden: 100, layers: 2, heads: 3 }, 'heads'],
    ['top-k above experts', { model: 'mixtral-8x7b', topK: 9 }, 'top-k'],
    ['params with a model', { model: 'gpt2', params: 1e9 }, 'params'],
    ['optimizer offload without ZeRO', { model: 'gpt2', offload: 'optimizer' }, 'offload'],
    ['parameter offload below ZeRO-3', { model: 'gpt2', zero: 2, offload: 'optimizer+params' }, 'offload'],
    ['unknown GPU', { model: 'gpt2', gpu: 'gtx-1080' }, 'gpu'],
    ['headroom above 50 %', { model: 'gpt2', headroom: 80 }, 'headroom'],
    ['a sequence for the mlp', { model: 'demo-mlp', seq: 128 }, 'seq'],
    ['tensor parallel mlp', { model: 'demo-mlp', tp: 2 }, 'tp'],
    ['teacher in infer mode', { model: 'gpt2', teacher: 'gpt2-xl', mode: 'infer' }, 'teacher'],
    ['checkpoint segment longer than the model', { model: 'gpt2', checkpointEvery: 13 }, 'checkpoint-every'],
    ['unknown precision (untyped caller)', { model: 'gpt2', precision: 'fp8' as 'fp32' }, 'precision'],
    ['unknown ZeRO stage (untyped caller)', { model: 'gpt2', zero: 4 as 3 }, 'zero'],
  ])('%s → field %s', (_title, options, field) => {
    expect(fields(options)).toContain(field);
  });

  test('errors say what was expected and what was found', () => {
    const outcome = estimateMemory({ model: 'llama-2-7b', tp: 3 });
    // The rule comes as data too, for a page to word it in its language.
    const problem = { code: 'headsByTp', params: { heads: 32, tp: 3 } };
    expect(outcome).toEqual({
      ok: false,
      errors: [{ field: 'tp', message: 'heads (32) must be divisible by tp (3)', problem }],
    });
  });

  test('several errors are reported together', () => {
    expect(fields({ model: 'gpt2', dp: 0, microBatch: -2 })).toEqual(['micro-batch', 'dp']);
  });
});

describe('odd-but-legal input warns and says how to silence it', () => {
  test.each<[string, EstimateOptions, RegExp]>([
    ['sequence parallel without tensor parallel', { model: 'gpt2', sp: true }, /--sp has no effect/],
    ['ZeRO on one GPU', { model: 'gpt2', zero: 2 }, /shards nothing/],
    ['bf16 on a T4', { model: 'gpt2', gpu: 't4' }, /no BF16/],
    [
      'selective recompute with FlashAttention',
      { model: 'gpt2', recompute: 'selective', attention: 'sdpa' },
      /SDPA \(FlashAttention\) never stores/,
    ],
    ['training flags in infer mode', { model: 'gpt2', mode: 'infer', optimizer: 'sgd' }, /ignored in infer mode/],
    [
      'a gradient dtype in infer mode',
      { model: 'gpt2', mode: 'infer', gradDtype: 'fp32' },
      /ignored in infer mode: --grad-dtype/,
    ],
    [
      'a gradient dtype on adapters',
      { model: 'gpt2', finetune: 'lora', gradDtype: 'fp32' },
      /--grad-dtype sets a full fine-tune's gradients/,
    ],
    ['sequence beyond learned positions', { model: 'gpt2', seq: 2048 }, /1024 learned positions/],
    ['teacher with another vocabulary', { model: 'gpt2', teacher: 'llama-2-7b' }, /shared vocabulary/],
  ])('%s', (_title, options, pattern) => {
    const outcome = estimateMemory(options);
    expect(outcome.ok).toBe(true);
    if (outcome.ok) expect(outcome.result.warnings.join('\n')).toMatch(pattern);
  });
});
