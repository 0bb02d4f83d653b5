/**
 * The value checks every field shares are worded by the engine's words object (rule-words.ts), each reader in the
 * phrasing the CLI has always printed: these are the CLI's messages, so they must not change with the words object.
 */
import { describe, expect, test } from 'vitest';
import {
  estimateMemory,
  getDiffusionPreset,
  parseEstimateFlags,
  readConfigJson,
  wordRule,
  type EstimateOptions,
  type ShownFieldError,
} from '../../../src/memory/index.ts';
import { MAX_CONFIG_JSON_BYTES } from '../../../src/memory/config-json.ts';
import { parseDiffusionFlags } from '../../../src/memory/diffusion-flags.ts';
import { estimateDiffusion } from '../../../src/memory/diffusion.ts';
import { EXAMPLE_PRICES, parsePlanFlags } from '../../../src/planner/index.ts';

function errorsOf(outcome: { ok: true } | { ok: false; errors: readonly ShownFieldError[] }): readonly ShownFieldError[] {
  return outcome.ok ? [] : outcome.errors;
}

const LLAMA = {
  model_type: 'llama',
  hidden_size: 4096,
  num_hidden_layers: 32,
  num_attention_heads: 32,
  intermediate_size: 11008,
  vocab_size: 32000,
};

/** Wan 2.1 T2V 14B: latents of 8 px, patches of 2, so sides are multiples of 16. */
const WAN = getDiffusionPreset('wan2.1-t2v-14b')!.shape;

/** The diffusion calculator's errors for raw flags that parse but describe a run it refuses. */
function diffusionErrors(raw: Readonly<Record<string, string>>): readonly ShownFieldError[] {
  const parsed = parseDiffusionFlags(raw, WAN);
  return parsed.ok ? errorsOf(estimateDiffusion(parsed.options)) : parsed.errors;
}

/** Bad input through each reader, and the message the CLI prints for it. */
const CASES: readonly (readonly [string, () => readonly ShownFieldError[], string])[] = [
  // The option reader: the flag is the sentence's subject.
  [
    'option reader, a choice',
    () => errorsOf(estimateMemory({ model: 'gpt2', zero: 4 } as unknown as EstimateOptions)),
    'invalid zero: 4 (expected 0, 1, 2, 3)',
  ],
  [
    'option reader, a whole number',
    () => errorsOf(estimateMemory({ model: 'gpt2', tp: 1.5 })),
    'tp must be a whole number, got 1.5',
  ],
  ['option reader, a minimum', () => errorsOf(estimateMemory({ model: 'gpt2', tp: 0 })), 'tp must be at least 1, got 0'],
  [
    'option reader, a limit',
    () => errorsOf(estimateMemory({ model: 'gpt2', microBatch: 2_000_000 })),
    'micro-batch is too large (2000000 > 1000000)',
  ],
  [
    'option reader, a number',
    () => errorsOf(estimateMemory({ model: 'gpt2', tp: 'x' } as unknown as EstimateOptions)),
    'tp must be a number, got x',
  ],
  [
    'option reader, a switch',
    () => errorsOf(estimateMemory({ model: 'gpt2', sp: 'perhaps' } as unknown as EstimateOptions)),
    'sp must be true or false',
  ],
  [
    'option reader, an amount',
    () => errorsOf(parsePlanFlags({ model: 'gpt2', 'max-host-gb': '-1' }, EXAMPLE_PRICES)),
    'max-host-gb must be above 0, got -1',
  ],
  // The flag parser: the field sits beside the sentence, the raw text in quotes.
  ['flag parser, a number', () => errorsOf(parseEstimateFlags({ tp: 'x' })), "expected a number, got 'x'"],
  ['flag parser, a switch', () => errorsOf(parseEstimateFlags({ dropout: 'maybe' })), "expected true or false, got 'maybe'"],
  ['flag parser, an alias', () => errorsOf(parseEstimateFlags({ 'no-dropout': 'maybe' })), "expected true or false, got 'maybe'"],
  ['flag parser, a choice', () => errorsOf(parseEstimateFlags({ zero: '4' })), "invalid zero: '4' (expected 0, 1, 2, 3)"],
  // A config.json: the key comes first.
  [
    'config.json, a missing key',
    () => errorsOf(readConfigJson({ ...LLAMA, hidden_size: undefined })),
    'hidden_size is missing; the model cannot be counted without it',
  ],
  [
    'config.json, a count',
    () => errorsOf(readConfigJson({ ...LLAMA, num_hidden_layers: 2.5 })),
    'num_hidden_layers must be a whole number from 1 to 10000000, got 2.5',
  ],
  [
    'config.json, a switch',
    () => errorsOf(readConfigJson({ ...LLAMA, tie_word_embeddings: 'yes' })),
    'tie_word_embeddings must be true or false, got "yes"',
  ],
  [
    'config.json, not JSON',
    () => errorsOf(readConfigJson('{"hidden_size": 4096,')),
    `config.json is not valid JSON: ${jsonReason('{"hidden_size": 4096,')}`,
  ],
  [
    'config.json, not an object',
    () => errorsOf(readConfigJson('[1, 2]')),
    'config.json must hold one JSON object ({ "hidden_size": …, … })',
  ],
  [
    'config.json, too large',
    () => errorsOf(readConfigJson(' '.repeat(MAX_CONFIG_JSON_BYTES + 1))),
    `config.json is ${MAX_CONFIG_JSON_BYTES + 1} bytes, over the 1 MB limit; a model's config.json is a few KB`,
  ],
  // The diffusion calculator's flags and settings.
  ['diffusion flags, a number', () => diffusionErrors({ steps: 'many' }), 'expected a number, got many'],
  ['diffusion flags, a choice', () => diffusionErrors({ weights: 'fp9' }), 'expected fp32, bf16, fp8, got fp9'],
  [
    'diffusion, a side',
    () => diffusionErrors({ resolution: '8x720' }),
    'width must be a whole number of pixels from 16 to 16384, got 8',
  ],
  ['diffusion, the steps', () => diffusionErrors({ steps: '0' }), 'must be a whole number from 1 to 1000, got 0'],
];

function jsonReason(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  return '';
}

describe('the shared value checks keep the CLI’s English, reader by reader', () => {
  test.each(CASES)('%s', (_name, run, message) => {
    const errors = run();
    expect(errors.map((error) => error.message)).toContain(message);
    // Each engine error's message is its data worded in English (after the key or the name a reader puts first); the
    // planner's own errors carry no data.
    const coded = errors.filter((error) => error.problem !== undefined);
    expect(coded.length).toBeGreaterThan(0);
    for (const error of coded) expect(error.message.endsWith(wordRule(error.problem))).toBe(true);
  });
});
