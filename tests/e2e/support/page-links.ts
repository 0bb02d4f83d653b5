import type { Page } from 'playwright-core';

/** What a page links to and which fragment targets it offers. */
export interface PageLinks {
  /** Absolute URLs of every `<a href>` on the page. */
  hrefs: string[];
  /** Every `id` in the page, the targets a `#fragment` may name. */
  ids: string[];
}

export function collectLinks(page: Page): Promise<PageLinks> {
  return page.evaluate(() => ({
    hrefs: [...document.querySelectorAll<HTMLAnchorElement>('a[href]')].map((a) => a.href),
    ids: [...document.querySelectorAll('[id]')].map((el) => el.id),
  }));
}

/**
 * Internal links that do not resolve: the target page is not in `pages`, or its `#fragment`
 * names no element there. `pages` maps a URL path to the ids found on that page.
 * Targets outside the page set (feeds, files) are returned for an HTTP check instead.
 */
export function findBrokenLinks(
  origin: string,
  linksByPage: Map<string, PageLinks>,
): { broken: string[]; otherTargets: Set<string> } {
  const broken: string[] = [];
  const otherTargets = new Set<string>();
  for (const [from, { hrefs }] of linksByPage) {
    for (const href of hrefs) {
      const url = new URL(href);
      if (url.origin !== origin) continue;
      const target = linksByPage.get(url.pathname);
      if (!target) {
        otherTargets.add(url.pathname);
        continue;
      }
      const fragment = decodeURIComponent(url.hash.slice(1));
      if (fragment && !target.ids.includes(fragment)) broken.push(`${from} → ${url.pathname}#${fragment} (no such id)`);
    }
  }
  return { broken, otherTargets };
}
