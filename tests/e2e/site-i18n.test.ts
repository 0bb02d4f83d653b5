import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { estimateCommand } from '../../src/cli/estimate-command';
import { runCommand } from '../../src/cli/command';
import { flagArgs } from '../../src/memory/index';
import { LOCALES, localeOfPath } from '../../src/i18n/locales';
import { MESSAGES } from '../../src/i18n/messages/index';
import { lessonHref } from '../../src/base/lessons';
import { launchBrowser, openIsland, withRecordingPage } from '../../scripts/browser/browser';
import { DIST_DIR, hasOwnSource, listBuiltPages } from './support/site-pages';
import { HAN } from '../support/chinese-text';

/**
 * The two languages of the built site (issue #33): each page says its language, links its other-language twin both
 * ways, the sitemap lists both, search on a Chinese page finds Chinese pages only, and a calculator opened from a
 * /zh-cn/ link restores the same state as from the English one (the URL query is the CLI's flags in both).
 */
const baseUrl = inject('baseUrl');
const pages = listBuiltPages().filter((path) => path.endsWith('/'));
/** The built HTML of a URL path. */
const htmlOf = (path: string): string => readFileSync(join(DIST_DIR, path, 'index.html'), 'utf8');

/** The hreflang alternates a built page links in its head, as `lang → path`. */
function alternatesOf(path: string): Record<string, string> {
  const links = [...htmlOf(path).matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)"/g)];
  return Object.fromEntries(links.map(([, lang = '', href = '']) => [lang, new URL(href).pathname]));
}

describe('every page says its language', () => {
  test('both languages are built, every English page also under /zh-cn/', () => {
    const english = pages.filter((path) => localeOfPath(path) === 'en');
    const chinese = new Set(pages.filter((path) => localeOfPath(path) === 'zh-cn'));
    expect(english.length).toBeGreaterThan(20);
    expect(english.filter((path) => !chinese.has(`/zh-cn${path}`))).toEqual([]);
  });

  test.each(pages)('%s: <html lang> and the hreflang alternates, both ways', (path) => {
    const locale = localeOfPath(path);
    expect(htmlOf(path)).toMatch(new RegExp(`<html[^>]* lang="${LOCALES[locale].lang}"`));
    const english = locale === 'en' ? path : path.slice('/zh-cn'.length);
    expect(alternatesOf(path)).toEqual({ en: english, 'zh-CN': `/zh-cn${english}`, 'x-default': english });
  });
});

test.each(pages.filter((path) => localeOfPath(path) === 'zh-cn' && path.startsWith('/zh-cn/lessons/')))(
  '%s: the “what to do” box is titled in the language of the lesson shown',
  (path) => {
    const title = /<p class="what-to-do-title"[^>]*>([^<]*)<\/p>/.exec(htmlOf(path))?.[1];
    expect(title).toBe(MESSAGES[hasOwnSource(path) ? 'zh-cn' : 'en'].lesson.whatToDo);
  },
);

test('the sitemap lists both languages, each URL with its alternates', () => {
  const sitemap = readFileSync(join(DIST_DIR, 'sitemap-0.xml'), 'utf8');
  const urls = [...sitemap.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((m) => m[1] ?? '');
  const locOf = (url: string) => new URL(/<loc>([^<]+)<\/loc>/.exec(url)?.[1] ?? '').pathname;
  const chinese = urls.filter((url) => localeOfPath(locOf(url)) === 'zh-cn');
  expect(chinese.length).toBeGreaterThan(20);
  for (const url of urls.filter((u) => locOf(u) === '/lessons/offload/' || locOf(u) === '/zh-cn/lessons/offload/')) {
    expect(url).toMatch(/<xhtml:link rel="alternate" hreflang="en" href="[^"]*\/lessons\/offload\/"/);
    expect(url).toMatch(/<xhtml:link rel="alternate" hreflang="zh-CN" href="[^"]*\/zh-cn\/lessons\/offload\/"/);
  }
});

/** What `estimate --json` prints as `perGpu.total` for a URL query in the shared flag vocabulary. */
function cliTotal(query: URLSearchParams): number {
  const { code, stdout, stderr } = runCommand(estimateCommand, [...flagArgs(query), '--json']);
  expect(code, stderr).toBe(0);
  return (JSON.parse(stdout) as { perGpu: { total: number } }).perGpu.total;
}

describe('in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
  });
  afterAll(() => browser?.close());

  test('the header has a language picker that opens the other language’s page', async () => {
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      await page.goto(`${baseUrl}${lessonHref('offload')}`);
      const picker = page.locator('header starlight-lang-select select').first();
      await picker.selectOption({ label: '简体中文' });
      await page.waitForURL(`${baseUrl}/zh-cn${lessonHref('offload')}`);
      expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
      expect(problems.pageErrors).toEqual([]);
    });
  });

  test('a calculator restores its state from a /zh-cn/ link as from the English one, and speaks the page’s language', async () => {
    const query = new URLSearchParams({ model: 'llama-3.1-8b', gpu: 'rtx-4090', seq: '2048', 'micro-batch': '4' });
    const path = lessonHref('where-the-memory-goes');
    const zhPath = `/zh-cn${path}`;
    const shown = async (page: Page, url: string) => {
      const root = await openIsland(page, url, '[data-calculator="breakdown"]');
      await expect.poll(() => root.locator('[data-flag="micro-batch"]').inputValue()).toBe('4');
      return {
        total: Number(await root.getAttribute('data-total-bytes')),
        answer: (await root.locator('.calc-answer').textContent()) ?? '',
      };
    };
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      const english = await shown(page, `${baseUrl}${path}?${query.toString()}`);
      const chinese = await shown(page, `${baseUrl}${zhPath}?${query.toString()}`);
      expect(chinese.total).toBe(english.total);
      expect(chinese.total).toBe(cliTotal(query));
      // A translated lesson's calculator is in Chinese; Starlight's English fallback page keeps it English.
      if (hasOwnSource(zhPath)) {
        expect(chinese.answer).toMatch(HAN);
        expect(chinese.answer).toContain('RTX 4090');
      } else expect(chinese.answer).toBe(english.answer);
      expect(problems.pageErrors).toEqual([]);
      expect(problems.consoleErrors).toEqual([]);
    });
  });

  test('the landing page’s “will it fit” line is in the page’s language before and after hydration', async () => {
    const title = MESSAGES['zh-cn'].willItFit.title;
    expect(htmlOf('/zh-cn/')).toContain(`aria-label="${title}"`);
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      // Chinese text is drawn in the reader's system CJK fonts: the page downloads no font.
      const fonts: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'font') fonts.push(request.url());
      });
      const root = await openIsland(page, `${baseUrl}/zh-cn/`, '.will-it-fit');
      expect(await root.getAttribute('aria-label')).toBe(title);
      const verdict = (await root.locator('.will-it-fit-verdict').textContent()) ?? '';
      expect(verdict).toMatch(HAN);
      expect(verdict).toMatch(/\d GiB/);
      // Its lesson links stay in Chinese.
      const links = await root
        .locator('a[data-lesson]')
        .evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
      expect(links.length).toBeGreaterThan(0);
      expect(links.filter((href) => !href.startsWith('/zh-cn/'))).toEqual([]);
      expect(fonts).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
      expect(problems.consoleErrors).toEqual([]);
    });
  });

  test('search on a Chinese page says “no results” in Chinese', async () => {
    await withRecordingPage(browser, baseUrl, async (page) => {
      await page.goto(`${baseUrl}/zh-cn/`);
      await page.locator('button[data-open-modal]').click();
      await page.locator('#starlight__search input').fill('xyzzy');
      const message = MESSAGES['zh-cn'].ui['pagefind.zero_results'].replace('[SEARCH_TERM]', 'xyzzy');
      // Pagefind's own message when nothing matches, or the site's when Pagefind backtracked (search-match.ts).
      const shownMessages = () =>
        page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>('.search-container .pagefind-ui__message, .search-no-match')]
            .filter((m) => m.checkVisibility())
            .map((m) => m.textContent?.trim() ?? ''),
        );
      await expect.poll(shownMessages).toEqual([message]);
    });
  });

  test('search on a Chinese page for 显存 lists Chinese pages only', async () => {
    await withRecordingPage(browser, baseUrl, async (page) => {
      await page.goto(`${baseUrl}/zh-cn/`);
      await page.locator('button[data-open-modal]').click();
      await page.locator('#starlight__search input').fill('显存');
      const results = page.locator('.pagefind-ui__result-title a');
      await results.first().waitFor();
      const urls = await results.evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
      expect(urls.length).toBeGreaterThan(0);
      expect(urls.filter((url) => !url.startsWith('/zh-cn/'))).toEqual([]);
    });
  });
});
