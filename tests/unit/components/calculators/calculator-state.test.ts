import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import {
  changedFromDefaults,
  compute,
  effectiveFlags,
  fromQuery,
  isCustomShape,
  modelSummary,
  pickPreset,
  startCustomShape,
  isCustomField,
  visibleFields,
  type Computed,
} from '../../../../src/components/calculators/calculator-state';
import { CALCULATORS, type CalculatorId } from '../../../../src/components/calculators/specs';
import {
  estimateMemory,
  flagArgs,
  flagNamed,
  formatEstimateFlags,
  MODEL_PRESETS,
  parseEstimateFlags,
  readConfigJson,
  type RawFlags,
} from '../../../../src/memory/index';
import { runCommand } from '../../../../src/cli/command';
import { estimateCommand } from '../../../../src/cli/estimate-command';

const IDS = Object.keys(CALCULATORS) as CalculatorId[];

describe('a calculator never depends on a setting it does not show', () => {
  test.each(IDS)('%s: every flag of its printed command is the model, the GPU, the stack or a visible field', (id) => {
    const raw = fromQuery(id, '');
    const computed = compute(id, raw);
    if (!computed.ok) throw new Error(JSON.stringify(computed.errors));
    const printed = Object.keys(formatEstimateFlags(computed.results[computed.results.length - 1]?.options ?? {}));
    // The pickers every calculator shows: the model, the GPU and "How do you train?".
    const visible = new Set(['model', 'gpu', 'stack', ...visibleFields(id, raw)]);
    for (const flag of printed) expect(visible, `--${flag}`).toContain(flag);
  });

  test('the gradient-checkpointing calculator shows what its defaults train, and the LoRA fields that follow', () => {
    expect(visibleFields('gradient-checkpointing', fromQuery('gradient-checkpointing', ''))).toEqual(
      expect.arrayContaining(['finetune', 'lora-rank', 'lora-targets']),
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
      // Every stack sets the precision, so its default is the stack's, in words.
      { flag: 'precision', value: 'amp-bf16', default: flagNamed('precision')?.default },
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

describe('the LoRA lesson’s calculator: a full fine-tune beside the reader’s adapters', () => {
  /** The engine's answer for a flag set, as the CLI would compute it. */
  function engineTotal(flags: RawFlags): number {
    const parsed = parseEstimateFlags(flags);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const outcome = estimateMemory(parsed.options);
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.errors));
    return outcome.result.perGpu.total;
  }

  test('the first bar is the same job fine-tuned in full, with the adapters’ own settings dropped; the second is the reader’s', () => {
    const raw = fromQuery('lora', '?finetune=lora&lora-rank=64&lora-dropout=0.05&dora=true');
    const computed = compute('lora', raw);
    if (!computed.ok) throw new Error(JSON.stringify(computed.errors));
    const [full, adapters] = computed.results;
    expect(full?.options).toMatchObject({ finetune: 'full', recompute: 'full', precision: 'amp-bf16' });
    for (const key of ['loraRank', 'loraTargets', 'loraDropout', 'dora']) expect(full?.options).not.toHaveProperty(key);
    expect(full?.result.warnings.join(' ')).not.toMatch(/lora|dora/i);
    const shared: RawFlags = { ...raw, finetune: 'full' };
    for (const flag of ['lora-rank', 'lora-dropout', 'dora']) delete shared[flag];
    expect(full?.result.perGpu.total).toBe(engineTotal(shared));
    expect(adapters?.options).toMatchObject({ finetune: 'lora', loraRank: 64, loraDropout: 0.05, dora: true });
    expect(adapters?.result.perGpu.total).toBe(engineTotal(raw));
    expect(adapters!.result.perGpu.total).toBeLessThan(full!.result.perGpu.total);
  });

  test('the adapters’ fields show only while the job trains adapters', () => {
    const adapterFields = ['lora-rank', 'lora-targets', 'lora-dropout', 'dora'];
    expect(visibleFields('lora', fromQuery('lora', ''))).toEqual(expect.arrayContaining(adapterFields));
    const full = visibleFields('lora', fromQuery('lora', '?finetune=full'));
    for (const flag of adapterFields) expect(full).not.toContain(flag);
    expect(effectiveFlags('lora', fromQuery('lora', '?finetune=full&dora=true'))).not.toHaveProperty('dora');
  });
});

/** The result of the settings themselves (a calculator's last scenario), or the errors as a failure. */
function lastResult(computed: Computed) {
  if (!computed.ok) throw new Error(JSON.stringify(computed.errors));
  const last = computed.results[computed.results.length - 1];
  if (last === undefined) throw new Error('no scenario');
  return last.result;
}

describe('no silent shape: the Custom form and the model it computes', () => {
  test.each(MODEL_PRESETS)('Custom… from $id computes that model: same count, same family', ({ id, config }) => {
    // An mlp has no sequence: its step is one sample wide.
    const picked: RawFlags = { ...fromQuery('stack', ''), model: id, ...(config.arch === 'mlp' ? { seq: '1' } : {}) };
    const preset = modelSummary(picked, lastResult(compute('stack', picked)));
    const custom = startCustomShape(picked);
    expect(isCustomShape(custom)).toBe(true);
    const summary = modelSummary(custom, lastResult(compute('stack', custom)));
    expect(summary).toEqual({ ...preset, custom: true });
  });

  test('typing a shape into the Custom form keeps the family it started from (Qwen2.5 7B, not GPT-2)', () => {
    const custom = startCustomShape({ ...fromQuery('stack', ''), model: 'qwen2.5-7b' });
    const typed = { ...custom, layers: '14' };
    const summary = modelSummary(typed, lastResult(compute('stack', typed)));
    expect(summary.family).toBe('qwen2');
    expect(summary.preset).toBe('Qwen2.5 7B');
    const full = modelSummary(custom, lastResult(compute('stack', custom)));
    expect(summary.params).toBeLessThan(full.params);
  });

  test('the Custom form starts from the model’s own tie, and its two head fields change the count it shows', () => {
    const qwen = MODEL_PRESETS.find((p) => p.id === 'qwen2.5-7b')!.config;
    const custom = startCustomShape({ ...fromQuery('stack', ''), model: 'qwen2.5-7b' });
    expect(custom['tie-embeddings']).toBe(String(qwen.tiedEmbeddings));
    const params = (raw: RawFlags) => modelSummary(raw, lastResult(compute('stack', raw))).params;
    const untied = params(custom);
    const lmHead = qwen.vocab * qwen.hidden;
    expect(untied - params({ ...custom, 'tie-embeddings': true })).toBe(lmHead);
    // score = Linear(h, 2, bias=False) in place of lm_head.
    expect(untied - params({ ...custom, 'num-labels': '2' })).toBe(lmHead - 2 * qwen.hidden);
    expect(isCustomField('tie-embeddings')).toBe(true);
    expect(isCustomField('dropout')).toBe(false);
  });

  test('a shape from scratch names its bare architecture, and its URL keeps no preset', () => {
    const raw = fromQuery('stack', '?arch=llama&hidden=4096&layers=32&heads=32&ffn=11008&vocab=32000');
    expect(raw).not.toHaveProperty('model');
    const summary = modelSummary(raw, lastResult(compute('stack', raw)));
    expect(summary).toMatchObject({ preset: null, custom: true, family: 'llama' });
  });

  test('a shared Custom link keeps its base preset, and picking a preset drops the custom fields', () => {
    const raw = fromQuery('stack', '?model=qwen3-8b&arch=llama&hidden=4096&layers=18');
    expect(raw).toMatchObject({ model: 'qwen3-8b', layers: '18' });
    expect(modelSummary(raw, lastResult(compute('stack', raw))).family).toBe('qwen3');
    const picked = pickPreset(raw, 'gpt2');
    expect(isCustomShape(picked)).toBe(false);
    expect(picked).not.toHaveProperty('layers');
  });
});

describe('a model read from a config.json', () => {
  const file = new URL('../../../../src/memory/model-configs/qwen2.5-7b.json', import.meta.url);
  const reading = readConfigJson(readFileSync(file, 'utf8'));
  if (!reading.ok) throw new Error('qwen2.5-7b.json reads');

  test('replaces the preset and a custom shape: the engine gets neither, and computes what estimate --config prints', () => {
    // Precision, optimizer and recompute explicit, so the comparison holds whatever the engine's defaults become.
    const raw: RawFlags = {
      ...fromQuery('stack', '?precision=amp-bf16&optimizer=adamw&recompute=none'),
      model: 'gpt2',
      arch: 'llama',
      hidden: '64',
    };
    expect(effectiveFlags('stack', raw, true)).not.toHaveProperty('model');
    expect(effectiveFlags('stack', raw, true)).not.toHaveProperty('hidden');
    const computed = compute('stack', raw, reading.config);
    if (!computed.ok) throw new Error(JSON.stringify(computed.errors));
    const last = computed.results[computed.results.length - 1]!;
    const cli = runCommand(estimateCommand, [
      '--config',
      fileURLToPath(file),
      ...flagArgs(formatEstimateFlags(last.options)),
      '--json',
    ]);
    expect(cli.code, cli.stderr).toBe(0);
    const printed = JSON.parse(cli.stdout) as { params: number; perGpu: { total: number } };
    expect(last.result.params).toBe(printed.params);
    expect(last.result.perGpu.total).toBe(printed.perGpu.total);
    expect(modelSummary(raw, last.result).family).toBe('qwen2');
  });
});
