import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { launchBrowser, withRecordingPage } from '../../scripts/browser/browser';

/**
 * The search box on the built site (Pagefind, with the fixes of src/components/overrides/): a word
 * on no page finds nothing and says so once, a real word's count matches the results listed, and
 * excerpts show prose, never a formula's TeX source or MathML text. Search does not depend on
 * WebGPU, so one configuration is enough.
 */
const baseUrl = inject('baseUrl');

/** What the reader sees once a search has settled. */
interface SearchView {
  /** The texts of every visible message (Pagefind's count, or the site's "No results"). */
  messages: string[];
  /** How many results are listed and visible, after pressing "Load more" until it is gone. */
  listed: number;
  /** The visible excerpts, as text. */
  excerpts: string[];
  /** The pages of the visible results. */
  urls: string[];
}

/** Types `term` into the search dialog and waits until the results are settled and shown. */
async function search(page: Page, term: string): Promise<SearchView> {
  await page.locator('button[data-open-modal]').click();
  await page.locator('#starlight__search input').fill(term);
  const settled = () =>
    page.waitForFunction((t) => {
      const visible = [
        ...document.querySelectorAll<HTMLElement>('.search-container .pagefind-ui__message, .search-no-match'),
      ].filter((m) => m.checkVisibility());
      // Pagefind debounces, says "Searching", lists results, then loads each one's excerpt.
      const loading = document.querySelector('.pagefind-ui__result .pagefind-ui__loading') !== null;
      return (
        visible.length > 0 &&
        !loading &&
        visible.every((m) => m.textContent?.includes(t) && !m.textContent.startsWith('Searching'))
      );
    }, term);
  await settled();
  const more = page.locator('.pagefind-ui__button');
  while (await more.isVisible()) {
    await more.click();
    await settled();
  }
  const view = await page.evaluate(() => {
    const shown = (selector: string) =>
      [...document.querySelectorAll<HTMLElement>(selector)].filter((el) => el.checkVisibility());
    return {
      messages: shown('.search-container .pagefind-ui__message, .search-no-match').map((m) => m.textContent?.trim() ?? ''),
      listed: shown('.pagefind-ui__result').length,
      excerpts: shown('.pagefind-ui__result-excerpt').map((e) => e.textContent ?? ''),
      urls: shown('.pagefind-ui__result > .pagefind-ui__result-inner > .pagefind-ui__result-title a').map(
        (a) => new URL((a as HTMLAnchorElement).href).pathname,
      ),
    };
  });
  await page.keyboard.press('Escape');
  return view;
}

describe('search', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
  });
  afterAll(() => browser?.close());

  test.each(['xyzzy', 'Quokka'])('"%s", on no page, lists nothing and says so once', async (term) => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      await page.goto(`${baseUrl}/`);
      // Without the fix Pagefind backtracks "xyzzy" to "x" and "Quokka" to "q" (the glossary's "Q."
      // heading), lists those pages, and its count showed next to the site's "No results".
      const view = await search(page, term);
      expect(view.messages).toEqual([`No results for ${term}`]);
      expect(view.listed).toBe(0);
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('a real word lists as many results as its count says', async () => {
    await withRecordingPage(browser, baseUrl, async (page) => {
      await page.goto(`${baseUrl}/`);
      const view = await search(page, 'checkpointing');
      expect(view.messages).toHaveLength(1);
      const count = Number(/^(\d+) results? for checkpointing$/.exec(view.messages[0] ?? '')?.[1]);
      expect(count).toBeGreaterThan(5); // more than one page of results, so "Load more" was pressed
      expect(view.listed).toBe(count);
      expect(view.urls).toContain('/lessons/gradient-checkpointing/');
    });
  });

  test("a word written in formulas shows prose in its excerpts, not the formulas' TeX or MathML", async () => {
    await withRecordingPage(browser, baseUrl, async (page) => {
      await page.goto(`${baseUrl}/`);
      // Lesson 5 writes "bubble" in prose and in $t_\text{bubble}$ (its pipeline-bubble formulas).
      const view = await search(page, 'bubble');
      expect(view.urls).toContain('/lessons/parallelism/');
      expect(view.excerpts.length).toBeGreaterThan(0);
      // Every formula on the result pages, as KaTeX writes it for screen readers (MathML) and as
      // its source (the annotation); one-letter formulas would match any prose.
      const formulaTexts = await page.evaluate(async (urls) => {
        const texts = new Set<string>();
        for (const url of urls) {
          const html = await (await fetch(url)).text();
          const doc = new DOMParser().parseFromString(html, 'text/html');
          for (const math of doc.querySelectorAll('.katex-mathml math')) {
            const source = math.querySelector('annotation')?.textContent ?? '';
            const spoken = (math.textContent ?? '').replace(source, '');
            for (const text of [source, spoken]) if (text.trim().length >= 4) texts.add(text.trim());
          }
        }
        return [...texts];
      }, view.urls);
      expect(formulaTexts.some((text) => text.includes('bubble'))).toBe(true);
      for (const excerpt of view.excerpts) {
        expect(excerpt, 'a TeX command').not.toMatch(/\\[A-Za-z]+|[_^]\{/);
        expect(formulaTexts.filter((text) => excerpt.includes(text))).toEqual([]);
      }
    });
  });
});
