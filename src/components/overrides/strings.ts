/**
 * The site's own words for Starlight's interface, under Starlight's keys (its `i18n` schema):
 * Starlight reads them through the `i18n` collection (src/content.config.ts) and hands the
 * `pagefind.*` ones to Pagefind's search box; Search.astro's script reads them from here.
 */
export const uiStrings = {
  'search.devWarning': 'Search is built with the site: it works after `npm run build`, under `npm run preview`.',
  'pagefind.zero_results': 'No results for [SEARCH_TERM]',
} as const;
