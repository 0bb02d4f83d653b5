import { resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { MESSAGES } from '../../src/i18n/messages/index';
import { launchBrowser, openIsland, withRecordingPage } from '../../scripts/browser/browser';
import { englishSentences } from './support/catalogue-english';
import { dropFiles, fileOnDisk } from './support/file-drop';
import { HAN, ENGLISH_RUN } from '../support/chinese-text';

/**
 * The planner and the training-config reader on their 简体中文 pages (issue #33 items 3 and 5): a shared link's search
 * answers in Chinese, a real training config is mapped in Chinese, and neither widget shows a sentence of its English
 * catalogue; the English pages keep their English.
 */
const baseUrl = inject('baseUrl');
const PLANNER = '[data-planner]';
const READER = '[data-widget="training-config"]';
const EN = MESSAGES.en;
const ZH = MESSAGES['zh-cn'];

/** The catalogue's English sentences that the widget's visible text still contains. */
async function englishLeft(root: Locator, english: unknown, translated: unknown): Promise<string[]> {
  const visible = await root.innerText();
  return englishSentences(english, translated).filter((sentence) => visible.includes(sentence));
}

/**
 * A settings link with renting compared on two GPUs and a token budget: plans, groups with members, rented GPUs, prices
 * and each plan's whole run all show.
 */
const QUERY = 'model=gpt2-xl&gpu=rtx-4090&gpus=2&global-batch=8&seq=512&task=finetune&rent=true&train-tokens=1000000000';

/** A price row's value with a word for a number. */
const BAD_PRICE = 'h100-80gb=3/x/1';
/** A link with no GPUs, a price that is no number and one that is no price at all. */
const BAD_QUERY = `model=gpt2-xl&gpu=rtx-4090&gpus=0&global-batch=8&seq=512&price=${encodeURIComponent(BAD_PRICE)}&price=nonsense`;

async function waitDone(page: Page): Promise<void> {
  await page.waitForFunction((sel) => document.querySelector<HTMLElement>(sel)?.dataset['state'] === 'done', PLANNER, {
    timeout: 60_000,
  });
}

describe('the planner and the training-config reader in Chinese', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
  });
  afterAll(() => browser?.close());

  test('a shared /zh-cn/ planner link answers with Chinese groups, plans and details, and no English sentence', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}/zh-cn/tools/planner/?${QUERY}`, PLANNER);
      await waitDone(page);
      expect(Number(await root.getAttribute('data-plan-count'))).toBeGreaterThan(0);
      // A plan's link stays on the Chinese page; opening it shows that plan as the shared one.
      const href = (await root.locator('a[data-plan-link]').first().getAttribute('href')) ?? '';
      expect(href).toMatch(/^\/zh-cn\/tools\/planner\/\?.*plan=/);
      await openIsland(page, `${baseUrl}${href}`, PLANNER);
      await waitDone(page);
      const shared = root.locator('.planner-shared');
      await expect.poll(() => shared.locator('h3').textContent()).toBe(ZH.planner.shared.heading);
      await expect.poll(() => shared.locator('.planner-details').count()).toBe(1);
      expect(await shared.innerText()).toContain(ZH.planner.timeHeading);
      expect(await shared.locator('[data-run-steps]').innerText()).toMatch(/ 步 · .* GPU 小时 · /);
      // The two sections, the table's heads and a group's button speak Chinese.
      expect(await root.locator('[data-plan-section="own"] h3').textContent()).toMatch(HAN);
      expect(await root.locator('[data-plan-section="rented"] h3').textContent()).toBe(ZH.planner.sections.rented);
      expect(await root.locator('[data-plan-section="own"] thead').innerText()).toContain(ZH.planner.table.step);
      const groupButton = root.locator('[data-group-members] button').first();
      expect(await groupButton.textContent()).toMatch(HAN);
      await groupButton.click();
      await expect.poll(() => root.locator('tr.planner-member').count()).toBeGreaterThan(0);
      expect(await root.locator('.planner-prices legend').textContent()).toBe(ZH.planner.prices.heading);
      // The search words the plans' techniques in Chinese too (the worker is given the page's language).
      expect(await root.locator('.planner-techniques').first().innerText()).toMatch(HAN);
      expect(await root.locator('.planner-groups').first().innerText()).toMatch(HAN);
      expect(await englishLeft(root, EN.planner, ZH.planner)).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
      expect(problems.consoleErrors).toEqual([]);
    });
  });

  test('the English planner page keeps its English', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}/tools/planner/?${QUERY}`, PLANNER);
      await waitDone(page);
      const visible = await root.innerText();
      expect(visible).toContain(EN.planner.estimateNote);
      expect(visible).toContain(EN.planner.sections.rented);
      expect(visible).not.toMatch(HAN);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('a link with a bad field and bad prices shows its errors in Chinese', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}/zh-cn/tools/planner/?${BAD_QUERY}`, PLANNER);
      await page.waitForFunction((sel) => document.querySelector<HTMLElement>(sel)?.dataset['state'] === 'invalid', PLANNER);
      const errors = await root.locator('.widget-error').allInnerTexts();
      // The gpus field's, the h100 row's, the unread price's and the price flag's below the table.
      expect(errors.length).toBeGreaterThanOrEqual(4);
      for (const error of errors) {
        expect(error, error).toMatch(HAN);
        expect(error, error).not.toMatch(ENGLISH_RUN);
      }
      const visible = await root.innerText();
      expect(visible).toContain(ZH.planner.search.request.priceNotNumbers(BAD_PRICE));
      expect(visible).toContain(ZH.planner.search.request.priceFormat('nonsense'));
      expect(visible).not.toContain(EN.planner.search.request.priceNotNumbers(BAD_PRICE));
      expect(await englishLeft(root, EN.planner, ZH.planner)).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('the same bad link on the English page says it in English', async () => {
    await withRecordingPage(browser, baseUrl, async (page) => {
      const root = await openIsland(page, `${baseUrl}/tools/planner/?${BAD_QUERY}`, PLANNER);
      await page.waitForFunction((sel) => document.querySelector<HTMLElement>(sel)?.dataset['state'] === 'invalid', PLANNER);
      const visible = await root.innerText();
      expect(visible).toContain(EN.planner.search.request.priceNotNumbers(BAD_PRICE));
      expect(visible).toContain(EN.planner.search.request.priceFormat('nonsense'));
      expect(visible).not.toMatch(HAN);
    });
  });

  test('a LLaMA-Factory config dropped on /zh-cn/ is read in Chinese, with no English sentence of the reader', async () => {
    const files = ['llama-factory/llama3_full_sft.yaml', 'llama-factory/ds_z3_config.json'].map((name) =>
      resolve(import.meta.dirname, '../fixtures/training-configs', name),
    );
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}/zh-cn/tools/training-config/`, READER);
      expect(await root.locator('[data-field="paste"]').getAttribute('placeholder')).toBe(ZH.trainingConfig.pastePlaceholder);
      await dropFiles(root.locator('.training-config-drop'), files.map(fileOnDisk));
      await page.waitForSelector(`${READER} [data-mapping]`);
      expect(await root.locator('[data-mapping] caption').textContent()).toBe(ZH.trainingConfig.tableCaption);
      expect(await root.locator('[data-mapping] thead').innerText()).toContain(ZH.trainingConfig.effect);
      expect(await root.locator('[data-mapping] tbody tr').count()).toBeGreaterThan(0);
      expect(await englishLeft(root, EN.trainingConfig, ZH.trainingConfig)).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
      expect(problems.consoleErrors).toEqual([]);
    });
  });

  test('the English training-config page keeps its English', async () => {
    await withRecordingPage(browser, baseUrl, async (page) => {
      const root = await openIsland(page, `${baseUrl}/tools/training-config/`, READER);
      expect(await root.locator('[data-field="paste"]').getAttribute('placeholder')).toBe(EN.trainingConfig.pastePlaceholder);
      expect(await root.innerText()).not.toMatch(HAN);
    });
  });
});
