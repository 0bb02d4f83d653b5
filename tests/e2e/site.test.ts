import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { seriousAxeViolations } from './support/axe';
import { hydrateEveryIsland, launchBrowser, openRecordingPage, withRecordingPage } from '../../scripts/browser/browser';
import { collectLinks, findBrokenLinks, type PageLinks } from './support/page-links';
import { listBuiltPages, listRedirectPages } from './support/site-pages';
import { LESSONS, MOVED_LESSONS, lessonHref } from '../../src/base/lessons';

/**
 * Site-wide checks on every built page, once: the pages are the same with and without WebGPU
 * (experiments start only when the reader presses Run, and their runs are tested per
 * configuration in single-experiments.test.ts), so they run with WebGPU on, where an island that probes
 * the adapter on load would show a problem.
 */
const pages = listBuiltPages();
const baseUrl = inject('baseUrl');

test('the built site has the landing page, every lesson and the glossary', () => {
  expect(pages).toContain('/');
  expect(pages).toContain('/glossary/');
  expect(pages.filter((p) => p.startsWith('/lessons/'))).toEqual(LESSONS.map((lesson) => lessonHref(lesson.slug)).sort());
});

describe('old lesson URLs', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
  });
  afterAll(() => browser?.close());

  test.each(Object.entries(MOVED_LESSONS))('/lessons/%s/ opens /lessons/%s/', async (old, slug) => {
    await withRecordingPage(browser, baseUrl, async (page) => {
      await page.goto(`${baseUrl}/lessons/${old}/`);
      await page.waitForURL(`${baseUrl}${lessonHref(slug)}`);
      expect(await page.locator('h1').first().textContent()).toBe(LESSONS.find((l) => l.slug === slug)?.title);
    });
  });
});

describe('every page', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser({ name: 'webgpu-on', webgpu: true });
  });
  afterAll(() => browser?.close());

  test.each(pages)('%s loads cleanly and passes axe', async (path) => {
    const { context, page, problems } = await openRecordingPage(browser, baseUrl);
    const failedResponses: string[] = [];
    page.on('response', (res) => {
      if (res.status() >= 400) failedResponses.push(`${res.status()} ${res.url()}`);
    });
    try {
      const response = await page.goto(baseUrl + path, { waitUntil: 'load' });
      expect(response?.status()).toBe(200);
      // Every `client:visible` island hydrates before the checks.
      await hydrateEveryIsland(page);
      await page.waitForLoadState('networkidle');
      // Expressive Code makes overflowing code blocks focusable from a debounced ResizeObserver
      // (~250 ms after layout); wait for it rather than racing axe against it.
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLElement>('.expressive-code pre')].every(
          (pre) => pre.scrollWidth <= pre.clientWidth || pre.hasAttribute('tabindex'),
        ),
      );
      expect(problems.pageErrors, 'uncaught exceptions').toEqual([]);
      expect(problems.consoleErrors, 'console errors').toEqual([]);
      expect(problems.offsiteRequests, 'requests that leave localhost').toEqual([]);
      expect(failedResponses, 'failed requests').toEqual([]);
      expect(await seriousAxeViolations(page), 'serious or critical axe violations').toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('every internal link and #anchor resolves', async () => {
    // Collected here rather than by the checks above, so this test stands on its own.
    const linksByPage = new Map<string, PageLinks>();
    await withRecordingPage(browser, baseUrl, async (page) => {
      for (const path of pages) {
        await page.goto(baseUrl + path, { waitUntil: 'domcontentloaded' });
        linksByPage.set(path, await collectLinks(page));
      }
    });
    const { origin } = new URL(baseUrl);
    const { broken, otherTargets } = findBrokenLinks(origin, linksByPage);
    const redirects = listRedirectPages();
    for (const path of otherTargets) {
      if (redirects.includes(path)) {
        broken.push(`${path} (an old URL that only redirects: link the page it forwards to)`);
        continue;
      }
      const res = await fetch(origin + path, { method: 'HEAD' });
      if (res.status !== 200) broken.push(`${path} (HTTP ${res.status})`);
    }
    expect(broken).toEqual([]);
  });
});
