import { DEFAULT_LOCALE, LOCALES, localeOfPath } from '../../../../src/i18n/locales';

/**
 * The English page a page of `content/docs/` translates, by paths relative to that folder: `zh-cn/lessons/offload.mdx`
 * → `lessons/offload.mdx`; an English page is its own source. Content tests that key a rule by page (a typed time
 * allowed on one lesson, the one page that states the lab's caveats) apply it to the page's translations too.
 */
export function sourcePathOf(path: string): string {
  const locale = localeOfPath(path);
  return locale === DEFAULT_LOCALE ? path : path.slice(LOCALES[locale].path.length + 1);
}

/** Whether `path` (relative to `content/docs/`) is a translation rather than an English page. */
export function isTranslation(path: string): boolean {
  return localeOfPath(path) !== DEFAULT_LOCALE;
}
