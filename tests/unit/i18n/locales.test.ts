import { describe, expect, test } from 'vitest';
import { isLocale, localeOfPath, localizedHref } from '../../../src/i18n/locales';
import remarkIslandLocale from '../../../src/i18n/remark-island-locale';

describe('a page’s language from its path', () => {
  test.each([
    ['/zh-cn/lessons/offload/', 'zh-cn'],
    ['zh-cn/index.mdx', 'zh-cn'],
    ['/lessons/offload/', 'en'],
    ['/', 'en'],
    // A folder that merely starts like a locale is not one.
    ['/zh-cnx/', 'en'],
  ] as const)('%s → %s', (path, locale) => {
    expect(localeOfPath(path)).toBe(locale);
  });

  test('links go into the language’s folder', () => {
    expect(localizedHref('zh-cn', '/lessons/offload/')).toBe('/zh-cn/lessons/offload/');
    expect(localizedHref('en', '/lessons/offload/')).toBe('/lessons/offload/');
  });

  test('only configured languages are locales', () => {
    expect(isLocale('zh-cn')).toBe(true);
    expect(isLocale('zh-CN')).toBe(false);
    expect(isLocale('toString')).toBe(false);
  });
});

/** An MDX tree with one island and one plain component, as remark sees `<Calculator client:visible id="x" /><Aside />`. */
function tree() {
  const island = {
    type: 'mdxJsxFlowElement',
    name: 'Calculator',
    attributes: [
      { type: 'mdxJsxAttribute', name: 'client:visible', value: null },
      { type: 'mdxJsxAttribute', name: 'id', value: 'x' },
    ],
    children: [],
  };
  const plain = { type: 'mdxJsxFlowElement', name: 'Aside', attributes: [], children: [] };
  return { root: { type: 'root', children: [island, plain] }, island, plain };
}

describe('islands of a translated page get its locale', () => {
  const run = (path: string) => {
    const t = tree();
    remarkIslandLocale()(t.root as never, { path });
    return t;
  };

  test('an island on a zh-cn page', () => {
    const { island, plain } = run('/repo/content/docs/zh-cn/lessons/offload.mdx');
    expect(island.attributes).toContainEqual({ type: 'mdxJsxAttribute', name: 'locale', value: 'zh-cn' });
    expect(plain.attributes).toEqual([]);
  });

  test('nothing on an English page, nor outside content/docs', () => {
    expect(run('/repo/content/docs/lessons/offload.mdx').island.attributes).toHaveLength(2);
    expect(run('/repo/src/zh-cn/page.mdx').island.attributes).toHaveLength(2);
  });
});
