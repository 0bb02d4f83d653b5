import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { localeOfPath } from '../../src/i18n/locales';
import { launchBrowser, withRecordingPage } from '../../scripts/browser/browser';
import { hasOwnSource, listBuiltPages } from './support/site-pages';

/**
 * Issue #33: “no user-visible English remains on a zh page, except code, flags and proper names”. Each translated
 * Chinese page is opened in Chromium and, once its islands have rendered, the visible text of its main column and its
 * placeholders, labels and tooltips are searched for English prose: ENGLISH_RUN or more English words in a row. A
 * proper name is one to three words (“Megatron-LM”, “NVIDIA H100 SXM5”, “all-gather / reduce-scatter”), so a run of
 * four is a sentence left in English. What stays English by the rule is left out:
 * - code, math and command lines (a figure's tooltip is the `estimate` command that prints it);
 * - a pasted file's sample (a text area's placeholder);
 * - the English term a translation gives in full-width parentheses at its first use, and a source's own words quoted;
 * - titles of sources cited off the site, and what a page marks `lang="en"`: the glossary's English terms and the
 *   calculators' source lines, which cite a paper's section or a tool's source file as published. Only table cells
 *   and citations may be marked so, which the test checks too.
 */
const baseUrl = inject('baseUrl');
const ENGLISH_RUN = 4;
const MARKED_ENGLISH = ['TD', 'CITE'];

const translated = listBuiltPages().filter((path) => path.endsWith('/') && localeOfPath(path) === 'zh-cn' && hasOwnSource(path));

/** English prose in `text`: runs of ENGLISH_RUN or more words, a hyphenated compound counting as one word. */
function englishRuns(text: string): string[] {
  const leftAsEnglish = text.replace(/（[^（）\p{Script=Han}]*）/gu, '').replace(/“[^“”\p{Script=Han}]*”/gu, '');
  const word = String.raw`[A-Za-z][a-z]+(?:['’][a-z]+)?(?:-[A-Za-z][a-z]*)*`;
  const gap = String.raw`[ ,;:()"'’/]+`;
  const run = new RegExp(`${word}(?:${gap}${word}){${ENGLISH_RUN - 1},}`, 'g');
  return [...leftAsEnglish.matchAll(run)].map((match) => match[0]);
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
});
afterAll(() => browser?.close());

test('the run detector finds English prose and passes names, flags, terms and quotes', () => {
  expect(englishRuns('按 Run 之前：Press Run to download the runtime。')).toEqual(['Press Run to download the runtime']);
  expect(englishRuns('在 NVIDIA H100 SXM5 上用 --zero 3 训练 Llama 3.1 8B，all-gather / reduce-scatter 分组')).toEqual([]);
  expect(englishRuns('完全分片数据并行（Fully Sharded Data Parallel）；报错说“Tried to allocate 2.00 GiB”')).toEqual([]);
});

test.each(translated)('%s: no English prose outside code, math, citations and terms', async (path) => {
  await withRecordingPage(browser, baseUrl, async (page) => {
    await page.goto(`${baseUrl}${path}`);
    await page.waitForLoadState('networkidle');
    const { text, marked } = await page.evaluate(() => {
      const main = document.querySelector('main');
      if (main === null) return { text: '', marked: [] };
      const skip =
        'pre, code, kbd, .katex, .expressive-code, a[href^="http"], [lang="en"], script, style, [hidden], [aria-hidden="true"]';
      const parts: string[] = [];
      const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (parent !== null && parent.closest(skip) === null) parts.push(node.textContent ?? '');
      }
      for (const element of main.querySelectorAll('[placeholder], [aria-label], [title], [alt]')) {
        if (element.closest(skip) !== null) continue;
        for (const name of ['aria-label', 'title', 'alt', 'placeholder']) {
          const value = element.getAttribute(name) ?? '';
          const sample = name === 'placeholder' && element.tagName === 'TEXTAREA';
          if (!sample && !value.startsWith('npm ')) parts.push(value);
        }
      }
      const marked = [...main.querySelectorAll('[lang="en"]')].map((element) => element.tagName);
      return { text: parts.join('\n'), marked };
    });
    expect(englishRuns(text)).toEqual([]);
    expect(marked.filter((tag) => !MARKED_ENGLISH.includes(tag))).toEqual([]);
  });
});
