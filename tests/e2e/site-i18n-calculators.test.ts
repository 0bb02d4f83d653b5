import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { compute, fromQuery } from '../../src/components/calculators/calculator-state';
import { CALCULATORS } from '../../src/components/calculators/specs';
import { lessonHref } from '../../src/base/lessons';
import { MESSAGES } from '../../src/i18n/messages/index';
import { readConfigJson, wordNotice } from '../../src/memory/index';
import { launchBrowser, openIsland, withRecordingPage } from '../../scripts/browser/browser';
import { englishSentences } from './support/catalogue-english';
import { HAN } from '../support/chinese-text';

/**
 * The calculators on a Chinese page (issue #33 item 3): the engine's words (field labels and hints, breakdown lines,
 * bars, errors, warnings), the model picker's errors and the image and video generation calculator read Chinese, with no
 * English sentence of their catalogues left, while the English page keeps the English.
 */
const baseUrl = inject('baseUrl');
const EN = MESSAGES.en;
const ZH = MESSAGES['zh-cn'];

/** What a reader sees of a widget: its text, and its tooltips, placeholders and labels for assistive technology. */
async function shownText(root: Locator): Promise<string> {
  return root.evaluate((el) => {
    const attributes = [...el.querySelectorAll('[title], [placeholder], [aria-label]')].flatMap((node) =>
      ['title', 'placeholder', 'aria-label'].map((name) => node.getAttribute(name) ?? ''),
    );
    return [(el as HTMLElement).innerText, ...attributes].join('\n');
  });
}

/** The sentences of `strings` that `text` still shows. */
const leftOver = (text: string, strings: readonly string[]) => strings.filter((sentence) => text.includes(sentence));

describe('the calculators on a Chinese page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
  });
  afterAll(() => browser?.close());

  const lesson = lessonHref('mixed-precision');
  const selector = '[data-calculator="mixed-precision"]';
  // What the engine says in English for the calculator's starting settings: its lines' labels and step-time assumptions.
  const computed = compute('mixed-precision', CALCULATORS['mixed-precision'].defaults);
  const engineEnglish = computed.ok
    ? computed.results.flatMap(({ result }) => [
        ...result.lines.map((line) => line.label),
        ...(result.stepTime?.assumptions ?? []),
      ])
    : [];
  const catalogueEnglish = [
    ...englishSentences(EN.engine, ZH.engine),
    ...englishSentences(EN.calculator, ZH.calculator),
    ...englishSentences(EN.modelSource, ZH.modelSource),
  ];

  test('fields, breakdown, timeline, verdict and a field’s error are Chinese', async () => {
    expect(engineEnglish.length).toBeGreaterThan(5);
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}/zh-cn${lesson}`, selector);
      await root.locator('details:has(.calc-lines) > summary').click();
      const fields = (await root.locator('.calc-groups').innerText()) ?? '';
      expect(fields).toContain(ZH.engine.flags['micro-batch']!.label);
      expect(fields).toContain(ZH.engine.flags['precision']!.label);
      const lines = await root.locator('.calc-lines tr td:first-child').allInnerTexts();
      expect(lines.length).toBeGreaterThan(3);
      expect(lines.filter((line) => !HAN.test(line))).toEqual([]);
      expect(await root.locator('.calc-timeline figcaption').innerText()).toBe(ZH.calculator.timelineCaption);
      expect(await root.locator('.calc-answer').innerText()).toMatch(HAN);
      const bars = await root.locator('.widget-table tbody th[scope="row"]').allInnerTexts();
      expect(bars).toEqual(CALCULATORS['mixed-precision'].scenarios({}, ZH.engine.scenarios).map((bar) => bar.label));

      expect(leftOver(await shownText(root), [...catalogueEnglish, ...engineEnglish])).toEqual([]);

      // A value of the wrong kind: the error next to the field says why in Chinese, and the result stays, dimmed.
      await root.locator('[data-flag="micro-batch"]').fill('many');
      const error = root.locator('.widget-field:has([data-flag="micro-batch"]) .widget-error');
      await expect
        .poll(() => error.innerText())
        .toBe(
          ZH.engine.fieldError({ field: 'micro-batch', message: '', problem: { code: 'notANumber', params: { value: 'many' } } }),
        );
      expect(leftOver(await shownText(root), [...catalogueEnglish, ...engineEnglish])).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
      expect(problems.consoleErrors).toEqual([]);
    });
  });

  test('a pasted config.json that cannot be read says why in Chinese', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}/zh-cn${lesson}`, selector);
      await root.locator('.model-source-panel > summary').click();
      // One key missing: the page words a single error from its data (several are joined in the engine's English).
      const config = {
        model_type: 'llama',
        hidden_size: 4096,
        num_attention_heads: 32,
        vocab_size: 32000,
        intermediate_size: 14336,
      };
      await root.locator('[data-model-paste]').fill(JSON.stringify(config));
      await root.locator('[data-action="use-paste"]').click();
      const error = await root.locator('[data-load-error]').innerText();
      expect(error).toContain('num_hidden_layers');
      expect(error).toContain(ZH.engine.fieldError({ field: '', message: '', problem: { code: 'missing' } }));
      expect(error).not.toContain('is missing');
      expect(leftOver(await shownText(root), catalogueEnglish)).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  // ZeRO-3 on one data-parallel GPU, sequence parallelism without tensor parallelism: two of the engine's warnings.
  const warningQuery = '?dp=1&sp=true';
  const warned = compute('parallelism', fromQuery('parallelism', warningQuery));
  const notices = warned.ok ? warned.results.at(-1)!.result.notices : [];
  const englishWarnings = warned.ok ? warned.results.flatMap(({ result }) => result.warnings) : [];
  const warningsOf = (root: Locator) => root.locator('.calc-warnings').innerText();

  test('the engine’s warnings are Chinese', async () => {
    expect(notices.map((notice) => notice.code)).toEqual(expect.arrayContaining(['zeroWithoutDp', 'spWithoutTp']));
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(
        page,
        `${baseUrl}/zh-cn${lessonHref('parallelism')}${warningQuery}`,
        '[data-calculator="parallelism"]',
      );
      const shown = await warningsOf(root);
      for (const notice of notices) expect(shown).toContain(wordNotice(notice, ZH.engine.warnings));
      expect(leftOver(shown, englishWarnings)).toEqual([]);
      expect(leftOver(await shownText(root), [...catalogueEnglish, ...englishWarnings])).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
    });
    await withRecordingPage(browser, baseUrl, async (page) => {
      const root = await openIsland(
        page,
        `${baseUrl}${lessonHref('parallelism')}${warningQuery}`,
        '[data-calculator="parallelism"]',
      );
      const shown = await warningsOf(root);
      for (const notice of notices) expect(shown).toContain(wordNotice(notice));
      expect(shown).not.toMatch(HAN);
    });
  });

  test('a rule between two fields is broken in Chinese', async () => {
    // Three-way tensor parallelism cannot split the running example's heads.
    const broken = compute('parallelism', fromQuery('parallelism', '?tp=3'));
    const tpError = broken.ok ? undefined : broken.errors.find((error) => error.field === 'tp');
    expect(tpError?.problem.code).toBe('headsByTp');
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}/zh-cn${lessonHref('parallelism')}?tp=3`, '[data-calculator="parallelism"]');
      const error = await root.locator('.widget-field:has([data-flag="tp"]) .widget-error').innerText();
      expect(error).toBe(ZH.engine.fieldError(tpError!));
      expect(error).toMatch(HAN);
      expect(error).not.toContain(tpError!.message);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('a pasted config.json’s warnings are Chinese', async () => {
    // An unknown model_type is read as a Llama-style decoder, with a warning naming the keys read and ignored.
    const config = {
      model_type: 'my_decoder',
      hidden_size: 1024,
      num_hidden_layers: 8,
      num_attention_heads: 16,
      vocab_size: 32000,
      intermediate_size: 2816,
      rope_theta: 10000,
    };
    const reading = readConfigJson(config);
    const configNotices = reading.ok ? reading.notices : [];
    expect(configNotices.map((notice) => notice.code)).toEqual(['unknownModelType']);
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}/zh-cn${lesson}`, selector);
      await root.locator('.model-source-panel > summary').click();
      await root.locator('[data-model-paste]').fill(JSON.stringify(config));
      await root.locator('[data-action="use-paste"]').click();
      const shown = await root.locator('[data-model-warnings]').innerText();
      expect(shown).toBe(wordNotice(configNotices[0]!, ZH.engine.warnings));
      expect(shown).not.toContain(wordNotice(configNotices[0]!));
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('the English page keeps the English', async () => {
    await withRecordingPage(browser, baseUrl, async (page) => {
      const root = await openIsland(page, `${baseUrl}${lesson}`, selector);
      await root.locator('details:has(.calc-lines) > summary').click();
      expect(await root.locator('.calc-groups').innerText()).toContain(EN.engine.flags['micro-batch']!.label);
      const lines = await root.locator('.calc-lines tr td:first-child').allInnerTexts();
      expect(lines).toEqual(computed.ok ? computed.results.at(-1)!.result.lines.map((line) => line.label) : []);
      const text = await shownText(root);
      expect(text).not.toMatch(HAN);
      // The walk over the catalogues finds the sentences a page shows: here, the English ones.
      expect(leftOver(text, [...catalogueEnglish, ...engineEnglish]).length).toBeGreaterThan(5);
      await root.locator('[data-flag="micro-batch"]').fill('many');
      await expect
        .poll(() => root.locator('.widget-field:has([data-flag="micro-batch"]) .widget-error').innerText())
        .toBe("expected a number, got 'many'");
    });
  });
});

describe('the image and video generation calculator on a Chinese page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
  });
  afterAll(() => browser?.close());
  const selector = '[data-widget="diffusion"]';

  test('its labels, phases and lines are Chinese, with no English sentence of its catalogue left', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}/zh-cn/tools/diffusion/`, selector);
      expect(await root.getAttribute('aria-label')).toBe(ZH.diffusion.ariaLabel);
      const text = await shownText(root);
      expect(text).toContain(ZH.diffusion.resolution);
      expect(text).toContain(ZH.diffusion.tableCaption);
      const lines = await root.locator('[data-line] th').allInnerTexts();
      expect(lines.length).toBeGreaterThan(3);
      expect(lines.filter((line) => !HAN.test(line))).toEqual([]);
      expect(leftOver(text, englishSentences(EN.diffusion, ZH.diffusion))).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
      expect(problems.consoleErrors).toEqual([]);
    });
  });

  test('the English page keeps the English', async () => {
    await withRecordingPage(browser, baseUrl, async (page) => {
      const root = await openIsland(page, `${baseUrl}/tools/diffusion/`, selector);
      expect(await root.getAttribute('aria-label')).toBe(EN.diffusion.ariaLabel);
      const text = await shownText(root);
      expect(text).not.toMatch(HAN);
      expect(leftOver(text, englishSentences(EN.diffusion, ZH.diffusion)).length).toBeGreaterThan(5);
    });
  });
});
