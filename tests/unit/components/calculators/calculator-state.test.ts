import { describe, expect, test } from 'vitest';
import {
  changedFromDefaults,
  compute,
  effectiveFlags,
  fromQuery,
  visibleFields,
} from '../../../../src/components/calculators/calculator-state';
import { CALCULATORS, type CalculatorId } from '../../../../src/components/calculators/specs';
import { formatEstimateFlags } from '../../../../src/memory/index';

const IDS = Object.keys(CALCULATORS) as CalculatorId[];

describe('a calculator never depends on a setting it does not show', () => {
  test.each(IDS)('%s: every flag of its printed command is the model, the GPU or a visible field', (id) => {
    const raw = fromQuery(id, '');
    const computed = compute(id, raw);
    if (!computed.ok) throw new Error(JSON.stringify(computed.errors));
    const printed = Object.keys(formatEstimateFlags(computed.results[computed.results.length - 1]?.options ?? {}));
    const visible = new Set(['model', 'gpu', ...visibleFields(id, raw)]);
    for (const flag of printed) expect(visible, `--${flag}`).toContain(flag);
  });

  test('the gradient-checkpointing calculator shows the data parallelism its defaults set', () => {
    expect(visibleFields('gradient-checkpointing', fromQuery('gradient-checkpointing', ''))).toEqual(
      expect.arrayContaining(['dp', 'zero']),
    );
  });

  test('training-only fields are hidden, and not computed, in inference mode (and the reverse)', () => {
    const train = visibleFields('breakdown', { model: 'gpt2', mode: 'train' });
    const infer = visibleFields('breakdown', { model: 'gpt2', mode: 'infer' });
    expect(train).toContain('precision');
    expect(train).not.toContain('tokens');
    expect(infer).toContain('tokens');
    expect(infer).not.toContain('precision');
    expect(effectiveFlags('breakdown', { model: 'gpt2', mode: 'infer', precision: 'fp32' })).not.toHaveProperty('precision');
  });
});

describe('changedFromDefaults(flags)', () => {
  test('names each setting that differs from the engine default, with that default', () => {
    expect(changedFromDefaults({ model: 'gpt2', precision: 'amp-bf16', optimizer: 'adamw', seq: '2048' })).toEqual([
      { flag: 'precision', value: 'amp-bf16', default: 'mixed-bf16' },
      { flag: 'seq', value: '2048', default: 'model context' },
    ]);
  });
});

describe('the step fields of lesson 1’s calculator', () => {
  test('the engine’s new choices are fields, and LoRA’s rank and targets appear only for a LoRA or QLoRA fine-tune', () => {
    const full = visibleFields('breakdown', { model: 'gpt2' });
    expect(full).toEqual(expect.arrayContaining(['optimizer-impl', 'grads', 'attention', 'kernels', 'finetune']));
    expect(full).not.toContain('lora-rank');
    expect(visibleFields('breakdown', { model: 'gpt2', finetune: 'qlora' })).toEqual(
      expect.arrayContaining(['lora-rank', 'lora-targets']),
    );
  });

  test('a URL query with the new flags reaches the engine', () => {
    const computed = compute('breakdown', fromQuery('breakdown', '?finetune=qlora&optimizer-impl=fused&grads=keep'));
    if (!computed.ok) throw new Error(JSON.stringify(computed.errors));
    expect(computed.options).toMatchObject({ finetune: 'qlora', optimizerImpl: 'fused', grads: 'keep' });
  });
});
