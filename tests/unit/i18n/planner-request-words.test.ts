import { describe, expect, test } from 'vitest';
import { EXAMPLE_PRICES, parsePlanFlags, parsePrice, planModel, type RawFlagValues } from '../../../src/planner/index';
import { HardwareFindings } from '../../../src/planner/findings';
import { estimateTotals, getGpuPreset, type FieldError } from '../../../src/memory/index';
import { draftError, draftsFromLink } from '../../../src/components/planner/price-drafts';
import { MESSAGES } from '../../../src/i18n/messages/index';
import { planRequest } from '../support/plan-request';
import { HAN, ENGLISH_RUN } from '../../support/chinese-text';

/**
 * What is wrong with a planning request, in the page's language: the planner's own field errors and price errors
 * come from its words, the engine's by their problem, and a combination the engine refuses quotes the same words.
 */
const EN = MESSAGES.en;
const ZH = MESSAGES['zh-cn'];

/** The errors of `raw`, worded as the planner island words them in `messages`' language. */
function wordedErrors(raw: RawFlagValues, messages: typeof EN): string[] {
  const parsed = parsePlanFlags(raw, EXAMPLE_PRICES, undefined, messages.planner.search.request);
  if (parsed.ok) throw new Error('expected errors');
  return parsed.errors.map(messages.engine.fieldError);
}

const expectChinese = (sentences: readonly string[]) => {
  expect(sentences.length).toBeGreaterThan(0);
  for (const sentence of sentences) {
    expect(sentence, sentence).toMatch(HAN);
    expect(sentence, sentence).not.toMatch(ENGLISH_RUN);
  }
};

const BAD_REQUESTS: readonly RawFlagValues[] = [
  // The planner's own rules, the option readers' value checks and the price parser at once.
  {
    model: 'gpt2-xl',
    gpu: 'rtx-4090',
    gpus: '0',
    tp: '2',
    'rank-by': 'epoch-cost',
    'max-host-gb': 'lots',
    price: ['h100-80gb=3/x/1', 'nonsense', 'h900=1/1/1'],
  },
  // No GPU, and a value the engine refuses (its rules between fields have English words only: not asked here).
  { model: 'gpt2-xl', 'global-batch': '4', seq: '-1' },
];

describe('a planning request’s errors in the page’s words', () => {
  test('English by default, as the CLI prints them', () => {
    const parsed = parsePlanFlags(BAD_REQUESTS[0] ?? {}, EXAMPLE_PRICES);
    expect(parsed.ok).toBe(false);
    const messages = parsed.ok ? [] : parsed.errors.map((e) => e.message);
    expect(messages).toContain('--tp is one of the choices the planner makes; leave it out');
    expect(messages).toContain('give --global-batch N, the sequences per optimizer step over all GPUs');
    expect(messages).toContain('ranking by cost per epoch needs --epoch-tokens N');
    expect(messages).toContain("prices must be numbers of 0 or more, got 'h100-80gb=3/x/1'");
    for (const raw of BAD_REQUESTS) expect(wordedErrors(raw, EN).filter((e) => HAN.test(e))).toEqual([]);
  });

  test('every error Chinese on a Chinese page, and as many as in English', () => {
    for (const raw of BAD_REQUESTS) {
      const chinese = wordedErrors(raw, ZH);
      expect(chinese.length).toBe(wordedErrors(raw, EN).length);
      expectChinese(chinese);
    }
  });

  test('a price the parser cannot read, in both languages', () => {
    for (const text of ['nonsense', 'h100-80gb=3/-1/1']) {
      const english = parsePrice(text);
      const chinese = parsePrice(text, ZH.planner.search.request);
      expect(typeof english === 'string' && !HAN.test(english)).toBe(true);
      expectChinese([typeof chinese === 'string' ? chinese : '']);
      expect(chinese).toContain(text);
    }
  });

  test('the price rows and a link’s prices say what is wrong in Chinese', () => {
    const row = { 'on-demand': '3', reserved: 'x', spot: '1' };
    expect(draftError('h100-80gb', row)).not.toMatch(HAN);
    const unread = draftsFromLink('rtx-4090', ['nonsense', 'h900=3/2/1'], ZH.planner).unread;
    expectChinese([
      draftError('h100-80gb', row, ZH.planner) ?? '',
      draftError('h100-80gb', { ...row, reserved: '' }, ZH.planner) ?? '',
      ...unread,
    ]);
  });

  test('a combination the engine refuses quotes its refusal in the page’s words', () => {
    const request = planRequest({ model: 'gpt2', gpu: 'rtx-4090', 'global-batch': '4', seq: '512' });
    const gpu = getGpuPreset('rtx-4090');
    if (gpu === undefined) throw new Error('rtx-4090 is a preset');
    const refused = estimateTotals({ ...request.base, tp: 1.5 });
    expect(refused.ok).toBe(false);
    const errors: readonly FieldError[] = refused.ok ? [] : refused.errors;
    expect(errors.every((e) => e.problem !== undefined)).toBe(true);
    const reasonIn = (words: typeof EN.planner.search) => {
      const estimated = new HardwareFindings(request, { gpu, gpus: 1, rented: false }, planModel(request), words).evaluate(
        refused,
      );
      return 'errors' in estimated ? estimated.errors : '';
    };
    expect(reasonIn(EN.planner.search)).toBe(errors.map((e) => `${e.field}: ${e.message}`).join('; '));
    expectChinese([reasonIn(ZH.planner.search)]);
  });
});
