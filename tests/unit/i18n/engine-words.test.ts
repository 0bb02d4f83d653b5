import { describe, expect, test } from 'vitest';
import { CALCULATORS, type CalculatorId } from '../../../src/components/calculators/specs';
import { compute, CUSTOM_FIELDS } from '../../../src/components/calculators/calculator-state';
import {
  computeDiffusion,
  DIFFUSION_DEFAULTS,
  pickPipeline,
  withSetting,
} from '../../../src/components/diffusion/diffusion-state';
import { modelFromLink } from '../../../src/components/model-source/model-link';
import { MESSAGES } from '../../../src/i18n/messages/index';
import {
  DIFFUSION_OFFLOADS,
  DIFFUSION_PRESETS,
  FLAGS,
  flagNamed,
  readConfigJson,
  type MemoryLine,
  type RawFlags,
} from '../../../src/memory/index';

const ZH = MESSAGES['zh-cn'];
/** Whether a text has Chinese in it. */
const CHINESE = /[\u4e00-\u9fff]/;

/** The settings of calculator `id` with one field changed to each value a form offers for it. */
function variations(id: CalculatorId): RawFlags[] {
  const { defaults, fields } = CALCULATORS[id];
  const out: RawFlags[] = [defaults, { ...defaults, mode: 'infer' }, { ...defaults, dp: '8', zero: '3' }];
  for (const name of [...fields, ...CUSTOM_FIELDS]) {
    const spec = flagNamed(name);
    if (spec?.kind === 'enum') for (const value of spec.values ?? []) out.push({ ...defaults, [name]: value });
    if (spec?.kind === 'boolean') out.push({ ...defaults, [name]: true });
  }
  out.push({ ...defaults, offload: 'optimizer', 'offload-device': 'nvme', zero: '3' });
  out.push({ ...defaults, finetune: 'qlora', dora: true, 'lora-dropout': '0.1', 'activation-offload': 'streamed' });
  out.push({ ...defaults, teacher: 'gpt2-xl', fp8: 'te', recompute: 'full' });
  return out;
}

/** Every breakdown line the calculators show across those settings. */
function calculatorLines(): MemoryLine[] {
  const lines: MemoryLine[] = [];
  for (const id of Object.keys(CALCULATORS) as CalculatorId[]) {
    for (const raw of variations(id)) {
      const computed = compute(id, raw);
      if (computed.ok) for (const { result } of computed.results) lines.push(...result.lines);
    }
  }
  return lines;
}

describe('the engine’s words in Chinese', () => {
  test('every flag of the engine has a Chinese label and hint', () => {
    const missing = FLAGS.filter((flag) => !CHINESE.test(ZH.engine.flags[flag.flag]?.help ?? ''));
    expect(missing.map((flag) => flag.flag)).toEqual([]);
  });

  test('every breakdown line a calculator shows is worded in Chinese', () => {
    const lines = calculatorLines();
    const ids = new Set(lines.map((line) => line.id));
    // The walk reaches the lines of weights, gradients, optimizer, activations, the KV cache and the overhead.
    expect(ids.size).toBeGreaterThan(20);
    const unworded = [...ids].filter((id) => !CHINESE.test(ZH.engine.lineLabel(lines.find((line) => line.id === id)!)));
    expect(unworded).toEqual([]);
  });

  test('English keeps the engine’s own label, numbers included', () => {
    const computed = compute('breakdown', CALCULATORS.breakdown.defaults);
    if (!computed.ok) throw new Error('the breakdown calculator’s defaults must compute');
    for (const line of computed.results[0]!.result.lines) expect(MESSAGES.en.engine.lineLabel(line)).toBe(line.label);
  });

  test('every line of every image and video pipeline is worded in Chinese', () => {
    const unworded = new Set<string>();
    for (const preset of DIFFUSION_PRESETS) {
      for (const offload of DIFFUSION_OFFLOADS) {
        const settings = withSetting(pickPipeline(DIFFUSION_DEFAULTS, preset.id), 'offload', offload);
        const computed = computeDiffusion(settings);
        if (!computed.ok) continue;
        for (const line of computed.view.result.lines) {
          if (!CHINESE.test(ZH.diffusion.lineLabel(line))) unworded.add(line.id);
        }
      }
    }
    expect([...unworded]).toEqual([]);
  });

  test('a value of the wrong kind is explained in Chinese, and in English as the CLI says it', () => {
    const bad: [CalculatorId, RawFlags][] = [
      ['breakdown', { 'micro-batch': 'many' }],
      ['breakdown', { 'micro-batch': '1.5' }],
      ['breakdown', { 'micro-batch': '0' }],
      ['breakdown', { 'micro-batch': '999t' }],
      ['breakdown', { precision: 'fp9' }],
      ['parallelism', { sp: 'perhaps' }],
      ['lora', { 'lora-rank': '0' }],
    ];
    const codes = new Set<string>();
    for (const [id, raw] of bad) {
      const computed = compute(id, { ...CALCULATORS[id].defaults, ...raw });
      expect(computed.ok, JSON.stringify(raw)).toBe(false);
      if (computed.ok) continue;
      for (const error of computed.errors) {
        codes.add(error.problem.code);
        expect(MESSAGES.en.engine.fieldError(error)).toBe(error.message);
        const chinese = ZH.engine.fieldError(error);
        expect(chinese, error.message).toMatch(CHINESE);
        expect(chinese).not.toContain(error.message);
      }
    }
    // Every check a calculator's field can fail (`notPositive` guards the planner's amounts only).
    expect([...codes].sort()).toEqual(
      ['belowMinimum', 'notAChoice', 'notANumber', 'notTrueOrFalse', 'notWhole', 'tooLarge'].sort(),
    );
  });

  test('the calculators’ bars are labelled in the page’s language', () => {
    const options = {
      model: 'llama-3.1-8b',
      precision: 'mixed-bf16',
      recompute: 'full',
      dp: 8,
      zero: 3,
      offload: 'optimizer',
    } as const;
    const english = CALCULATORS.stack.scenarios(options).map((bar) => bar.label);
    const chinese = CALCULATORS.stack.scenarios(options, ZH.engine.scenarios).map((bar) => bar.label);
    expect(chinese).toHaveLength(english.length);
    expect(chinese.filter((label) => CHINESE.test(label)).length).toBeGreaterThanOrEqual(3);
    expect(chinese.every((label, i) => label !== english[i] || !/[a-z]{3,} [a-z]{3,}/.test(label))).toBe(true);
  });

  test('a config.json that cannot be read says why in Chinese', () => {
    const files = [
      '{ "model_type": "llama"',
      '[1, 2]',
      JSON.stringify({ model_type: 'llama', hidden_size: 4096, num_hidden_layers: 32, vocab_size: 1000 }),
      JSON.stringify({ model_type: 'llama', hidden_size: -1, num_hidden_layers: 32, num_attention_heads: 32, vocab_size: 1000 }),
      'x'.repeat(2_000_000),
    ];
    for (const file of files) {
      const reading = readConfigJson(file);
      expect(reading.ok).toBe(false);
      if (reading.ok) continue;
      for (const error of reading.errors) {
        expect(error.problem, error.message).toBeDefined();
        expect(ZH.engine.fieldError(error)).toMatch(CHINESE);
      }
    }
  });

  test('a damaged model link says why in the page’s language', () => {
    const query = new URLSearchParams({ hub: 'not an id', config: 'e30' });
    const chinese = modelFromLink(query, ZH.modelSourceErrors);
    const english = modelFromLink(query);
    expect(chinese.kind === 'error' ? chinese.errors[0]?.message : '').toMatch(CHINESE);
    expect(english.kind === 'error' ? english.errors[0]?.message : '').toContain('is not a Hugging Face model id');
  });

  test('the image and video generation calculator’s field errors are worded in Chinese', () => {
    const codes = new Set<string>();
    for (const [flag, value] of [
      ['steps', 'many'],
      ['steps', '0'],
      ['frames', '100000'],
      ['resolution', '8x8'],
      ['weights', 'fp9'],
    ] as const) {
      const computed = computeDiffusion(withSetting(DIFFUSION_DEFAULTS, flag, value));
      expect(computed.ok, `${flag}=${value}`).toBe(false);
      if (computed.ok) continue;
      for (const error of computed.errors) {
        codes.add(error.problem.code);
        expect(ZH.engine.fieldError(error), error.message).toMatch(CHINESE);
      }
    }
    expect([...codes].sort()).toEqual(['notAChoice', 'notANumber', 'outOfRange']);
  });
});
