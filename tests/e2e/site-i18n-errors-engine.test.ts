import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { compute, fromQuery } from '../../src/components/calculators/calculator-state';
import { lessonHref } from '../../src/base/lessons';
import { MESSAGES } from '../../src/i18n/messages/index';
import { readConfigJson, type FieldError, type ShownFieldError } from '../../src/memory/index';
import { EXAMPLE_PRICES, parsePlanFlags } from '../../src/planner/index';
import { launchBrowser, openIsland, withRecordingPage } from '../../scripts/browser/browser';
import { englishSentences } from './support/catalogue-english';
import { ENGLISH_RUN } from '../support/chinese-text';

/**
 * The engine's field errors on a Chinese page (issue #33 item 3): values typed into a calculator, a config.json pasted
 * into the model picker and a planner link, each bad in a way the engine refuses, read Chinese worded from each error's
 * data, with neither the engine's English message nor a sentence of the catalogues left; the English page keeps the
 * engine's English. The expected errors are the engine's own for the same input, computed here.
 */
const baseUrl = inject('baseUrl');
const EN = MESSAGES.en;
const ZH = MESSAGES['zh-cn'];

const LORA_PAGE = lessonHref('lora-and-qlora');
const LORA = '[data-calculator="lora"]';
/** Typed into the LoRA calculator: a dropout that is no probability, and a target that is no projection. */
const BAD_LORA = { 'lora-dropout': '1.5', 'lora-targets': 'qkv' } as const;

/** The errors the LoRA calculator gets for `BAD_LORA` on its defaults, as the engine reports them. */
function loraErrors(): readonly FieldError[] {
  const query = new URLSearchParams(BAD_LORA).toString();
  const computed = compute('lora', fromQuery('lora', `?${query}`));
  return computed.ok ? [] : computed.errors;
}

/** A Llama config.json whose tying is no boolean and whose KV heads do not divide the heads: two errors at once. */
const BAD_CONFIG = {
  model_type: 'llama',
  hidden_size: 4096,
  num_hidden_layers: 32,
  num_attention_heads: 32,
  num_key_value_heads: 5,
  intermediate_size: 14336,
  vocab_size: 32000,
  tie_word_embeddings: 'yes',
};

/** A planner link with a GPU that does not exist and a free margin above the engine's 50 %. */
const BAD_PLAN = { model: 'gpt2-xl', gpu: 'h900', gpus: '2', 'global-batch': '8', seq: '512', headroom: '80' };

const catalogueEnglish = [
  ...englishSentences(EN.engine, ZH.engine),
  ...englishSentences(EN.calculator, ZH.calculator),
  ...englishSentences(EN.modelSource, ZH.modelSource),
  ...englishSentences(EN.planner, ZH.planner),
];

/** What a reader sees of a widget. */
const textOf = (root: Locator) => root.innerText();

/** The shown text's English left: the engine's messages for these errors and the catalogues' sentences. */
function englishLeft(text: string, errors: readonly ShownFieldError[]): string[] {
  return [...errors.map((error) => error.message), ...catalogueEnglish].filter((sentence) => text.includes(sentence));
}

describe('the engine’s field errors on a Chinese page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
  });
  afterAll(() => browser?.close());

  test('values typed into a calculator are refused in Chinese', async () => {
    const errors = loraErrors();
    expect(errors.map((e) => e.problem.code).sort()).toEqual(['loraDropoutRange', 'loraTargetsList']);
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}/zh-cn${LORA_PAGE}`, LORA);
      for (const [flag, value] of Object.entries(BAD_LORA)) await root.locator(`[data-flag="${flag}"]`).fill(value);
      for (const error of errors) {
        const shown = root.locator(`.widget-field:has([data-flag="${error.field}"]) .widget-error`);
        await expect.poll(() => shown.innerText()).toBe(ZH.engine.fieldError(error));
        expect(await shown.innerText()).not.toMatch(ENGLISH_RUN);
      }
      expect(englishLeft(await textOf(root), errors)).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('a pasted config.json with two errors words each in Chinese after its key', async () => {
    const reading = readConfigJson(BAD_CONFIG);
    const errors = reading.ok ? [] : reading.errors;
    expect(errors.map((e) => e.field).sort()).toEqual(['num_key_value_heads', 'tie_word_embeddings']);
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}/zh-cn${LORA_PAGE}`, LORA);
      await root.locator('.model-source-panel > summary').click();
      await root.locator('[data-model-paste]').fill(JSON.stringify(BAD_CONFIG));
      await root.locator('[data-action="use-paste"]').click();
      const shown = await root.locator('[data-load-error]').innerText();
      for (const error of errors) expect(shown).toContain(`${error.field}: ${ZH.engine.fieldError(error)}`);
      expect(shown).not.toMatch(ENGLISH_RUN);
      expect(englishLeft(await textOf(root), errors)).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('a planner link the engine refuses says why in Chinese', async () => {
    const parsed = parsePlanFlags(BAD_PLAN, EXAMPLE_PRICES);
    const errors = parsed.ok ? [] : parsed.errors;
    expect(errors.map((e) => e.problem?.code).sort()).toEqual(['headroomRange', 'unknownGpu']);
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}/zh-cn/tools/planner/?${new URLSearchParams(BAD_PLAN)}`, '[data-planner]');
      const text = () => textOf(root);
      for (const error of errors) await expect.poll(text).toContain(ZH.engine.fieldError(error));
      expect(englishLeft(await text(), errors)).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('a price typed into the renting calculator that is no number is refused in Chinese', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}/zh-cn/renting-gpus/`, '[data-calculator="rent-cost"]');
      const price = root.locator('.calc-rent .widget-field').first();
      await price.locator('input').fill('free');
      await expect.poll(() => price.locator('.widget-error').innerText()).toBe(ZH.calculator.rent.invalid.pricePerGpuHour);
      expect(englishLeft(await textOf(root), [])).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('the English page keeps the engine’s English message', async () => {
    const [error] = loraErrors().filter((e) => e.field === 'lora-dropout');
    expect(error).toBeDefined();
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}${LORA_PAGE}`, LORA);
      await root.locator('[data-flag="lora-dropout"]').fill(BAD_LORA['lora-dropout']);
      const shown = root.locator('.widget-field:has([data-flag="lora-dropout"]) .widget-error');
      await expect.poll(() => shown.innerText()).toBe(error?.message);
      expect(problems.pageErrors).toEqual([]);
    });
  });
});
