import * as Plot from '@observablehq/plot';
import { mountPlot } from '../charts/mount-plot';
import { useEffect, useRef } from 'preact/hooks';

/** One stacked segment: a scenario's bytes in one category. */
export interface BreakdownDatum {
  readonly scenario: string;
  readonly category: string;
  readonly bytes: number;
}

export interface BreakdownChartProps {
  readonly data: readonly BreakdownDatum[];
  /** Scenario labels, top to bottom. */
  readonly scenarios: readonly string[];
  /** The GPU's memory and the line below which the headroom rule wants the total, if a GPU is set. */
  readonly capacity: { readonly label: string; readonly bytes: number; readonly usableBytes: number } | null;
}

const GB = 1e9;

/**
 * Per-GPU memory by category, one stacked bar per scenario, with the GPU's capacity and the
 * headroom line drawn across. Observable Plot renders into a container this component owns.
 */
export default function BreakdownChart({ data, scenarios, capacity }: BreakdownChartProps) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = container.current;
    if (!node) return;
    const rows = data.filter((d) => d.bytes > 0).map((d) => ({ ...d, gb: d.bytes / GB }));
    const marks: Plot.Markish[] = [
      Plot.barX(rows, Plot.stackX({ y: 'scenario', x: 'gb', fill: 'category', title: (d: BreakdownDatum & { gb: number }) => `${d.category}: ${d.gb.toFixed(2)} GB` })),
      Plot.ruleX([0]),
    ];
    if (capacity) {
      marks.push(
        Plot.ruleX([capacity.bytes / GB], { stroke: 'currentColor', strokeWidth: 2 }),
        Plot.ruleX([capacity.usableBytes / GB], { stroke: 'currentColor', strokeDasharray: '4,3' }),
        Plot.text([capacity.bytes / GB], { x: (v: number) => v, frameAnchor: 'top', dy: -2, text: () => capacity.label, textAnchor: 'end', dx: -4 }),
      );
    }
    const chart = Plot.plot({
      width: Math.max(320, node.clientWidth),
      height: 60 + 42 * scenarios.length,
      marginLeft: 150,
      marginTop: 28,
      x: { label: 'per-GPU memory (GB = 10⁹ bytes)', grid: true },
      y: { label: null, domain: [...scenarios] },
      color: { legend: true, scheme: 'tableau10' },
      marks,
    });
    return mountPlot(node, chart, `Per-GPU memory by category for ${scenarios.join(', ')}`);
  }, [data, scenarios, capacity]);
  return <div class="calc-chart" ref={container} />;
}
