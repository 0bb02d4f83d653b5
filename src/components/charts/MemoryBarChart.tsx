import * as Plot from '@observablehq/plot';
import { useEffect, useRef } from 'preact/hooks';
import { GIB } from '../../base/bytes';
import type { LineCategory } from '../../memory/index';
import { useMessages } from '../../i18n/use-messages';
import { mountPlot } from './mount-plot';

/** Stacking order, left to right: what lives all step first, what comes and goes last. */
const CATEGORY_ORDER: readonly LineCategory[] = ['overhead', 'weights', 'optimizer', 'gradients', 'kvCache', 'activations'];

/** One bar: one GPU's memory at one moment of a step, by part. */
export interface MemoryBar {
  /** The bar's row name: a moment of the step, or a scenario. */
  readonly label: string;
  /** Bytes of each part. */
  readonly byCategory: Readonly<Record<LineCategory, number>>;
  /** Bytes in all (the engine's figure for that moment). */
  readonly totalBytes: number;
}

/** The GPU the bars are drawn against: its memory, and the free margin kept below it. */
export interface MemoryBarLimit {
  readonly memoryBytes: number;
  readonly headroomBytes: number;
}

/**
 * How the rows are laid out. `moments`: a step's moments, many short rows whose names (the peak's marked) must never be
 * cut. `scenarios`: a few tall rows named by the reader's scenarios, cut with an ellipsis on a phone.
 */
export type MemoryBarLayout = 'moments' | 'scenarios';

const LAYOUTS: Readonly<
  Record<MemoryBarLayout, { rowPx: number; framePx: number; narrowMargin: number; headroom: number; cutLabels: boolean }>
> = {
  moments: { rowPx: 30, framePx: 48, narrowMargin: 118, headroom: 1.05, cutLabels: false },
  scenarios: { rowPx: 40, framePx: 56, narrowMargin: 96, headroom: 1.08, cutLabels: true },
};

/** Props of {@link MemoryBarChart}. */
export interface MemoryBarChartProps {
  readonly bars: readonly MemoryBar[];
  /** The GPU's memory and free margin, drawn as vertical lines; null draws none. */
  readonly limit: MemoryBarLimit | null;
  /** The x axis's label (GiB). */
  readonly axisLabel: string;
  /** What the chart shows, in words, for assistive technology. */
  readonly description: string;
  readonly layout: MemoryBarLayout;
}

/**
 * One GPU's memory as stacked horizontal bars by part, in GiB (the unit the lessons use), with the GPU's memory and the
 * free margin as vertical lines (named in the caption, not drawn over the bars). Rows rather than columns so the rows'
 * names never collide, at any width. The axis reaches just past the largest bar or the GPU, whichever is larger, so
 * every bar and both lines stay inside it. The calculators' step timeline and their before/after comparison both draw
 * it, and so does the planner's plan detail.
 */
export default function MemoryBarChart({ bars, limit, axisLabel, description, layout }: MemoryBarChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const partLabels = useMessages().memoryParts;
  useEffect(() => {
    const categoryNames = CATEGORY_ORDER.map((c) => partLabels[c]);
    const node = container.current;
    if (!node) return;
    const shape = LAYOUTS[layout];
    const labels = bars.map((bar) => bar.label);
    const rows = bars
      .flatMap((bar) =>
        CATEGORY_ORDER.map((category) => ({
          label: bar.label,
          category: partLabels[category],
          gib: bar.byCategory[category] / GIB,
        })),
      )
      .filter((r) => r.gib > 0);
    const top = Math.max(...bars.map((bar) => bar.totalBytes), limit?.memoryBytes ?? 0) / GIB;
    const marks: Plot.Markish[] = [
      Plot.barX(
        rows,
        Plot.stackX({
          y: 'label',
          x: 'gib',
          fill: 'category',
          order: categoryNames,
          title: (d: { category: string; gib: number }) => `${d.category}: ${d.gib.toFixed(2)} GiB`,
        }),
      ),
      Plot.ruleX([0]),
    ];
    if (limit) {
      marks.push(
        Plot.ruleX([limit.memoryBytes / GIB], { stroke: 'currentColor', strokeWidth: 2 }),
        Plot.ruleX([(limit.memoryBytes - limit.headroomBytes) / GIB], { stroke: 'currentColor', strokeDasharray: '4,3' }),
      );
    }
    const width = Math.max(280, node.clientWidth);
    const narrow = width < 520;
    const chart = Plot.plot({
      width,
      height: shape.framePx + shape.rowPx * bars.length,
      marginLeft: narrow ? shape.narrowMargin : 150,
      x: { label: axisLabel, grid: true, domain: [0, top * shape.headroom], nice: true, ticks: narrow ? 4 : 8 },
      y: {
        label: null,
        domain: labels,
        ...(shape.cutLabels && { tickFormat: (s: string) => (narrow && s.length > 14 ? `${s.slice(0, 13)}…` : s) }),
      },
      color: { legend: true, domain: categoryNames, scheme: 'tableau10' },
      marks,
    });
    return mountPlot(node, chart, description);
  }, [bars, limit, axisLabel, description, layout, partLabels]);
  return <div class="calc-chart" ref={container} />;
}
