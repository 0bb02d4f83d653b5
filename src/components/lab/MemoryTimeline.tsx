import * as Plot from '@observablehq/plot';
import { mountPlot } from '../charts/mount-plot';
import { useEffect, useRef } from 'preact/hooks';
import type { TimelinePoint } from '../../lab/memory-tracker';

/** One labelled series of live bytes over time. */
export interface TimelineSeries {
  readonly label: string;
  readonly points: readonly TimelinePoint[];
}

/**
 * Live bytes over a run, one line per variant, like watching `nvidia-smi -l 1`. Drawn with
 * Observable Plot into a container the component owns.
 */
export default function MemoryTimeline({ series, unitLabel }: { series: readonly TimelineSeries[]; unitLabel: string }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = container.current;
    if (!node) return;
    const data = series.flatMap((s) => s.points.map((p) => ({ variant: s.label, seconds: p.t / 1000, mib: p.bytes / 2 ** 20 })));
    const chart = Plot.plot({
      width: Math.max(320, node.clientWidth),
      height: 220,
      marginLeft: 56,
      x: { label: 'time in the run (s)' },
      y: { label: `${unitLabel} (MiB)`, grid: true, zero: true },
      color: { legend: true },
      marks: [Plot.line(data, { x: 'seconds', y: 'mib', stroke: 'variant', curve: 'step-after' }), Plot.ruleY([0])],
    });
    return mountPlot(node, chart, `${unitLabel} over time for ${series.map((s) => s.label).join(' and ')}`);
  }, [series, unitLabel]);
  return <div class="lab-timeline" ref={container} />;
}
