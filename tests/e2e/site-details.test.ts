import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { formatGiB } from '../../src/base/bytes';
import { DEFAULT_STACK } from '../../src/memory';
import { SITE_DEFAULTS } from '../../src/components/calculators/site-defaults';
import { willItFit } from '../../src/components/landing/will-it-fit';
import { launchBrowser, withRecordingPage, waitForHydration } from '../../scripts/browser/browser';
import { lessonHref } from '../../src/base/lessons';

/**
 * Site-level details: the landing tab's title, math that must not wrap inside a
 * term ("GB $10^9$"), wide lesson tables that show they scroll, a key table that must fit without
 * scrolling, and the landing page's "will it fit?" answer (search has its own file, search.test.ts).
 * None of these depends on WebGPU, so one configuration is enough.
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
    await withRecordingPage(browser, baseUrl, async (page) => {
      await page.goto(`${baseUrl}/`);
      const landing = await page.title();
      expect(landing.match(/GPU Memory Lab/g)).toHaveLength(1);
      await page.goto(baseUrl + lessonHref('where-the-memory-goes'));
      expect(await page.title()).toBe('Where the memory goes | GPU Memory Lab');
    });
  });

  test.each(WIDTHS)('at %i px, no inline formula breaks inside a term (KaTeX breaks only between its bases)', async (width) => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    try {
      const page = await context.newPage();
      for (const path of [lessonHref('parallelism'), lessonHref('putting-it-together'), '/glossary/']) {
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
      await page.goto(baseUrl + lessonHref('putting-it-together'));
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

  test('on a phone the landing page has the menu, and the menu has the theme switch', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      await page.goto(`${baseUrl}/`);
      const menuButton = page.locator('button[popovertarget="starlight__sidebar"]');
      await expect.poll(() => menuButton.isVisible()).toBe(true);
      await menuButton.click();
      const themeSwitch = page.locator('#starlight__sidebar starlight-theme-select select');
      await expect.poll(() => themeSwitch.isVisible()).toBe(true);
      await themeSwitch.selectOption('light');
      expect(await page.locator('html').getAttribute('data-theme')).toBe('light');
    } finally {
      await context.close();
    }
  });

  test("at 1280 px, lesson 1's bytes-per-parameter table shows its Adam and total columns without scrolling", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(baseUrl + lessonHref('where-the-memory-goes'));
      const table = page.locator('.sl-markdown-content table', { hasText: 'our flag' }).first();
      const layout = await table.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const headers = [...el.querySelectorAll('thead th')].map((th) => {
          const cell = th.getBoundingClientRect();
          return { text: th.textContent?.trim() ?? '', left: cell.left, right: cell.right };
        });
        return { scrollWidth: el.scrollWidth, clientWidth: el.clientWidth, left: box.left, right: box.right, headers };
      });
      expect(layout.scrollWidth, 'the table needs no sideways scroll').toBeLessThanOrEqual(layout.clientWidth);
      for (const name of ['Adam', 'Total']) {
        const header = layout.headers.find((h) => h.text === name);
        expect(header, `a "${name}" column`).toBeDefined();
        expect(header!.left).toBeGreaterThanOrEqual(layout.left);
        expect(header!.right).toBeLessThanOrEqual(layout.right + 0.5);
      }
    } finally {
      await context.close();
    }
  });

  test('the landing page answers "will it fit?" with the engine\'s numbers, and follows the reader\'s picks', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      await page.goto(`${baseUrl}/`);
      const island = page.locator('.will-it-fit');
      await island.scrollIntoViewIfNeeded();
      await waitForHydration(page, '.will-it-fit');
      const engine = willItFit({
        model: SITE_DEFAULTS.model,
        gpu: SITE_DEFAULTS.gpu,
        gpus: 1,
        job: 'full',
        stack: DEFAULT_STACK,
      });
      if (!engine) throw new Error('the engine refused the landing page default');
      expect(await island.getAttribute('data-fits')).toBe(String(engine.fits));
      expect(await island.textContent()).toContain(`${formatGiB(engine.marginBytes, 1)} over`);
      // On one GPU no remedy shards (no ZeRO); on eight the same part is sharded.
      expect(await island.locator('a[data-lesson="parallelism"]').count()).toBe(0);
      await island.getByLabel('How many').selectOption('8');
      await expect.poll(() => island.locator('a[data-lesson="parallelism"]').count()).toBeGreaterThan(0);
      await island.getByLabel('Model').selectOption('gpt2');
      await island.getByLabel('Job').selectOption('infer');
      await page.waitForFunction(() => document.querySelector('.will-it-fit')?.getAttribute('data-fits') === 'true');
      expect(await island.textContent()).toContain('to spare');
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test("the landing page's figure is lesson 1's calculator's for the same state, and its stack is kept for the next page", async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      await page.goto(`${baseUrl}/`);
      const island = page.locator('.will-it-fit');
      await island.scrollIntoViewIfNeeded();
      await waitForHydration(page, '.will-it-fit');
      await island.getByLabel('Job').selectOption('lora');
      await island.locator('[data-flag="stack"]').selectOption('torchtune');
      await expect.poll(() => island.locator('[data-stack]').getAttribute('data-stack')).toBe('torchtune');
      const landingTotal = await island.getAttribute('data-total-bytes');
      // The full calculator, in the same state: the same figure.
      await island.locator('a.will-it-fit-calculator').click();
      const calculator = page.locator('[data-calculator="breakdown"]');
      await calculator.scrollIntoViewIfNeeded();
      await waitForHydration(page, '[data-calculator="breakdown"]');
      await expect.poll(() => calculator.getAttribute('data-total-bytes')).toBe(landingTotal);
      // A page without stack= in its URL takes the stored answer.
      await page.goto(`${baseUrl}${lessonHref('where-the-memory-goes')}`);
      await page.locator('[data-calculator="breakdown"]').scrollIntoViewIfNeeded();
      await waitForHydration(page, '[data-calculator="breakdown"]');
      await expect
        .poll(() => page.locator('[data-calculator="breakdown"] .calc-stack').getAttribute('data-stack'))
        .toBe('torchtune');
      expect(problems.pageErrors).toEqual([]);
    });
  });
});
