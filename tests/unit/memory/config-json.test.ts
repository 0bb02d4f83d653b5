/** readConfigJson on bad and unusual input: one clear error naming the key, or a warning that says what was guessed. */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { countParams } from '../../../src/memory/index.ts';
import { MAX_CONFIG_JSON_BYTES, readConfigJson } from '../../../src/memory/config-json.ts';

/** A small Llama-style config, valid as it stands. */
const LLAMA = {
  model_type: 'llama',
  hidden_size: 256,
  num_hidden_layers: 2,
  num_attention_heads: 4,
  num_key_value_heads: 2,
  intermediate_size: 512,
  vocab_size: 1000,
};

function errorsOf(input: unknown) {
  const reading = readConfigJson(input);
  if (reading.ok) throw new Error('expected errors');
  return reading.errors;
}

describe('readConfigJson: bad input', () => {
  test('malformed JSON is one error on the file', () => {
    const errors = errorsOf('{"hidden_size": 4096,');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.field).toBe('config');
    expect(errors[0]?.message).toMatch(/not valid JSON/);
  });

  test('a JSON array or number is not a config', () => {
    expect(errorsOf('[1, 2]')[0]?.message).toMatch(/one JSON object/);
    expect(errorsOf('42')[0]?.message).toMatch(/one JSON object/);
  });

  test(`a file over ${MAX_CONFIG_JSON_BYTES} bytes is refused before parsing`, () => {
    const padded = JSON.stringify({ ...LLAMA, padding: 'x'.repeat(MAX_CONFIG_JSON_BYTES) });
    expect(errorsOf(padded)[0]?.message).toMatch(/over the 1 MB limit/);
  });

  test('a missing required key is named', () => {
    const { hidden_size: _dropped, ...rest } = LLAMA;
    const errors = errorsOf(rest);
    expect(errors.map((e) => e.field)).toEqual(['hidden_size']);
    expect(errors[0]?.message).toMatch(/hidden_size is missing/);
  });

  test.each([
    ['num_attention_heads', 0],
    ['hidden_size', -4096],
    ['num_hidden_layers', 2.5],
    ['vocab_size', '32000'],
  ])('an absurd %s (%s) is named', (key, value) => {
    const errors = errorsOf({ ...LLAMA, [key]: value });
    expect(errors.map((e) => e.field)).toEqual([key]);
    expect(errors[0]?.message).toMatch(/must be a whole number/);
  });

  test('hidden not divisible by heads without head_dim is named', () => {
    expect(errorsOf({ ...LLAMA, hidden_size: 250 }).map((e) => e.field)).toEqual(['hidden_size']);
  });

  test('kv heads that do not divide the heads are named', () => {
    expect(errorsOf({ ...LLAMA, num_key_value_heads: 3 }).map((e) => e.field)).toEqual(['num_key_value_heads']);
  });

  test('more experts per token than experts is named', () => {
    const errors = errorsOf({ ...LLAMA, model_type: 'mixtral', num_local_experts: 4, num_experts_per_tok: 8 });
    expect(errors.map((e) => e.field)).toEqual(['num_experts_per_tok']);
  });
});

describe('readConfigJson: what it guesses, it says', () => {
  test('an unknown model_type reads the generic keys and lists the ones it used and ignored', () => {
    const reading = readConfigJson({ ...LLAMA, model_type: 'brand_new', rope_theta: 10000, fancy_gate: true });
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    const warning = reading.warnings.join(' ');
    expect(warning).toMatch(/unknown model_type 'brand_new'/);
    expect(warning).toMatch(/from hidden_size, num_hidden_layers/);
    expect(warning).toMatch(/ignored rope_theta, fancy_gate/);
  });

  test('the unknown model_type is counted as a Llama-style decoder with PretrainedConfig’s tied default', () => {
    const reading = readConfigJson({ ...LLAMA, model_type: 'brand_new' });
    if (!reading.ok) throw new Error('expected a reading');
    const h = 256;
    const layer = h * h + 2 * h * 128 + h * h + 3 * h * 512 + 2 * h;
    expect(countParams(reading.config).total).toBe(2 * layer + 1000 * h + h);
  });

  test('a multimodal config is read from its text_config, and the vision tower is said to be left out', () => {
    const reading = readConfigJson({ model_type: 'gemma3', text_config: { ...LLAMA, model_type: 'gemma3_text' } });
    if (!reading.ok) throw new Error('expected a reading');
    expect(reading.config.family).toBe('gemma3_text');
    expect(reading.warnings.join(' ')).toMatch(/text_config only/);
  });

  test('an error inside text_config names its path', () => {
    const errors = errorsOf({ model_type: 'gemma3', text_config: { ...LLAMA, vocab_size: -1 } });
    expect(errors.map((e) => e.field)).toEqual(['text_config.vocab_size']);
  });

  test('the same config as text or as an object reads the same', () => {
    expect(readConfigJson(JSON.stringify(LLAMA))).toEqual(readConfigJson(LLAMA));
  });
});

describe('readConfigJson: shapeJson, the keys the shape was read from', () => {
  const files = readdirSync(new URL('../../../src/memory/model-configs/', import.meta.url)).filter((f) => f.endsWith('.json'));
  test.each(files)('%s: reading shapeJson again gives the same shape, from fewer keys', (file) => {
    const text = readFileSync(new URL(`../../../src/memory/model-configs/${file}`, import.meta.url), 'utf8');
    const first = readConfigJson(text);
    if (!first.ok) throw new Error(first.errors.map((e) => e.message).join('; '));
    const again = readConfigJson(first.shapeJson);
    if (!again.ok) throw new Error(again.errors.map((e) => e.message).join('; '));
    expect(again.config).toEqual(first.config);
    expect(Object.keys(first.shapeJson).length).toBeLessThan(Object.keys(JSON.parse(text) as object).length);
  });

  test('a multimodal config keeps its top model_type and the text_config keys read', () => {
    const reading = readConfigJson({ model_type: 'gemma3', vision_config: { hidden_size: 1152 }, text_config: LLAMA });
    if (!reading.ok) throw new Error('expected a reading');
    expect(Object.keys(reading.shapeJson)).toEqual(['model_type', 'text_config']);
    const again = readConfigJson(reading.shapeJson);
    expect(again.ok && again.config).toEqual(reading.config);
  });
});
