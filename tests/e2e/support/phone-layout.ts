import type { Page } from 'playwright-core';

/** A common phone's viewport, CSS pixels. */
export const PHONE = { width: 390, height: 844 };

/**
 * On a 390 px phone, after a run: nothing in any island is wider than the island, every results
 * table keeps all its columns inside a focusable scroll box, the notes wrap inside the island,
 * and no two labels of a chart overlap.
 */
export async function checkPhoneLayout(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const viewport = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > viewport)
      problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${viewport}`);
    for (const island of document.querySelectorAll<HTMLElement>('astro-island > .widget, astro-island > section')) {
      const name = island.dataset['experiment'] ?? island.className;
      const box = island.getBoundingClientRect();
      if (island.scrollWidth > island.clientWidth + 1)
        problems.push(`${name}: content ${island.scrollWidth} px wide in ${island.clientWidth} px`);
      for (const table of island.querySelectorAll('table')) {
        // A closed <details> shows nothing (a calculator's "where each number comes from").
        if (table.closest('details:not([open])')) continue;
        const scroller = table.parentElement;
        const fits = table.getBoundingClientRect().right <= box.right + 1;
        if (!fits && (!scroller || getComputedStyle(scroller).overflowX !== 'auto' || scroller.tabIndex !== 0))
          problems.push(`${name}: a table wider than the island is not in a focusable scroll box`);
        for (const th of table.querySelectorAll('thead th'))
          if (th.getBoundingClientRect().width < 8) problems.push(`${name}: column "${th.textContent}" collapsed`);
      }
      for (const note of island.querySelectorAll<HTMLElement>('p, caption, .lab-caveat')) {
        if (note.closest('.widget-scroll')) continue;
        if (note.getBoundingClientRect().right > box.right + 1)
          problems.push(`${name}: "${note.textContent?.slice(0, 40)}…" runs past the island`);
      }
      for (const svg of island.querySelectorAll('svg')) {
        const labels = [...svg.querySelectorAll('text')]
          .map((t) => ({ text: t.textContent ?? '', r: t.getBoundingClientRect() }))
          .filter((l) => l.r.width > 0);
        for (const [i, a] of labels.entries()) {
          for (const b of labels.slice(i + 1)) {
            const overlap =
              Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left) > 1 &&
              Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top) > 1;
            if (overlap) problems.push(`${name}: chart labels "${a.text}" and "${b.text}" overlap`);
          }
        }
      }
    }
    return problems;
  });
}
