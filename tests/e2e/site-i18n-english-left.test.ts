import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { localeOfPath } from '../../src/i18n/locales';
import { launchBrowser, withRecordingPage } from '../../scripts/browser/browser';
import { hasOwnSource, listBuiltPages } from './support/site-pages';

/**
 * Issue #33: “no user-visible English remains on a zh page, except code, flags and proper names”. Each translated
 * Chinese page is opened in Chromium and, once its islands have rendered, the visible text of its main column is
 * searched for English prose: a run of ENGLISH_RUN or more English words in a row. Code, math, and the titles of
 * sources cited (a link off the site) are left out: they stay English by the rule. A proper name is one to three words
 * (“Megatron-LM”, “NVIDIA H100 SXM5”), so a run of four is a sentence left in English.
 */
const baseUrl = inject('baseUrl');
const ENGLISH_RUN = 4;

const translated = listBuiltPages().filter((path) => path.endsWith('/') && localeOfPath(path) === 'zh-cn' && hasOwnSource(path));

/** Runs of `ENGLISH_RUN` or more English words (letters only, two or more) separated by spaces or light punctuation. */
function englishRuns(text: string): string[] {
  const word = String.raw`[A-Za-z][a-z]+(?:['’][a-z]+)?`;
  const gap = String.raw`[ ,;:()“”"'’/-]+`;
  const run = new RegExp(`${word}(?:${gap}${word}){${ENGLISH_RUN - 1},}`, 'g');
  return [...text.matchAll(run)].map((match) => match[0]);
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
});
afterAll(() => browser?.close());

test('English prose is found by the run detector, Chinese with names and flags is not', () => {
  expect(englishRuns('Press Run to download the runtime')).toEqual(['Press Run to download the runtime']);
  expect(englishRuns('在 NVIDIA H100 SXM5 上用 --zero 3 训练 Llama 3.1 8B')).toEqual([]);
});

test.each(translated)('%s: no English prose outside code, math and cited titles, in text or attributes', async (path) => {
  await withRecordingPage(browser, baseUrl, async (page) => {
    await page.goto(`${baseUrl}${path}`);
    await page.waitForLoadState('networkidle');
    const text = await page.evaluate(() => {
      const main = document.querySelector('main');
      if (main === null) return '';
      const skip = 'pre, code, kbd, .katex, .expressive-code, a[href^="http"], script, style, [hidden], [aria-hidden="true"]';
      const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
      const parts: string[] = [];
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (parent === null || parent.closest(skip) !== null) continue;
        parts.push(node.textContent ?? '');
      }
      for (const element of main.querySelectorAll('[placeholder], [aria-label], [title], [alt]')) {
        if (element.closest(skip) !== null) continue;
        for (const name of ['placeholder', 'aria-label', 'title', 'alt']) parts.push(element.getAttribute(name) ?? '');
      }
      return parts.join('\n');
    });
    expect(englishRuns(text)).toEqual([]);
  });
});
