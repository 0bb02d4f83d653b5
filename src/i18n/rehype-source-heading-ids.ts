import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rehypeHeadingIds } from '@astrojs/markdown-remark';
import { nodeTypes } from '@mdx-js/mdx';
import type { Element, Root } from 'hast';
import rehypeKatex from 'rehype-katex';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import remarkSmartypants from 'remark-smartypants';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { VFile } from 'vfile';
import { DEFAULT_LOCALE, LOCALES, localeOfPath } from './locales';

/** A heading as Astro collects it for the table of contents: its level, its id and its text. */
export interface HeadingId {
  readonly depth: number;
  readonly slug: string;
  readonly text: string;
}

const CONTENT_MARKER = '/content/docs/';

/**
 * The ids Astro gives the headings of a hast tree: its own `rehypeHeadingIds` (github-slugger over each heading's
 * text, one slugger per page, so a repeated heading gets `-1`), run on a copy so the tree keeps no ids. Running
 * Astro's plugin rather than a slugger of ours is what keeps these ids the ones the built page has.
 */
export function astroHeadingIds(tree: Root, path: string): HeadingId[] {
  const file = new VFile({ path, data: { astro: { frontmatter: {} } } });
  (rehypeHeadingIds() as (tree: Root, file: VFile) => void)(structuredClone(tree), file);
  const headings = (file.data as { astro?: { headings?: HeadingId[] } }).astro?.headings ?? [];
  return headings.map(({ depth, slug, text }) => ({ depth, slug, text }));
}

/**
 * The hast of an MDX source before Astro's heading ids: the remark and rehype steps of Astro's MDX pipeline that can
 * change a heading's text (GFM, smart quotes, math), as astro.config.mjs and @astrojs/mdx configure them.
 */
const sourceToHast = unified()
  .use(remarkParse)
  .use(remarkMdx)
  .use(remarkGfm)
  .use(remarkSmartypants)
  .use(remarkMath)
  .use(remarkRehype, { passThrough: [...nodeTypes] })
  .use(rehypeKatex);

const FRONTMATTER = /^---\r?\n[\s\S]*?\r?\n---\r?\n/;

/** Heading ids of MDX files, by path and text, so a page read by many links is parsed once per edit. */
const sourceIdsCache = new Map<string, { source: string; ids: HeadingId[] }>();

/** The hast of the MDX file at `path` as Astro's heading-id plugin would receive it (frontmatter dropped). */
export function mdxFileToHast(path: string, source = readFileSync(path, 'utf8')): Root {
  const file = new VFile({ path, value: source.replace(FRONTMATTER, '') });
  return sourceToHast.runSync(sourceToHast.parse(file), file) as Root;
}

/** The heading ids Astro gives the MDX file at `path`. */
export function sourceHeadingIds(path: string): HeadingId[] {
  const source = readFileSync(path, 'utf8');
  const cached = sourceIdsCache.get(path);
  if (cached?.source === source) return cached.ids;
  const ids = astroHeadingIds(mdxFileToHast(path, source), path);
  sourceIdsCache.set(path, { source, ids });
  return ids;
}

/**
 * Each id of a translation's headings → the id of the English heading at the same position. Throws, naming both
 * files, when the two pages do not have the same sequence of heading levels: a translation's anchors are the
 * English ones only while its sections are the English sections.
 */
export function idMapping(
  translated: readonly HeadingId[],
  english: readonly HeadingId[],
  files: { translated: string; english: string },
): Map<string, string> {
  const levels = (headings: readonly HeadingId[]): string => headings.map(({ depth }) => `h${depth}`).join(' ');
  if (levels(translated) !== levels(english)) {
    throw new Error(
      `${files.translated} must keep the heading structure of ${files.english} (its section ids are the English ` +
        `ones, by position): it has ${translated.length} headings [${levels(translated)}], the English page has ` +
        `${english.length} [${levels(english)}]. Add or remove headings so both have the same levels in the same order.`,
    );
  }
  return new Map(translated.map(({ slug }, index) => [slug, english[index]?.slug ?? slug]));
}

/** The content file of a page, `dir/<page>.mdx` or `dir/<page>/index.mdx`, if there is one. */
function pageFile(docsDir: string, page: string): string | undefined {
  const base = join(docsDir, page.replace(/^\/+|\/+$/g, '') || 'index');
  return [`${base}.mdx`, join(base, 'index.mdx')].find((candidate) => existsSync(candidate));
}

/** A translated page's id mapping, from the sources of it and of its English twin. */
function mappingOfPage(docsDir: string, locale: string, page: string): Map<string, string> | undefined {
  const translated = pageFile(join(docsDir, locale), page);
  const english = pageFile(docsDir, page);
  if (translated === undefined || english === undefined) return undefined;
  return idMapping(sourceHeadingIds(translated), sourceHeadingIds(english), { translated, english });
}

const decodeFragment = (fragment: string): string => {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
};

/**
 * Gives a translated page (under `content/docs/<locale>/`) the section ids of its English source
 * (`content/docs/<same path>.mdx`): heading n of the translation gets the id of English heading n. Why: Astro makes
 * ids from a heading's text, so `## 找出泄漏` became `#找出泄漏`, and a section link with the English anchor (every
 * island links lessons through `localizedHref`, and a reader switching language keeps the URL's `#`) opened the
 * Chinese page at its top. Translators still write anchors from the Chinese headings (`](#找出泄漏)`, also
 * `](/zh-cn/lessons/x/#中文)`): those links are rewritten to the English ids here, and English anchors work as written.
 * Runs before Astro's own heading-id plugin, which keeps an id already present and collects it for the table of
 * contents. The English page is read from disk, so this must run on pages Astro reads from files.
 */
export default function rehypeSourceHeadingIds() {
  return (tree: Root, file: VFile): void => {
    const path = (file.path || '').replaceAll('\\', '/');
    const at = path.lastIndexOf(CONTENT_MARKER);
    if (at < 0) return;
    const docsDir = path.slice(0, at + CONTENT_MARKER.length - 1);
    const relative = path.slice(at + CONTENT_MARKER.length);
    const locale = localeOfPath(relative);
    if (locale === DEFAULT_LOCALE) return;
    const folder = LOCALES[locale].path;
    const englishPath = join(docsDir, relative.slice(folder.length + 1));
    if (!existsSync(englishPath)) throw new Error(`${path} has no English source: ${englishPath} does not exist.`);

    const own = idMapping(astroHeadingIds(tree, path), sourceHeadingIds(englishPath), {
      translated: path,
      english: englishPath,
    });
    const englishIds = [...own.values()];
    let headingIndex = 0;
    visit(tree, 'element', (node: Element) => {
      if (!/^h[1-6]$/.test(node.tagName)) return;
      // A heading that already has an id keeps it, as Astro keeps it, but still holds its place in the sequence.
      if (typeof node.properties['id'] !== 'string') node.properties['id'] = englishIds[headingIndex];
      headingIndex += 1;
    });

    const pagePrefix = `/${folder}/`;
    visit(tree, 'element', (node: Element) => {
      const href = node.properties['href'];
      if (node.tagName !== 'a' || typeof href !== 'string') return;
      const hash = href.indexOf('#');
      if (hash < 0) return;
      const target = href.slice(0, hash);
      const fragment = decodeFragment(href.slice(hash + 1));
      const mapping =
        target === ''
          ? own
          : target.startsWith(pagePrefix)
            ? mappingOfPage(docsDir, folder, target.slice(pagePrefix.length))
            : undefined;
      const englishId = mapping?.get(fragment);
      if (englishId !== undefined) node.properties['href'] = `${target}#${englishId}`;
    });
  };
}
