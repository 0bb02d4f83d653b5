import { describe, expect, test } from 'vitest';
import { chosenStack, isStack } from '../../../../src/components/calculators/stack-choice';
import { DEFAULT_STACK } from '../../../../src/memory/index';

describe('chosenStack(search, stored, fallback): the answer to "How do you train?"', () => {
  test('a URL value wins over the stored answer, so a shared link computes what it says', () => {
    expect(chosenStack('?model=gpt2&stack=torchtune', 'unsloth')).toBe('torchtune');
  });

  test('without one in the URL, the answer stored on the last visit', () => {
    expect(chosenStack('?model=gpt2', 'unsloth', 'pytorch')).toBe('unsloth');
  });

  test("with neither, the calculator's own default, else the engine's", () => {
    expect(chosenStack('', null, 'pytorch')).toBe('pytorch');
    expect(chosenStack('', null)).toBe(DEFAULT_STACK);
  });

  test('a value that names no stack is ignored, wherever it comes from', () => {
    expect(chosenStack('?stack=keras', 'jax', 'pytorch')).toBe('pytorch');
    expect(isStack('keras')).toBe(false);
    expect(isStack('llama-factory')).toBe(true);
  });
});
