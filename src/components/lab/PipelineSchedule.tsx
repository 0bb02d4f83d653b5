import * as Plot from '@observablehq/plot';
import { useEffect, useRef } from 'preact/hooks';
import type { ComputeSpan } from '../../lab/measure/cluster-jobs';
import { mountPlot } from '../charts/mount-plot';
import { chartWidth } from './chart-width';

const MARGIN_LEFT = 56;
const MARGIN_RIGHT = 20;
/** Room a step's name ("F12", "B3") needs inside its box, pixels: about three characters of Plot's 10 px sans-serif. */
const LABEL_PIXELS = 24;

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
    // A box names its step only where the name fits inside it: on a phone the short steps are a few pixels wide,
    // and their names would run into each other. Every box keeps its name as a tooltip.
    const end = Math.max(...data.map((d) => d.x2));
    const pixelsPerSecond = (width - MARGIN_LEFT - MARGIN_RIGHT) / Math.max(end, Number.MIN_VALUE);
    const named = data.filter((d) => (d.x2 - d.x1) * pixelsPerSecond >= LABEL_PIXELS);
    const chart = Plot.plot({
      width,
      height: 60 + 36 * new Set(data.map((d) => d.device)).size,
      marginLeft: MARGIN_LEFT,
      marginRight: MARGIN_RIGHT,
      x: { label: 'time in the step (s)', ticks: Math.max(2, Math.floor(width / 80)) },
      y: { label: null },
      color: { legend: true, domain: ['forward', 'backward'] },
      marks: [
        Plot.barX(data, { y: 'device', x1: 'x1', x2: 'x2', fill: 'kind', inset: 1, title: 'label' }),
        Plot.text(named, { y: 'device', x: (d: (typeof data)[number]) => (d.x1 + d.x2) / 2, text: 'label', fill: 'white' }),
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
