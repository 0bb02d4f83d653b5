import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Element, Root } from 'hast';
import { visit } from 'unist-util-visit';
import { VFile } from 'vfile';
import { afterAll, describe, expect, it } from 'vitest';
import rehypeSourceHeadingIds, { idMapping, mdxFileToHast, sourceHeadingIds } from '../../../src/i18n/rehype-source-heading-ids';

/** A throwaway content folder: the plugin finds a page's English twin on disk, beside it. */
const root = mkdtempSync(join(tmpdir(), 'source-heading-ids-'));
const docs = join(root, 'content/docs');
afterAll(() => rmSync(root, { recursive: true, force: true }));

function writePage(relative: string, body: string): string {
  const path = join(docs, relative);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `---\ntitle: t\n---\n\n${body}`);
  return path;
}

/** The page at `path` after the plugin, as Astro's heading-id plugin would then receive it. */
function transformed(path: string): Root {
  const tree = mdxFileToHast(path);
  rehypeSourceHeadingIds()(tree, new VFile({ path }));
  return tree;
}

const elements = (tree: Root, tagTest: (tag: string) => boolean): Element[] => {
  const found: Element[] = [];
  visit(tree, 'element', (node: Element) => {
    if (tagTest(node.tagName)) found.push(node);
  });
  return found;
};
const headingIdsOf = (tree: Root) => elements(tree, (tag) => /^h[1-6]$/.test(tag)).map((h) => h.properties['id']);
const hrefsOf = (tree: Root) => elements(tree, (tag) => tag === 'a').map((a) => a.properties['href']);

writePage(
  'lessons/leaks.mdx',
  `## Find the leak\n\n### Example\n\ntext\n\n### Example\n\n## What \`del\` does\n\n## Don't panic\n`,
);
const zhLeaks = writePage(
  'zh-cn/lessons/leaks.mdx',
  [
    '## 找出泄漏',
    '### 例子',
    '见[下一个例子](#例子-1)，或者[英文锚点](#what-del-does)，或者[没有这一节](#不存在)。',
    '### 例子',
    '## `del` 做什么',
    '## 别慌',
    '[另一页的一节](/zh-cn/lessons/other/#第二节)，[英文页](/lessons/other/#第二节)。',
  ].join('\n\n'),
);
writePage('lessons/other.mdx', '## First\n\n## Second\n');
writePage('zh-cn/lessons/other.mdx', '## 第一节\n\n## 第二节\n');

describe('rehypeSourceHeadingIds', () => {
  it("gives a translated page's headings the ids Astro gives its English source's, position by position", () => {
    expect(headingIdsOf(transformed(zhLeaks))).toEqual(['find-the-leak', 'example', 'example-1', 'what-del-does', 'dont-panic']);
  });

  it('rewrites links to Chinese anchors of this page and of other translated pages, and leaves the rest', () => {
    expect(hrefsOf(transformed(zhLeaks))).toEqual([
      '#example-1',
      '#what-del-does',
      `#${encodeURIComponent('不存在')}`,
      '/zh-cn/lessons/other/#second',
      // An English page has English anchors only: a Chinese one there is a broken link for the link checker.
      `/lessons/other/#${encodeURIComponent('第二节')}`,
    ]);
  });

  it('leaves English pages alone', () => {
    const english = transformed(join(docs, 'lessons/leaks.mdx'));
    expect(headingIdsOf(english)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('fails, naming both files, when the translation has other headings than its source', () => {
    const en = writePage('lessons/mismatch.mdx', '## First\n\n## Second\n');
    const zh = writePage('zh-cn/lessons/mismatch.mdx', '## 第一节\n\n### 多出来的一节\n\n## 第二节\n');
    expect(() => transformed(zh)).toThrow(zh);
    expect(() => transformed(zh)).toThrow(en);
    expect(() => transformed(zh)).toThrow('[h2 h3 h2]');
  });

  it('fails when a translated page has no English source', () => {
    const zh = writePage('zh-cn/lessons/orphan.mdx', '## 孤儿\n');
    expect(() => transformed(zh)).toThrow('has no English source');
  });
});

describe("the Chinese glossary's anchors", () => {
  const siteDocs = join(import.meta.dirname, '../../../content/docs');
  const zhPath = join(siteDocs, 'zh-cn/glossary.mdx');
  const enPath = join(siteDocs, 'glossary.mdx');

  it('give each entry the id of the English entry whose term its heading carries', () => {
    const english = sourceHeadingIds(enPath);
    const chinese = sourceHeadingIds(zhPath);
    const mapping = idMapping(chinese, english, { translated: zhPath, english: enPath });
    const englishIdOfTerm = new Map(english.map(({ text, slug }) => [text, slug]));
    // A headword is `中文（English）`, or the English term alone where it stays English.
    const termOf = (text: string): string => /（(.+)）$/.exec(text)?.[1] ?? text;
    const entries = chinese.filter(({ depth }) => depth === 3);
    expect(entries.length).toBeGreaterThan(50);
    const wrong = entries
      .filter(({ slug, text }) => mapping.get(slug) !== englishIdOfTerm.get(termOf(text)))
      .map(({ text }) => text);
    expect(wrong).toEqual([]);
  });
});
