import type { Element, Root } from 'hast';
import { visit } from 'unist-util-visit';

/**
 * Makes the blocks that may scroll sideways — tables (Starlight styles them `overflow: auto`)
 * and display math — reachable by keyboard, so a reader without a mouse can scroll them
 * (WCAG 2.1.1; axe rule `scrollable-region-focusable`).
 */
export default function rehypeFocusableScroll() {
  return (tree: Root): void => {
    visit(tree, 'element', (node: Element) => {
      const classes = node.properties['className'];
      const isDisplayMath = Array.isArray(classes) && classes.includes('katex-display');
      if (node.tagName === 'table' || isDisplayMath) node.properties['tabIndex'] = 0;
    });
  };
}
