import type { Element, Root } from 'hast';
import { visit } from 'unist-util-visit';

/**
 * Keeps KaTeX formulas out of the search index. KaTeX writes each formula three times — MathML
 * for screen readers, its TeX source as a MathML annotation, and the visible HTML — so Pagefind
 * indexed `ppp` for $p$ and showed raw TeX (`\tfrac{\alpha}{r}`) in result excerpts.
 * `data-pagefind-ignore` drops the whole formula from the index and the excerpts; the prose
 * around it stays searchable. Runs after rehype-katex.
 */
export default function rehypeUnindexMath() {
  return (tree: Root): void => {
    visit(tree, 'element', (node: Element) => {
      const classes = node.properties['className'];
      if (Array.isArray(classes) && classes.includes('katex')) node.properties['dataPagefindIgnore'] = '';
    });
  };
}
