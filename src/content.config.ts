import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { docsSchema, i18nSchema } from '@astrojs/starlight/schema';
import { LOCALES, type Locale } from './i18n/locales';
import { MESSAGES } from './i18n/messages/index';

/**
 * Lessons live in the top-level `content/docs/` (not `src/content/`), so prose and code
 * stay apart. Starlight's own `docsLoader()` only reads `src/content/docs/`, hence `glob`.
 * A translation sits at the same path under the locale's folder (`zh-cn/lessons/offload.mdx`) and
 * records `sourceHash`: the first 16 hex digits of the SHA-256 of the English file it was
 * translated from (tests/unit/content/translations.test.ts compares it with the English today).
 *
 * `i18n` holds the site's words for Starlight's interface in each language, from the message
 * catalogues (src/i18n/messages). Starlight reads the collection on every page and warns when it
 * is missing; its `i18nLoader()` only reads `src/content/i18n/`, and a file elsewhere would be
 * keyed by its path rather than its language, so the entries are given inline under the ids
 * Starlight looks up: each language's BCP 47 tag (`en`, `zh-CN`).
 */
export const collections = {
  docs: defineCollection({
    loader: glob({ pattern: '**/[^_]*.{md,mdx}', base: './content/docs' }),
    schema: docsSchema({
      extend: z.object({
        sourceHash: z
          .string()
          .regex(/^[0-9a-f]{16}$/, 'sourceHash: the first 16 lowercase hex digits of the English file’s SHA-256')
          .optional(),
      }),
    }),
  }),
  i18n: defineCollection({
    loader: () => (Object.keys(LOCALES) as Locale[]).map((locale) => ({ id: LOCALES[locale].lang, ...MESSAGES[locale].ui })),
    schema: i18nSchema(),
  }),
};
