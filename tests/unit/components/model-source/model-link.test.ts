/** A loaded model in the URL: every committed config.json survives the round trip, and a damaged link is one field error. */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { readLoadedModel } from '../../../../src/components/model-source/loaded-model';
import { CONFIG_PARAM, HUB_PARAM, modelFromLink, modelLinkParams } from '../../../../src/components/model-source/model-link';

const DIR = new URL('../../../../src/memory/model-configs/', import.meta.url);
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.json'));
const text = (file: string) => readFileSync(new URL(file, DIR), 'utf8');

function loaded(input: unknown, hubId: string | null) {
  const reading = readLoadedModel(input, hubId);
  if (!reading.ok) throw new Error(reading.errors.map((e) => e.message).join('; '));
  return reading.model;
}

describe('modelLinkParams → modelFromLink', () => {
  test.each(FILES)('%s: the link gives the same shape and warnings, in a fraction of the file', (file) => {
    const model = loaded(text(file), 'org/model');
    const query = new URLSearchParams(modelLinkParams(model));
    const back = modelFromLink(new URLSearchParams(query.toString()));
    if (back.kind !== 'model') throw new Error(JSON.stringify(back));
    expect(back.model.config).toEqual(model.config);
    expect(back.model.notices).toEqual(model.notices);
    expect(back.model.hubId).toBe('org/model');
    expect(query.get(CONFIG_PARAM)!.length).toBeLessThan(text(file).length);
  });

  test('a pasted model has no hub parameter, and text beyond ASCII survives', () => {
    const model = loaded(
      {
        model_type: 'модель',
        hidden_size: 64,
        num_hidden_layers: 2,
        num_attention_heads: 4,
        intermediate_size: 128,
        vocab_size: 100,
      },
      null,
    );
    const params = modelLinkParams(model);
    expect(params.map(([name]) => name)).toEqual([CONFIG_PARAM]);
    const back = modelFromLink(new URLSearchParams(params));
    expect(back.kind === 'model' && back.model.config.family).toBe('модель');
  });

  test('no config parameter: no model', () => {
    expect(modelFromLink(new URLSearchParams('model=gpt2'))).toEqual({ kind: 'none' });
  });
});

describe('modelFromLink: a damaged link is one field error', () => {
  const encode = (json: string) => Buffer.from(json).toString('base64url');
  test.each([
    ['not base64url', `${CONFIG_PARAM}=%%%`, CONFIG_PARAM, /damaged/],
    ['base64url of text that is not JSON', `${CONFIG_PARAM}=${encode('{"hidden_size":')}`, 'config', /not valid JSON/],
    [
      'JSON missing a required key',
      `${CONFIG_PARAM}=${encode('{"model_type":"llama","hidden_size":64}')}`,
      'num_hidden_layers',
      /is missing/,
    ],
    [
      'a hub id that is not one',
      `${CONFIG_PARAM}=${encode('{}')}&${HUB_PARAM}=..%2Fetc`,
      HUB_PARAM,
      /not a Hugging Face model id/,
    ],
  ])('%s', (_what, query, field, message) => {
    const back = modelFromLink(new URLSearchParams(query));
    if (back.kind !== 'error') throw new Error(JSON.stringify(back));
    expect(back.errors[0]?.field).toBe(field);
    expect(back.errors[0]?.message).toMatch(message);
  });
});
