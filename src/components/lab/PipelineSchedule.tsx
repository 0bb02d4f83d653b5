import * as Plot from '@observablehq/plot';
import { useEffect, useRef } from 'preact/hooks';
import type { ComputeSpan } from '../../lab/measure/cluster-jobs';
import { mountPlot } from '../charts/mount-plot';
import { chartWidth } from './chart-width';

/**
 * The measured pipeline schedule: one row per device, a box per micro-batch's forward or
 * backward, so the bubble (the gaps where a device waits) is visible.
 */
export default function PipelineSchedule({ spans }: { readonly spans: readonly ComputeSpan[] }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = container.current;
    if (!node || spans.length === 0) return;
    const origin = Math.min(...spans.map((s) => s.start));
    const data = spans.map((s) => ({
      ...s,
      device: `GPU ${s.rank}`,
      x1: (s.start - origin) / 1000,
      x2: (s.end - origin) / 1000,
      label: `${s.kind === 'forward' ? 'F' : 'B'}${s.micro}`,
    }));
    const width = chartWidth(node);
    const chart = Plot.plot({
      width,
      height: 60 + 36 * new Set(data.map((d) => d.device)).size,
      marginLeft: 56,
      x: { label: 'time in the step (s)', ticks: Math.max(2, Math.floor(width / 80)) },
      y: { label: null },
      color: { legend: true, domain: ['forward', 'backward'] },
      marks: [
        Plot.barX(data, { y: 'device', x1: 'x1', x2: 'x2', fill: 'kind', inset: 1 }),
        Plot.text(data, { y: 'device', x: (d: (typeof data)[number]) => (d.x1 + d.x2) / 2, text: 'label', fill: 'white' }),
      ],
    });
    return mountPlot(
      node,
      chart,
      `Pipeline schedule: forward and backward of each micro-batch on each device over time; gaps are the bubble`,
    );
  }, [spans]);
  return <div class="lab-timeline" ref={container} />;
}
