/**
 * Every way the reader refuses a file, each driven by a bad file: the terminal's English line, which must not change
 * (the CLI prints it), and the code a page words it from. Together the cases reach every code of SETUP_ERROR_WORDS.
 */
import { describe, expect, test } from 'vitest';
import { SETUP_ERROR_WORDS } from '../../../src/setup/error-words.ts';
import { MAX_TRAINING_CONFIG_BYTES, readTrainingConfig, setupErrorLine } from '../../../src/setup/index.ts';
import { TOML_WORDS } from '../../../src/setup/toml-subset.ts';
import { SETUP_ERROR_CASES } from './setup-error-cases.ts';

/** The error a bad file gets (the test fails if the file was read). */
function refused(file: string, text: string) {
  const outcome = readTrainingConfig(file, text);
  if (outcome.ok) throw new Error(`${file} was read as ${outcome.reading.tool}`);
  return outcome.error;
}

describe('the reader’s refusals in English', () => {
  test.each(SETUP_ERROR_CASES.map((c) => [c.code, c] as const))('%s', (code, { file, text, line }) => {
    const error = refused(file, text);
    expect(error.problem.code).toBe(code);
    if (typeof line === 'string') expect(setupErrorLine(error)).toBe(line);
    else expect(setupErrorLine(error)).toMatch(line);
  });

  test('a file over 1 MiB gives its size in bytes', () => {
    const text = `output_dir: x\n#${'a'.repeat(MAX_TRAINING_CONFIG_BYTES)}\n`;
    const error = refused('big.yaml', text);
    expect(error.problem).toEqual({ code: 'tooLarge', params: { bytes: MAX_TRAINING_CONFIG_BYTES + 16 } });
    expect(setupErrorLine(error)).toBe(
      `big.yaml: ${MAX_TRAINING_CONFIG_BYTES + 16} bytes, over the 1 MiB limit; a training configuration is a few KB`,
    );
  });

  test('the cases, with the file over 1 MiB, reach every code', () => {
    const reached = new Set([...SETUP_ERROR_CASES.map((c) => c.code), 'tooLarge']);
    expect(Object.keys(SETUP_ERROR_WORDS).filter((code) => !reached.has(code))).toEqual([]);
  });

  test('the TOML cases reach every way a TOML line is refused', () => {
    const reached = new Set(
      SETUP_ERROR_CASES.flatMap(({ file, text }) => {
        const { problem } = refused(file, text);
        return problem.code === 'notToml' ? [problem.params.problem.code] : [];
      }),
    );
    expect(Object.keys(TOML_WORDS).filter((code) => !reached.has(code as keyof typeof TOML_WORDS))).toEqual([]);
  });

  test('an unparseable file keeps its parser’s reason as the parameter', () => {
    const error = refused('bad.json', '{"zero_optimization": }');
    let reason = '';
    try {
      JSON.parse('{"zero_optimization": }');
    } catch (failure) {
      reason = (failure as Error).message;
    }
    expect(error.problem).toEqual({ code: 'notJson', params: { reason } });
  });
});
