import { describe, expect, test } from 'vitest';
import { planFlags, planTraining, type PlanResult } from '../../../src/planner/index';
import { MESSAGES } from '../../../src/i18n/messages/index';
import { planRequest } from '../support/plan-request';
import { HAN } from '../../support/chinese-text';

/**
 * The planner page words the search's plans and reasons in its language (the words-object pattern of issue #33): the
 * same request searched in Chinese finds the same plans, ranked alike, and only their words differ.
 */
const request = planRequest({ model: 'gpt2-xl', gpu: 'rtx-4090', gpus: '2', 'global-batch': '8', seq: '512', task: 'finetune' });

const flagsOf = (result: PlanResult) => result.plans.map((plan) => planFlags(plan));
const reasonsOf = (result: PlanResult) => result.searches.flatMap((search) => search.rejected.map((group) => group.reason));

describe('the search in the page’s words', () => {
  const english = planTraining(request);
  const chinese = planTraining(request, { words: MESSAGES['zh-cn'].planner.search });

  test('the same plans in the same order, and the same rejections counted', () => {
    expect(chinese.plans.length).toBeGreaterThan(0);
    expect(flagsOf(chinese)).toEqual(flagsOf(english));
    expect(chinese.searches.map((s) => s.rejected.map((g) => g.count))).toEqual(
      english.searches.map((s) => s.rejected.map((g) => g.count)),
    );
  });

  test('English by default, as the CLI prints it; Chinese choices and reasons when asked', () => {
    const englishChoices = english.plans.flatMap((plan) => plan.choices.map((choice) => choice.value));
    const chineseChoices = chinese.plans.flatMap((plan) => plan.choices.map((choice) => choice.value));
    expect(englishChoices.filter((value) => HAN.test(value))).toEqual([]);
    expect(englishChoices).toContain(MESSAGES.en.planner.search.choices.noOffload);
    expect(chineseChoices).toContain(MESSAGES['zh-cn'].planner.search.choices.noOffload);
    expect(chineseChoices.some((value) => HAN.test(value))).toBe(true);
    // Every reason written by the planner itself is Chinese; the engine's refusals ('invalid') are worded by their problem.
    const plannerReasons = chinese.searches.flatMap((s) => s.rejected.filter((g) => g.kind !== 'invalid').map((g) => g.reason));
    expect(plannerReasons.length).toBeGreaterThan(0);
    expect(plannerReasons.filter((reason) => !HAN.test(reason))).toEqual([]);
    expect(reasonsOf(english).filter((reason) => HAN.test(reason))).toEqual([]);
  });
});
