import * as Plot from '@observablehq/plot';
import { useEffect, useRef } from 'preact/hooks';
import { GIB } from '../../base/bytes';
import { mountPlot } from '../charts/mount-plot';
import type { ScenarioResult } from './calculator-state';
import { STRINGS } from './strings';
import { CATEGORY_ORDER } from './TimelineChart';

/**
 * Each scenario at its own peak, by part: one stacked bar per scenario in GiB, with the GPU's memory and the free
 * margin as vertical lines (named in the caption, not drawn over the bars). The axis reaches just past the largest
 * bar or the GPU, whichever is larger.
 */
export default function BreakdownChart({ results }: { results: readonly ScenarioResult[] }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = container.current;
    if (!node) return;
    const scenarios = results.map((r) => r.label);
    const rows = results
      .flatMap(({ label, result }) => {
        const peak = result.timeline.find((m) => m.moment === result.peakMoment);
        return CATEGORY_ORDER.map((category) => ({
          scenario: label,
          category: STRINGS.categories[category],
          gib: (peak?.byCategory[category] ?? 0) / GIB,
        }));
      })
      .filter((r) => r.gib > 0);
    const last = results[results.length - 1]?.result;
    const gpu = last?.gpu ?? null;
    const top = Math.max(...results.map((r) => r.result.perGpu.total), gpu?.memoryBytes ?? 0) / GIB;
    const marks: Plot.Markish[] = [
      Plot.barX(
        rows,
        Plot.stackX({
          y: 'scenario',
          x: 'gib',
          fill: 'category',
          order: CATEGORY_ORDER.map((c) => STRINGS.categories[c]),
          title: (d: { category: string; gib: number }) => `${d.category}: ${d.gib.toFixed(2)} GiB`,
        }),
      ),
      Plot.ruleX([0]),
    ];
    if (gpu && last) {
      marks.push(
        Plot.ruleX([gpu.memoryBytes / GIB], { stroke: 'currentColor', strokeWidth: 2 }),
        Plot.ruleX([(gpu.memoryBytes - (last.headroom?.bytes ?? 0)) / GIB], { stroke: 'currentColor', strokeDasharray: '4,3' }),
      );
    }
    const width = Math.max(280, node.clientWidth);
    const chart = Plot.plot({
      width,
      height: 56 + 40 * scenarios.length,
      marginLeft: width < 520 ? 96 : 150,
      x: { label: STRINGS.compareAxis, grid: true, domain: [0, top * 1.08], nice: true, ticks: width < 520 ? 4 : 8 },
      y: { label: null, domain: scenarios, tickFormat: (s: string) => (width < 520 && s.length > 14 ? `${s.slice(0, 13)}…` : s) },
      color: { legend: true, domain: CATEGORY_ORDER.map((c) => STRINGS.categories[c]), scheme: 'tableau10' },
      marks,
    });
    return mountPlot(
      node,
      chart,
      `${STRINGS.compareTitle}: ${results.map((r) => `${r.label} ${(r.result.perGpu.total / GIB).toFixed(2)} GiB`).join(', ')}`,
    );
  }, [results]);
  return <div class="calc-chart" ref={container} />;
}
