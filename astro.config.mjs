// @ts-check
import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';
import preact from '@astrojs/preact';
import remarkMath from 'remark-math';
import rehypeKatex from 'rehype-katex';
import { unified } from '@astrojs/markdown-remark';
import rehypeFocusableScroll from './src/markdown/rehype-focusable-scroll';
import { LESSONS } from './src/base/lessons';

export default defineConfig({
  site: 'https://gpu-memory-lab.example',
  integrations: [
    starlight({
      title: 'GPU Memory Lab',
      description:
        'Learn to fix "CUDA out of memory": lessons, calculators and experiments that measure GPU memory in your browser.',
      components: { Search: './src/components/overrides/Search.astro' },
      customCss: ['katex/dist/katex.min.css', './src/styles/custom.css'],
      sidebar: [
        { label: 'Start here', link: '/' },
        {
          label: 'Lessons',
          // The lesson registry's order, which the landing page's learning path follows too.
          items: LESSONS.map((lesson) => ({ slug: `lessons/${lesson.slug}` })),
        },
        {
          label: 'Tools',
          items: ['triage', 'nvidia-smi', 'oom-message', 'memory-summary', 'snapshot', 'planner'].map((slug) => ({
            slug: `tools/${slug}`,
          })),
        },
        { label: 'Reference', items: [{ slug: 'glossary' }] },
      ],
      lastUpdated: false,
      pagination: true,
    }),
    preact(),
  ],
  vite: {
    // Served as shipped in dev: pre-bundling onnxruntime-web would only be discovered when a
    // reader first presses Run, and Vite then reloads the page mid-experiment.
    optimizeDeps: { exclude: ['onnxruntime-web'] },
    // Workers are bundled by a build of their own; naming their assets like the page build's
    // makes the runtime's .wasm, which both reference, one 27 MB file instead of two.
    worker: { rollupOptions: { output: { assetFileNames: '_astro/[name].[hash][extname]' } } },
  },
  markdown: {
    // KaTeX needs remark-math + rehype-katex, which run on the unified processor only
    // (Astro 7's default Sätteri parses math but does not render it).
    processor: unified({ remarkPlugins: [remarkMath], rehypePlugins: [rehypeKatex, rehypeFocusableScroll] }),
  },
});
