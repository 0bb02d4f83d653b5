import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { docsSchema, i18nSchema } from '@astrojs/starlight/schema';
import { uiStrings } from './components/overrides/strings';

/**
 * Lessons live in the top-level `content/docs/` (not `src/content/`), so prose and code
 * stay apart. Starlight's own `docsLoader()` only reads `src/content/docs/`, hence `glob`.
 *
 * `i18n` holds the site's words for Starlight's interface in English, the one language. Starlight
 * reads the collection on every page and warns when it is missing; its `i18nLoader()` only reads
 * `src/content/i18n/`, and a file elsewhere would be keyed by its path rather than its language,
 * so the one entry is given inline under the id Starlight looks up: the language, `en`.
 */
export const collections = {
  docs: defineCollection({
    loader: glob({ pattern: '**/[^_]*.{md,mdx}', base: './content/docs' }),
    schema: docsSchema(),
  }),
  i18n: defineCollection({
    loader: () => [{ id: 'en', ...uiStrings }],
    schema: i18nSchema(),
  }),
};
