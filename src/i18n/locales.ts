/**
 * The site's languages (issue #33): English at the root, 简体中文 under /zh-cn/. `path` is the URL and content folder
 * prefix (astro.config.mjs's Starlight `locales` keys), `lang` the BCP 47 tag of <html lang> and `Intl`.
 */
export const LOCALES = {
  en: { path: '', lang: 'en' },
  'zh-cn': { path: 'zh-cn', lang: 'zh-CN' },
} as const;

/** A language of the site, by its URL prefix (`en` has none). */
export type Locale = keyof typeof LOCALES;

/** The language of every page not under a locale's folder. */
export const DEFAULT_LOCALE: Locale = 'en';

/** Whether `value` names a language of the site. */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && Object.hasOwn(LOCALES, value);
}

/**
 * The language of a page from its path (a URL path or a content file's path relative to `content/docs/`): the locale
 * whose folder it starts with, else the default.
 */
export function localeOfPath(path: string): Locale {
  const first = path.replace(/^\/+/, '').split('/')[0];
  const found = (Object.keys(LOCALES) as Locale[]).find(
    (locale) => LOCALES[locale].path !== '' && LOCALES[locale].path === first,
  );
  return found ?? DEFAULT_LOCALE;
}

/** `href`, a path from the site's root, in `locale`'s folder: `/lessons/offload/` → `/zh-cn/lessons/offload/`. */
export function localizedHref(locale: Locale, href: string): string {
  const folder = LOCALES[locale].path;
  return folder === '' ? href : `/${folder}${href}`;
}
