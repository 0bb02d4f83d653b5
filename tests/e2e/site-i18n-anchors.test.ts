import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { localeOfPath } from '../../src/i18n/locales';
import { lessonHref } from '../../src/base/lessons';
import { launchBrowser, withRecordingPage } from '../../scripts/browser/browser';
import { DIST_DIR, hasOwnSource, listBuiltPages } from './support/site-pages';

/**
 * A translated page has its English source's section ids (src/i18n/rehype-source-heading-ids.ts), so a section link
 * written with the English anchor, by an island through `localizedHref` or by a reader switching language, opens
 * the Chinese page at that section, and its table of contents links the same ids.
 */
const baseUrl = inject('baseUrl');

const htmlOf = (path: string): string => readFileSync(join(DIST_DIR, path, 'index.html'), 'utf8');

/** The ids of the headings in a built page's content, in order. */
function contentHeadingIds(path: string): string[] {
  const content = /<div class="sl-markdown-content">([\s\S]*)/.exec(htmlOf(path))?.[1] ?? '';
  return [...content.matchAll(/<h[2-6][^>]* id="([^"]+)"/g)].map((match) => match[1] ?? '');
}

/** The fragments the page's table of contents links, in order (Starlight's first entry is the page's top). */
function tableOfContentsTargets(path: string): string[] {
  const toc = /<starlight-toc[^>]*>([\s\S]*?)<\/starlight-toc>/.exec(htmlOf(path))?.[1] ?? '';
  return [...toc.matchAll(/<a href="#([^"]+)"/g)]
    .map((match) => decodeURIComponent(match[1] ?? ''))
    .filter((id) => id !== '_top');
}

const translatedPages = listBuiltPages().filter(
  (path) => path.endsWith('/') && localeOfPath(path) === 'zh-cn' && hasOwnSource(path),
);

describe('a translated page has its English twin’s section ids', () => {
  test('there are translated pages to check', () => {
    expect(translatedPages.length).toBeGreaterThan(10);
  });

  test.each(translatedPages)('%s: the same heading ids as the English page, in order', (path) => {
    const english = contentHeadingIds(path.slice('/zh-cn'.length));
    expect(contentHeadingIds(path)).toEqual(english);
  });

  test.each(translatedPages)('%s: its table of contents links those ids', (path) => {
    const ids = new Set(contentHeadingIds(path));
    const targets = tableOfContentsTargets(path);
    // The landing page's splash template has no table of contents; every other page with sections lists them.
    const hasTableOfContents = htmlOf(path).includes('<starlight-toc');
    expect(targets.length > 0, 'a page with sections lists them').toBe(hasTableOfContents && ids.size > 0);
    expect(targets.filter((id) => !ids.has(id))).toEqual([]);
  });
});

describe('in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
  });
  afterAll(() => browser?.close());

  test('an English section link on a Chinese lesson scrolls to that section', async () => {
    const path = `/zh-cn${lessonHref('diagnose-your-run')}`;
    const englishIds = contentHeadingIds(lessonHref('diagnose-your-run'));
    const englishId = englishIds[Math.floor(englishIds.length / 2)] ?? '';
    expect(englishId).toMatch(/^[a-z0-9-]+$/);
    await withRecordingPage(browser, baseUrl, async (page, problems) => {
      await page.goto(`${baseUrl}${path}#${englishId}`);
      const heading = page.locator(`[id="${englishId}"]`);
      expect(await heading.evaluate((node) => node.tagName)).toMatch(/^H[2-6]$/);
      // Its text is Chinese: the id is English, the section is the translation's.
      expect(await heading.textContent()).toMatch(/\p{Script=Han}/u);
      await expect.poll(() => heading.evaluate((node) => node.getBoundingClientRect().top)).toBeLessThan(200);
      expect(problems.pageErrors).toEqual([]);
    });
  });
});
