/**
 * The config.json files derived from original parameters (scripts/model-configs/derived-configs.ts): the rule
 * reproduces released files it can be checked against, and each committed derived file is exactly its derivation.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { readConfigJson } from '../../../src/memory/config-json.ts';
import llama31_70bArgs from '../../../src/memory/model-configs/original/llama-3.1-70b.arch-args.json' with { type: 'json' };
import llama31_8bArgs from '../../../src/memory/model-configs/original/llama-3.1-8b.arch-args.json' with { type: 'json' };
import {
  computeIntermediateSize,
  DERIVED_CONFIGS,
  llamaConfigFromMetaArchArgs,
} from '../../../scripts/model-configs/derived-configs.ts';

const committed = (file: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../src/memory/model-configs/${file}`, import.meta.url), 'utf8'));

function shape(json: unknown) {
  const reading = readConfigJson(json);
  if (!reading.ok) throw new Error(reading.errors.map((e) => e.message).join('; '));
  return reading.config;
}

describe('transformers convert_llama_weights_to_hf.py applied to Meta’s Llama 3.1 arch_args (llama-models sku_list.py @364ed4e)', () => {
  test.each([
    ['8B', llama31_8bArgs, 'llama-3.1-8b.json'],
    ['70B', llama31_70bArgs, 'llama-3.1-70b.json'],
  ])('%s: the derived config.json reads to the same shape as the released one', (_size, args, released) => {
    expect(shape(llamaConfigFromMetaArchArgs(args, 'bfloat16'))).toEqual(shape(committed(released)));
  });

  test('compute_intermediate_size rounds 1.2 × int(8 · 16384 / 3) = 52428 up to a multiple of 4096: 53248', () => {
    expect(computeIntermediateSize(16384, 1.2, 4096)).toBe(53248);
  });
});

describe('each committed derived config.json is its derivation, not hand-edited', () => {
  test.each(DERIVED_CONFIGS.map((derived) => [derived.file, derived] as const))('%s', (file, derived) => {
    expect(committed(file)).toEqual(derived.derive());
  });
});
