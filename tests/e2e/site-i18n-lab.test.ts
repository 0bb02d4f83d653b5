import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { lessonHref } from '../../src/base/lessons';
import { localizedHref } from '../../src/i18n/locales';
import { MESSAGES } from '../../src/i18n/messages/index';
import { launchBrowser, openIsland, runExperimentToEnd, withRecordingPage } from '../../scripts/browser/browser';
import { LAB_METHOD_HREF } from '../../src/components/lab/lab-links';
import { experimentPage } from '../../scripts/browser/island-pages';
import { HAN } from '../support/chinese-text';

/**
 * One experiment run end to end with Chinese labels (issue #33 item 5): on the Chinese gradient-checkpointing lesson the
 * experiment runs on WebAssembly (no WebGPU here, the fastest path), and its controls, status, results table, sentences
 * and chart speak Chinese with no English sentence of the lab's catalogue left in what the reader sees, nor while it
 * runs: the progress line names the sides and the worker's stage in Chinese. A pipeline-parallel run (WebGPU) checks
 * the same of every virtual GPU's progress. The English lesson keeps its English, progress line included.
 */
const baseUrl = inject('baseUrl');
const EN = MESSAGES.en.lab;
const ZH = MESSAGES['zh-cn'].lab;
const ID = 'gradient-checkpointing';
const SELECTOR = `[data-experiment="${ID}"]`;
/** A WebAssembly run at the default sizes takes seconds; the runtime's download and compile add some more. */
const RUN_TIMEOUT_MS = 180_000;

/** Stands for what a run fills in when a catalogue function is called with it: the text between two is fixed wording. */
const SLOT = '\u2063';

/** Every string of a catalogue branch: plain strings, and what each function says around its arguments. */
function catalogueTexts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'function') {
    const fn = value as (...args: unknown[]) => unknown;
    // Called with slots, a template shows its fixed words; one that needs numbers or lists throws or says less.
    // A sentence returned in parts (to set some of them in bold) is joined first.
    try {
      const said = fn(...Array.from({ length: fn.length }, () => SLOT));
      if (Array.isArray(said))
        return said
          .filter((part) => typeof part === 'string')
          .join('')
          .split(SLOT);
      return typeof said === 'string' ? said.split(SLOT) : [];
    } catch {
      return [];
    }
  }
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(catalogueTexts);
  return [];
}

/** A run of three or more English words: what makes a fragment an English sentence rather than a name or a unit. */
const ENGLISH_RUN = /[A-Za-z]+(?:['’][a-z]+)?(?:,?\s+[A-Za-z]+(?:['’][a-z]+)?){2,}/g;

/** The English sentences of the lab's catalogue: whole strings of two words or more, and runs of three words in any. */
const ENGLISH_SENTENCES = [
  ...new Set(
    catalogueTexts(EN).flatMap((text) => [
      ...(/^[A-Za-z][^\s]*\s+[A-Za-z]/.test(text.trim()) ? [text.trim()] : []),
      ...(text.match(ENGLISH_RUN) ?? []),
    ]),
  ),
];

/** The English words a worker's stage starts with (EN.frame.stage): none may reach a Chinese progress line. */
const ENGLISH_STAGE_WORDS = /\b(?:starting|loading|compiling|step|timing|forward|Training)\b/;

/**
 * Starts recording every text the experiment's status line shows. A MutationObserver rather than polling from the
 * test: a stage can last a few milliseconds on WebAssembly, shorter than a round trip to the browser.
 */
async function recordStatus(page: Page, selector: string): Promise<() => Promise<string[]>> {
  await page.evaluate((sel) => {
    const status = document.querySelector<HTMLElement>(`${sel} .lab-status`);
    if (!status) throw new Error(`no status line in ${sel}`);
    const seen: string[] = [];
    (window as unknown as { labStatusTexts: string[] }).labStatusTexts = seen;
    new MutationObserver(() => seen.push(status.innerText)).observe(status, {
      childList: true,
      subtree: true,
      characterData: true,
    });
  }, selector);
  return () => page.evaluate(() => (window as unknown as { labStatusTexts: string[] }).labStatusTexts);
}

describe('the lab in Chinese', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
  });
  afterAll(() => browser?.close());

  test('the catalogue walk finds the English it is meant to refuse', () => {
    // The walk must see both plain strings and the fixed words of templates, or the checks below could not fail.
    expect(ENGLISH_SENTENCES).toContain(EN.single.caption);
    expect(ENGLISH_SENTENCES.some((s) => s.startsWith('so this experiment will run on'))).toBe(true);
  });

  test(
    'a gradient-checkpointing run on a /zh-cn/ lesson: Chinese controls, status, table, sentences and chart, no English sentence',
    { timeout: RUN_TIMEOUT_MS + 60_000 },
    async () => {
      await withRecordingPage(browser, baseUrl, async (page, problems) => {
        const root = await openIsland(page, `${baseUrl}/zh-cn${lessonHref(ID)}`, SELECTOR);
        expect(await root.getAttribute('aria-label')).toBe(
          ZH.frame.ariaLabel(ZH.single.title(ZH.single.experiments[ID].before, ZH.single.experiments[ID].after)),
        );
        // Before Run: the fields, the button and what the WebAssembly path will not show.
        expect(await root.locator('.widget-field > span').allTextContents()).toEqual(
          (['hidden', 'layers', 'batch'] as const).map((field) => ZH.controls.labels[field]),
        );
        expect(await root.locator('[data-action="run"]').textContent()).toBe(ZH.frame.run);
        expect(await root.locator('[data-backend-note]').textContent()).toContain(ZH.single.experiments[ID].wasmUnmeasurable);
        expect(await root.locator('[data-lab-method]').getAttribute('href')).toBe(localizedHref('zh-cn', LAB_METHOD_HREF));

        const statusTexts = await recordStatus(page, SELECTOR);
        await runExperimentToEnd(page, root, SELECTOR, RUN_TIMEOUT_MS);
        expect(await root.getAttribute('data-state'), (await root.textContent()) ?? '').toBe('done');
        expect(await root.getAttribute('data-backend')).toBe('wasm');

        // The progress line while it ran: each side by its Chinese name, the worker's stage in Chinese.
        const shownWhileRunning = await statusTexts();
        const sideLines = (side: string) =>
          shownWhileRunning.filter((text) => text.startsWith(ZH.frame.progress(side, '').slice(0, -1)));
        const { before, after } = ZH.single.experiments[ID];
        expect(sideLines(before).length, shownWhileRunning.join('\n')).toBeGreaterThan(0);
        expect(sideLines(after).length, shownWhileRunning.join('\n')).toBeGreaterThan(0);
        expect(
          shownWhileRunning.some((text) => /第 1 步，共 \d+ 步/.test(text)),
          shownWhileRunning.join('\n'),
        ).toBe(true);
        for (const text of shownWhileRunning) {
          expect(text).toMatch(HAN);
          expect(text).not.toMatch(ENGLISH_STAGE_WORDS);
          expect(ENGLISH_SENTENCES.filter((sentence) => text.includes(sentence))).toEqual([]);
        }

        // The results table: its caption, headings and row names from the Chinese catalogue.
        expect(await root.locator('caption').textContent()).toBe(ZH.single.caption);
        expect(await root.locator('thead th').allTextContents()).toEqual(ZH.single.columns);
        const rows = await root.locator('tbody th[scope="row"]').allTextContents();
        expect(rows[0]).toContain(ZH.single.experiments[ID].before);
        expect(rows[1]).toContain(ZH.single.experiments[ID].after);
        // The status says which backend ran, in Chinese.
        expect(await root.locator('.lab-status').textContent()).toMatch(HAN);
        // The chart: its axis titles and legend, and its description to assistive technology.
        const chart = root.locator('.lab-timeline');
        await expect.poll(() => chart.locator('[role="img"]').count()).toBeGreaterThan(0);
        // textContent: the chart's axis titles are SVG text, which innerText does not promise to include.
        const chartText = (await chart.textContent()) ?? '';
        expect(chartText).toContain(ZH.single.timeAxis);
        expect(chartText).toContain(ZH.timeline.yAxis(ZH.single.chartHeap));
        expect(chartText).toContain(ZH.single.experiments[ID].before);
        expect(await chart.locator('[role="img"]').first().getAttribute('aria-label')).toMatch(HAN);

        const shown = `${await root.innerText()}\n${chartText}`;
        expect(shown).toContain(ZH.single.experiments[ID].passLabel);
        const english = ENGLISH_SENTENCES.filter((sentence) => shown.includes(sentence));
        expect(english).toEqual([]);
        expect(problems.pageErrors).toEqual([]);
        expect(problems.consoleErrors).toEqual([]);
      });
    },
  );

  test('the English lesson keeps the English experiment', { timeout: RUN_TIMEOUT_MS + 60_000 }, async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const root = await openIsland(page, `${baseUrl}${lessonHref(ID)}`, SELECTOR);
      expect(await root.locator('.widget-field > span').allTextContents()).toEqual(
        (['hidden', 'layers', 'batch'] as const).map((field) => EN.controls.labels[field]),
      );
      expect(await root.locator('[data-action="run"]').textContent()).toBe(EN.frame.run);
      expect(await root.locator('[data-backend-note]').textContent()).toContain(EN.single.experiments[ID].wasmUnmeasurable);
      expect(await root.locator('[data-lab-method]').getAttribute('href')).toBe(LAB_METHOD_HREF);
      expect(await root.innerText()).not.toMatch(HAN);

      // Its progress line names the sides and the worker's stage in English.
      const statusTexts = await recordStatus(page, SELECTOR);
      await runExperimentToEnd(page, root, SELECTOR, RUN_TIMEOUT_MS);
      expect(await root.getAttribute('data-state'), (await root.textContent()) ?? '').toBe('done');
      const shownWhileRunning = await statusTexts();
      const firstStep = EN.frame.progress(EN.single.experiments[ID].before, EN.frame.stage({ kind: 'step', step: 1, steps: 1 }));
      // The step count depends on the backend: compare up to "of".
      expect(
        shownWhileRunning.some((text) => text.startsWith(firstStep.slice(0, firstStep.indexOf(' of ')))),
        shownWhileRunning.join('\n'),
      ).toBe(true);
      for (const text of shownWhileRunning) expect(text).not.toMatch(HAN);
      expect(problems.pageErrors).toEqual([]);
    });
  });
});

describe('a cluster experiment in Chinese', () => {
  const CLUSTER_ID = 'pipeline-parallel';
  const CLUSTER_SELECTOR = `[data-experiment="${CLUSTER_ID}"]`;
  /** Two fresh devices per side, each compiling its shaders on the CPU (SwiftShader). */
  const CLUSTER_TIMEOUT_MS = 300_000;
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ name: 'webgpu-on', webgpu: true });
  });
  afterAll(() => browser?.close());

  test(
    'pipeline parallel on the /zh-cn/ lesson: every virtual GPU reports its stage in Chinese while it runs',
    { timeout: CLUSTER_TIMEOUT_MS + 60_000 },
    async () => {
      await withRecordingPage(browser, baseUrl, async (page, problems) => {
        const root = await openIsland(page, `${baseUrl}/zh-cn${experimentPage(CLUSTER_ID)}`, CLUSTER_SELECTOR);
        const statusTexts = await recordStatus(page, CLUSTER_SELECTOR);
        await runExperimentToEnd(page, root, CLUSTER_SELECTOR, CLUSTER_TIMEOUT_MS);
        expect(await root.getAttribute('data-state'), (await root.textContent()) ?? '').toBe('done');

        const shownWhileRunning = await statusTexts();
        const { before, after } = ZH.cluster.experiments.sides[CLUSTER_ID];
        // Each side's devices by the side's Chinese name and their rank.
        for (const who of [ZH.cluster.deviceOfSide(before, 0), ZH.cluster.deviceOfSide(after, 1)]) {
          const prefix = ZH.frame.progress(who, '').slice(0, -1);
          expect(
            shownWhileRunning.some((text) => text.startsWith(prefix)),
            `${prefix}\n${shownWhileRunning.join('\n')}`,
          ).toBe(true);
        }
        // A pipeline stage loads its slice of the layers; on WebGPU it first runs a warm-up step that compiles the shaders.
        expect(shownWhileRunning.some((text) => /正在加载第 \d+–\d+ 层/.test(text))).toBe(true);
        expect(shownWhileRunning.some((text) => text.includes('：正在编译着色器（'))).toBe(true);
        for (const text of shownWhileRunning) {
          expect(text).toMatch(HAN);
          expect(text).not.toMatch(ENGLISH_STAGE_WORDS);
          expect(ENGLISH_SENTENCES.filter((sentence) => text.includes(sentence))).toEqual([]);
        }
        expect(problems.pageErrors).toEqual([]);
      });
    },
  );
});
