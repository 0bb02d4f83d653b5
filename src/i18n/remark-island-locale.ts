import { visit } from 'unist-util-visit';
import { DEFAULT_LOCALE, localeOfPath } from './locales';

/** The part of an MDX JSX element (mdast-util-mdx-jsx) this plugin reads and writes. */
interface JsxElement {
  readonly type: 'mdxJsxFlowElement' | 'mdxJsxTextElement';
  readonly attributes: { type: string; name?: string; value?: unknown }[];
}

const isJsxElement = (node: { type: string }): node is JsxElement & { type: string } =>
  node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement';

/**
 * Gives every island (a component with a `client:*` directive) of a translated page a `locale` prop: the language of
 * the page's folder under `content/docs/` (`zh-cn/…` → `zh-cn`). Why a prop rather than reading `<html lang>` in the
 * browser: the server renders the island's first HTML too, and only a prop reaches both renders, so a Chinese page is
 * Chinese before and after hydration (no English flash, no mismatch). Why this plugin rather than the translators
 * writing it: every tag of a translated page stays exactly as in English, so a missed `locale` cannot happen.
 * English pages (and an English page Starlight shows under /zh-cn/ as a fallback) get nothing: `en` is the default.
 */
export default function remarkIslandLocale() {
  return (tree: Parameters<typeof visit>[0], file: { path?: string }): void => {
    const path = (file.path ?? '').replaceAll('\\', '/');
    const marker = '/content/docs/';
    const at = path.lastIndexOf(marker);
    if (at < 0) return;
    const locale = localeOfPath(path.slice(at + marker.length));
    if (locale === DEFAULT_LOCALE) return;
    visit(tree, (node) => {
      if (!isJsxElement(node)) return;
      const names = node.attributes.map((a) => a.name ?? '');
      if (!names.some((name) => name.startsWith('client:')) || names.includes('locale')) return;
      node.attributes.push({ type: 'mdxJsxAttribute', name: 'locale', value: locale });
    });
  };
}
