import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { formatGiB } from '../../src/base/bytes';
import { estimateMemory } from '../../src/memory';
import { launchBrowser, openRecordingPage, waitForHydration } from '../../scripts/browser/browser';
import { lessonHref } from '../../src/base/lessons';

/**
 * Site-level details from issue #15: the landing tab's title, math that must not wrap inside a
 * term ("GB $10^9$"), wide lesson tables that show they scroll, and search that finds nothing
 * for a nonsense word. None of these depends on WebGPU, so one configuration is enough.
 */
const baseUrl = inject('baseUrl');
const WIDTHS = [390, 1280] as const;

describe('site details', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
  });
  afterAll(() => browser?.close());

  test('the landing tab names the site once; a lesson tab reads "<lesson> | GPU Memory Lab"', async () => {
    const { context, page } = await openRecordingPage(browser, baseUrl);
    try {
      await page.goto(`${baseUrl}/`);
      const landing = await page.title();
      expect(landing.match(/GPU Memory Lab/g)).toHaveLength(1);
      await page.goto(baseUrl + lessonHref('01-diagnostics'));
      expect(await page.title()).toBe('Diagnostics | GPU Memory Lab');
    } finally {
      await context.close();
    }
  });

  test.each(WIDTHS)('at %i px, no inline formula breaks inside a term (KaTeX breaks only between its bases)', async (width) => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    try {
      const page = await context.newPage();
      for (const path of [lessonHref('05-parallelism'), lessonHref('08-putting-it-together'), '/glossary/']) {
        await page.goto(baseUrl + path);
        const broken = await page.evaluate(() =>
          [...document.querySelectorAll('.katex .base')]
            .filter((base) => !base.closest('.katex-display'))
            .filter(
              (base) => new Set([...base.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size > 1,
            )
            .map((base) => base.closest('.katex')?.querySelector('annotation')?.textContent ?? base.textContent),
        );
        expect(broken, path).toEqual([]);
      }
    } finally {
      await context.close();
    }
  });

  test.each(WIDTHS)("at %i px, lesson 8's worked-case table scrolls sideways and shows it", async (width) => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(baseUrl + lessonHref('08-putting-it-together'));
      const table = page.locator('.sl-markdown-content table', { hasText: 'Fits in' }).first();
      const style = await table.evaluate((el) => {
        const css = getComputedStyle(el);
        return {
          overflowX: css.overflowX,
          image: css.backgroundImage,
          attachment: css.backgroundAttachment,
          scrolls: el.scrollWidth > el.clientWidth,
          tabIndex: (el as HTMLElement).tabIndex,
        };
      });
      expect(style.scrolls, 'the table is wider than the column').toBe(true);
      expect(style.overflowX).toBe('auto');
      expect(style.tabIndex).toBe(0);
      // The edge shadows: covers that scroll with the table over shadows that stay put.
      expect(style.image).toContain('radial-gradient');
      expect(style.attachment).toContain('local');
      expect(style.attachment).toContain('scroll');
    } finally {
      await context.close();
    }
  });

  test('the landing page answers "will it fit?" with the engine\'s numbers, and follows the reader\'s picks', async () => {
    const { context, page, problems } = await openRecordingPage(browser, baseUrl);
    try {
      await page.goto(`${baseUrl}/`);
      const island = page.locator('.will-it-fit');
      await island.scrollIntoViewIfNeeded();
      await waitForHydration(page, '.will-it-fit');
      const engine = estimateMemory({ model: 'llama-2-7b', gpu: 'rtx-4090', mode: 'train' });
      if (!engine.ok) throw new Error('the engine refused the landing page default');
      expect(await island.getAttribute('data-fits')).toBe(String(engine.result.fits));
      expect(await island.textContent()).toContain(`${formatGiB(engine.result.shortfall ?? 0, 1)} over`);
      await island.getByLabel('Model').selectOption('gpt2');
      await island.getByLabel('Job').selectOption('infer');
      await page.waitForFunction(() => document.querySelector('.will-it-fit')?.getAttribute('data-fits') === 'true');
      expect(await island.textContent()).toContain('to spare');
      expect(problems.pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('search finds nothing for a nonsense word, and still finds a real one', async () => {
    const { context, page } = await openRecordingPage(browser, baseUrl);
    try {
      await page.goto(`${baseUrl}/`);
      const search = async (term: string): Promise<{ visible: number; message: string }> => {
        await page.locator('button[data-open-modal]').click();
        const input = page.locator('#starlight__search input');
        await input.fill(term);
        // Pagefind debounces, searches, says how many it found and lists them, then loads each
        // result's excerpt; only then can a backtracked result be told apart and hidden. Wait
        // until every listed result has its excerpt and the list agrees with the message shown.
        await page.waitForFunction((t) => {
          const messages = [...document.querySelectorAll<HTMLElement>('.search-container .pagefind-ui__message')]
            .filter((m) => !m.hidden && m.textContent?.includes(t) && !m.textContent.startsWith('Searching'))
            .map((m) => m.textContent ?? '');
          const loading = document.querySelector('.pagefind-ui__result .pagefind-ui__loading') !== null;
          const listed = [...document.querySelectorAll<HTMLElement>('.pagefind-ui__result')].some((r) => !r.hidden);
          return messages.length > 0 && !loading && messages.every((m) => m.startsWith('No results') !== listed);
        }, term);
        const found = await page.evaluate(() => ({
          visible: [...document.querySelectorAll<HTMLElement>('.pagefind-ui__result')].filter((r) => !r.hidden).length,
          message: [...document.querySelectorAll<HTMLElement>('.search-container .pagefind-ui__message')]
            .filter((m) => !m.hidden)
            .map((m) => m.textContent ?? '')
            .join(' '),
        }));
        await page.keyboard.press('Escape');
        return found;
      };
      // Without the fix Pagefind backtracks "xqzvbnm" to "x" and lists every page with an "x".
      expect(await search('xqzvbnm')).toEqual({ visible: 0, message: 'No results for xqzvbnm' });
      const real = await search('checkpointing');
      expect(real.visible).toBeGreaterThan(0);
      expect(real.message).toMatch(/\d+ results? for checkpointing/);
    } finally {
      await context.close();
    }
  });
});
