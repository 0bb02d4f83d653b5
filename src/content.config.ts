import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { docsSchema } from '@astrojs/starlight/schema';

/**
 * Lessons live in the top-level `content/docs/` (not `src/content/`), so prose and code
 * stay apart. Starlight's own `docsLoader()` only reads `src/content/docs/`, hence `glob`.
 */
export const collections = {
  docs: defineCollection({
    loader: glob({ pattern: '**/[^_]*.{md,mdx}', base: './content/docs' }),
    schema: docsSchema(),
  }),
};
