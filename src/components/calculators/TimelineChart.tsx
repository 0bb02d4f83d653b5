import * as Plot from '@observablehq/plot';
import { useEffect, useRef } from 'preact/hooks';
import { GIB } from '../../base/bytes';
import { type EstimateResult, type LineCategory } from '../../memory/index';
import { mountPlot } from '../charts/mount-plot';
import { STRINGS } from './strings';

/** Stacking order, left to right: what lives all step first, what comes and goes last. */
export const CATEGORY_ORDER: readonly LineCategory[] = [
  'overhead',
  'weights',
  'optimizer',
  'gradients',
  'kvCache',
  'activations',
];

/**
 * The engine's step timeline as stacked bars, one row per moment in the order they happen, in GiB (the unit the
 * lessons use), with the GPU's memory and the free margin as lines and the peak's row named. Rows rather than
 * columns so the moments' names never collide, at any width. The axis reaches just past the larger of the peak
 * and the GPU, so every bar and both lines stay inside it.
 */
export default function TimelineChart({ result }: { result: EstimateResult }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = container.current;
    if (!node) return;
    const name = (moment: (typeof result.timeline)[number]['moment']) =>
      moment === result.peakMoment ? `${STRINGS.moments[moment]} (${STRINGS.peakMark})` : STRINGS.moments[moment];
    const moments = result.timeline.map((m) => name(m.moment));
    const rows = result.timeline
      .flatMap((m) =>
        CATEGORY_ORDER.map((category) => ({
          moment: name(m.moment),
          category: STRINGS.categories[category],
          gib: m.byCategory[category] / GIB,
        })),
      )
      .filter((r) => r.gib > 0);
    const gpu = result.gpu;
    const top = Math.max(result.perGpu.total, gpu?.memoryBytes ?? 0) / GIB;
    const marks: Plot.Markish[] = [
      Plot.barX(
        rows,
        Plot.stackX({
          y: 'moment',
          x: 'gib',
          fill: 'category',
          order: CATEGORY_ORDER.map((c) => STRINGS.categories[c]),
          title: (d: { category: string; gib: number }) => `${d.category}: ${d.gib.toFixed(2)} GiB`,
        }),
      ),
      Plot.ruleX([0]),
    ];
    if (gpu) {
      marks.push(
        Plot.ruleX([gpu.memoryBytes / GIB], { stroke: 'currentColor', strokeWidth: 2 }),
        Plot.ruleX([(gpu.memoryBytes - (result.headroom?.bytes ?? 0)) / GIB], { stroke: 'currentColor', strokeDasharray: '4,3' }),
      );
    }
    const width = Math.max(280, node.clientWidth);
    const chart = Plot.plot({
      width,
      height: 48 + 30 * moments.length,
      marginLeft: width < 520 ? 118 : 150,
      x: { label: STRINGS.timelineAxis, grid: true, domain: [0, top * 1.05], nice: true, ticks: width < 520 ? 4 : 8 },
      y: { label: null, domain: moments },
      color: { legend: true, domain: CATEGORY_ORDER.map((c) => STRINGS.categories[c]), scheme: 'tableau10' },
      marks,
    });
    return mountPlot(
      node,
      chart,
      `${STRINGS.timelineTitle}: ${result.timeline.map((m) => `${STRINGS.moments[m.moment]} ${(m.bytes / GIB).toFixed(2)} GiB`).join(', ')}`,
    );
  }, [result]);
  return (
    <figure class="calc-figure">
      <div class="calc-chart" ref={container} />
      <figcaption>{STRINGS.timelineCaption}</figcaption>
    </figure>
  );
}
