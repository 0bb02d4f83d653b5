import * as Plot from '@observablehq/plot';
import { useEffect, useRef } from 'preact/hooks';
import { GiB, type EstimateResult, type LineCategory } from '../../memory/index';
import { mountPlot } from '../charts/mount-plot';
import { STRINGS } from './strings';

/** Stacking order, bottom up: what lives all step first, what comes and goes on top. */
export const CATEGORY_ORDER: readonly LineCategory[] = [
  'overhead',
  'weights',
  'optimizer',
  'gradients',
  'kvCache',
  'activations',
];

/**
 * The engine's step timeline as stacked columns, one per moment, in GiB (the unit the lessons use), with the
 * GPU's memory and the free margin as lines and the peak labelled. The y axis reaches just past the larger of
 * the peak and the GPU, so every column and both lines stay inside it.
 */
export default function TimelineChart({ result }: { result: EstimateResult }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = container.current;
    if (!node) return;
    const moments = result.timeline.map((m) => STRINGS.moments[m.moment]);
    const rows = result.timeline
      .flatMap((m) =>
        CATEGORY_ORDER.map((category) => ({
          moment: STRINGS.moments[m.moment],
          category: STRINGS.categories[category],
          gib: m.byCategory[category] / GiB,
        })),
      )
      .filter((r) => r.gib > 0);
    const gpu = result.gpu;
    const top = Math.max(result.perGpu.total, gpu?.memoryBytes ?? 0) / GiB;
    const peak = result.timeline.find((m) => m.moment === result.peakMoment);
    const marks: Plot.Markish[] = [
      Plot.barY(
        rows,
        Plot.stackY({
          x: 'moment',
          y: 'gib',
          fill: 'category',
          order: CATEGORY_ORDER.map((c) => STRINGS.categories[c]),
          title: (d: { category: string; gib: number }) => `${d.category}: ${d.gib.toFixed(2)} GiB`,
        }),
      ),
      Plot.ruleY([0]),
    ];
    if (gpu) {
      marks.push(
        Plot.ruleY([gpu.memoryBytes / GiB], { stroke: 'currentColor', strokeWidth: 2 }),
        Plot.ruleY([(gpu.memoryBytes - (result.headroom?.bytes ?? 0)) / GiB], { stroke: 'currentColor', strokeDasharray: '4,3' }),
      );
    }
    if (peak) {
      marks.push(
        Plot.text([{ moment: STRINGS.moments[peak.moment], gib: peak.bytes / GiB }], {
          x: 'moment',
          y: 'gib',
          text: () => `▲ ${STRINGS.peakMark}`,
          dy: -8,
          lineAnchor: 'bottom',
        }),
      );
    }
    const width = Math.max(300, node.clientWidth);
    const chart = Plot.plot({
      width,
      height: 260,
      marginLeft: 48,
      marginTop: 24,
      x: { label: null, domain: moments, tickRotate: width < 520 ? -30 : 0 },
      y: { label: STRINGS.timelineAxis, grid: true, domain: [0, top * 1.12], nice: true },
      color: { legend: true, domain: CATEGORY_ORDER.map((c) => STRINGS.categories[c]), scheme: 'tableau10' },
      marginBottom: width < 520 ? 56 : 32,
      marks,
    });
    return mountPlot(
      node,
      chart,
      `${STRINGS.timelineTitle}: ${result.timeline.map((m) => `${STRINGS.moments[m.moment]} ${(m.bytes / GiB).toFixed(2)} GiB`).join(', ')}`,
    );
  }, [result]);
  return (
    <figure class="calc-figure">
      <div class="calc-chart" ref={container} />
      <figcaption>{STRINGS.timelineCaption}</figcaption>
    </figure>
  );
}
