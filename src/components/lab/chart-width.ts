/** Narrowest chart drawn, in CSS pixels: below it axis labels no longer fit beside the plot. */
const MIN_CHART_WIDTH = 280;

/**
 * The width to draw a chart at: its container's, so it never overflows the widget on a phone
 * (Observable Plot draws at a fixed pixel width, 640 by default).
 */
export function chartWidth(container: HTMLElement): number {
  return Math.max(MIN_CHART_WIDTH, Math.floor(container.clientWidth));
}
