/**
 * Puts an Observable Plot chart into `container` as one labelled image. Plot labels each mark's
 * `<g>` with `aria-label`, which ARIA forbids on elements without a role (axe:
 * aria-prohibited-attr); the chart is one picture to assistive technology, so those inner labels
 * go and the root carries the description. Returns a cleanup function for `useEffect`.
 */
export function mountPlot(container: HTMLElement, chart: HTMLElement | SVGSVGElement, label: string): () => void {
  for (const node of chart.querySelectorAll('[aria-label], [aria-description]')) {
    node.removeAttribute('aria-label');
    node.removeAttribute('aria-description');
  }
  chart.setAttribute('role', 'img');
  chart.setAttribute('aria-label', label);
  container.replaceChildren(chart);
  return () => chart.remove();
}
