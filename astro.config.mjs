// @ts-check
import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';
import preact from '@astrojs/preact';
import remarkMath from 'remark-math';
import rehypeKatex from 'rehype-katex';
import { unified } from '@astrojs/markdown-remark';
import rehypeFocusableScroll from './src/markdown/rehype-focusable-scroll';
import rehypeUnindexMath from './src/markdown/rehype-unindex-math';
import remarkIslandLocale from './src/i18n/remark-island-locale';
import rehypeSourceHeadingIds from './src/i18n/rehype-source-heading-ids';
import { LESSONS, MOVED_LESSONS } from './src/base/lessons';
import { SITE_URL } from './src/base/site';

/**
 * Astro writes `"use astro:head-inject"` into the module it generates for each MDX page's styles
 * (`?astroPropagatedAssets`), and Rolldown warns, once per page, that it may drop the directive.
 * Nothing reads it any more: Astro finds those modules by their `?astroPropagatedAssets` id
 * (withastro/astro PR #17095), so dropping it changes nothing; Astro issue #18087 tracks the
 * warning. This filter drops only those, and in every build environment, because Astro replaces
 * the `rolldownOptions` of its prerender build with its own (so a top-level `onwarn` never
 * reaches it).
 * @returns {import('vite').Plugin}
 */
function quietAstroHeadInject() {
  return {
    name: 'quiet-astro-head-inject',
    configEnvironment: () => ({
      build: {
        rolldownOptions: {
          onwarn(warning, warn) {
            const fromAstroHeadInject =
              warning.code === 'MODULE_LEVEL_DIRECTIVE' &&
              warning.message.includes('"use astro:head-inject"') &&
              warning.message.includes('?astroPropagatedAssets');
            if (!fromAstroHeadInject) warn(warning);
          },
        },
      },
    }),
  };
}

export default defineConfig({
  site: SITE_URL,
  redirects: Object.fromEntries(Object.entries(MOVED_LESSONS).map(([old, slug]) => [`/lessons/${old}/`, `/lessons/${slug}/`])),
  integrations: [
    starlight({
      title: 'GPU Memory Lab',
      description:
        'Learn to fix "CUDA out of memory": lessons, calculators and experiments that measure GPU memory in your browser.',
      // English at the root, 简体中文 under /zh-cn/ (issue #33). An English page not yet translated
      // is also built under /zh-cn/, in English with Starlight's notice, so switching language never
      // lands on a 404. `lang` is what <html lang> and the hreflang alternates say.
      defaultLocale: 'root',
      locales: {
        root: { label: 'English', lang: 'en' },
        'zh-cn': { label: '简体中文', lang: 'zh-CN' },
      },
      components: { Search: './src/components/overrides/Search.astro' },
      customCss: ['katex/dist/katex.min.css', './src/styles/custom.css'],
      sidebar: [
        { label: 'Start here', translations: { 'zh-CN': '从这里开始' }, link: '/' },
        {
          label: 'Lessons',
          translations: { 'zh-CN': '课程' },
          // The lesson registry's order, which the landing page's learning path follows too.
          items: LESSONS.map((lesson) => ({ slug: `lessons/${lesson.slug}` })),
        },
        // A page, not a lesson: what renting costs once the lessons' techniques are spent.
        { label: 'Renting GPUs', translations: { 'zh-CN': '租用 GPU' }, slug: 'renting-gpus' },
        {
          label: 'Tools',
          translations: { 'zh-CN': '工具' },
          items: [
            'triage',
            'nvidia-smi',
            'oom-message',
            'memory-summary',
            'snapshot',
            'planner',
            'training-config',
            'diffusion',
          ].map((slug) => ({
            slug: `tools/${slug}`,
          })),
        },
        {
          label: 'Reference',
          translations: { 'zh-CN': '参考' },
          items: [{ slug: 'reference/your-code-to-flags' }, { slug: 'lab/how-the-lab-measures' }, { slug: 'glossary' }],
        },
      ],
      lastUpdated: false,
      pagination: true,
      // src/pages/404.astro draws the not-found page: Starlight's own route would log a missing
      // `404` lesson entry on every build (the comment there says why not add one).
      disable404Route: true,
    }),
    preact(),
  ],
  vite: {
    // Served as shipped in dev: pre-bundling onnxruntime-web would only be discovered when a
    // reader first presses Run, and Vite then reloads the page mid-experiment.
    optimizeDeps: { exclude: ['onnxruntime-web'] },
    // Workers are bundled by a build of their own; naming their assets like the page build's
    // makes the runtime's .wasm, which both reference, one 27 MB file instead of two. Rolldown's
    // plugin-timing report is off there as Astro turns it off for the page build: it measures how
    // busy the machine is (it fired only while other builds shared the two cores), not the site.
    worker: {
      rollupOptions: {
        checks: { pluginTimings: false },
        output: { assetFileNames: '_astro/[name].[hash][extname]' },
      },
    },
    plugins: [quietAstroHeadInject()],
  },
  markdown: {
    // KaTeX needs remark-math + rehype-katex, which run on the unified processor only
    // (Astro 7's default Sätteri parses math but does not render it). rehypeSourceHeadingIds gives a translated
    // page its English source's section ids; Astro's own heading-id plugin runs after these and keeps them.
    processor: unified({
      remarkPlugins: [remarkMath, remarkIslandLocale],
      rehypePlugins: [rehypeKatex, rehypeUnindexMath, rehypeFocusableScroll, rehypeSourceHeadingIds],
    }),
  },
});
