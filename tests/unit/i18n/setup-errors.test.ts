import { describe, expect, test } from 'vitest';
import { MESSAGES } from '../../../src/i18n/messages/index';
import { readTrainingConfig, SETUP_ERROR_WORDS, wordSetupProblem, type SetupProblem } from '../../../src/setup/index';
import { SETUP_ERROR_CASES } from '../setup/setup-error-cases';
import { HAN, ENGLISH_RUN } from '../../support/chinese-text';

/**
 * Why the training-config reader refuses a file (src/setup/error-words.ts), in Chinese: each bad file's error worded
 * from its code, with no English sentence left but a parser's own reason, and the file's values kept as given.
 */
const ZH = MESSAGES['zh-cn'].trainingConfig.errors;

/** The problem a bad file gets (the test fails if the file was read). */
function problemOf(file: string, text: string): SetupProblem {
  const outcome = readTrainingConfig(file, text);
  if (outcome.ok) throw new Error(`${file} was read as ${outcome.reading.tool}`);
  return outcome.error.problem;
}

/** The parameters' texts: a value, a list's items, a parser's reason, and those of a TOML line's own problem. */
function paramTexts(problem: object): string[] {
  if (!('params' in problem) || typeof problem.params !== 'object' || problem.params === null) return [];
  return Object.values(problem.params).flatMap((param: unknown) => {
    if (Array.isArray(param)) return param.map(String);
    return typeof param === 'object' && param !== null ? paramTexts(param) : [String(param)];
  });
}

describe('the reader’s refusals in Chinese', () => {
  test('the catalogue words every code', () => {
    expect(Object.keys(ZH).sort()).toEqual(Object.keys(SETUP_ERROR_WORDS).sort());
  });

  test.each(SETUP_ERROR_CASES.map((c) => [c.code, c] as const))('%s reads as Chinese', (_code, { file, text }) => {
    const problem = problemOf(file, text);
    const chinese = wordSetupProblem(problem, ZH);
    expect(chinese).toMatch(HAN);
    expect(chinese).not.toBe(wordSetupProblem(problem));
    // Every value stays as the file gave it; a parser's reason is its own English, so only the words around it count.
    const reason = 'params' in problem && 'reason' in problem.params ? problem.params.reason : '';
    expect(chinese.replace(reason, '')).not.toMatch(ENGLISH_RUN);
    for (const param of paramTexts(problem)) expect(chinese).toContain(param);
  });

  test('a value outside a key’s choices lists them the Chinese way', () => {
    expect(wordSetupProblem(problemOf('lf.yaml', 'finetuning_type: qlora\n'), ZH)).toBe(
      '应为 lora、oft、freeze 或 full，实际为 qlora',
    );
    expect(wordSetupProblem(problemOf('ds.json', '{"zero_optimization": {"stage": 4}}'), ZH)).toBe('应为 0、1、2 或 3，实际为 4');
  });

  test('counts are written for the zh locale', () => {
    expect(ZH.tooLarge({ bytes: 2_000_000 })).toContain(new Intl.NumberFormat('zh-CN').format(2_000_000));
  });
});
