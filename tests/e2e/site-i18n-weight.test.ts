import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { localeOfPath } from '../../src/i18n/locales';
import { launchBrowser, withRecordingPage } from '../../scripts/browser/browser';
import { hasOwnSource, listBuiltPages } from './support/site-pages';

/**
 * Issue #33: a Chinese page stays within its English twin's weight budget. Each translated page and its English
 * original are loaded in Chromium, scrolled through so that every island hydrates, and every byte they fetch is
 * counted (bodies and headers, nothing pressed: the lab's runtime and the planner's search load only on a button).
 * The Chinese page may weigh at most WEIGHT_MARGIN more: Chinese prose is fewer characters at three bytes each, and
 * the islands ship both languages' catalogues to both pages, so a larger difference means something loaded that the
 * English page does not load (a font, a second copy of a bundle).
 */
const baseUrl = inject('baseUrl');
const WEIGHT_MARGIN = 0.1;

const translated = listBuiltPages().filter((path) => path.endsWith('/') && localeOfPath(path) === 'zh-cn' && hasOwnSource(path));

/** Every byte the page at `url` fetches once each of its islands has come into view. */
async function weigh(page: Page, url: string): Promise<number> {
  let bytes = 0;
  const counted: Promise<void>[] = [];
  page.on('requestfinished', (request) => {
    counted.push(request.sizes().then((sizes) => void (bytes += sizes.responseBodySize + sizes.responseHeadersSize)));
  });
  await page.goto(url);
  // Islands hydrate when they come into view (client:visible), and Astro drops an island's `ssr` attribute once it
  // has: bring each into view in turn until none that a reader can see is left. (One inside a closed <details> stays
  // unhydrated on both pages alike.)
  await page.waitForFunction(
    () => {
      const waiting = [...document.querySelectorAll('astro-island[ssr]')]
        .map((island) => island.firstElementChild)
        .find((shown) => shown?.checkVisibility() === true);
      waiting?.scrollIntoView();
      return waiting === undefined;
    },
    undefined,
    { polling: 100, timeout: 30_000 },
  );
  await page.waitForLoadState('networkidle');
  await Promise.all(counted);
  return bytes;
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
});
afterAll(() => browser?.close());

test.each(translated)('%s weighs at most 10 % more than its English original', async (path) => {
  let zh = 0;
  let en = 0;
  await withRecordingPage(browser, baseUrl, async (page) => {
    zh = await weigh(page, `${baseUrl}${path}`);
  });
  await withRecordingPage(browser, baseUrl, async (page) => {
    en = await weigh(page, `${baseUrl}${path.slice('/zh-cn'.length)}`);
  });
  expect(en).toBeGreaterThan(100_000);
  expect(zh).toBeLessThanOrEqual(en * (1 + WEIGHT_MARGIN));
});
