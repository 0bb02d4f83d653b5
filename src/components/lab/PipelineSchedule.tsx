import * as Plot from '@observablehq/plot';
import { useEffect, useRef } from 'preact/hooks';
import type { ComputeSpan } from '../../lab/measure/cluster-job';
import { mountPlot } from '../charts/mount-plot';
import { chartWidth } from './chart-width';
import { useMessages } from '../../i18n/use-messages';
import { boxesWithRoomForName, scheduleBoxes, type ScheduleBox } from './schedule-boxes';

const MARGIN_LEFT = 56;
const MARGIN_RIGHT = 20;

/**
 * The measured pipeline schedule: one row per device, a box per micro-batch's forward or
 * backward, so the bubble (the gaps where a device waits) is visible.
 */
export default function PipelineSchedule({ spans }: { readonly spans: readonly ComputeSpan[] }) {
  const container = useRef<HTMLDivElement>(null);
  const words = useMessages().lab.cluster;
  useEffect(() => {
    const node = container.current;
    if (!node || spans.length === 0) return;
    const data = scheduleBoxes(spans);
    const width = chartWidth(node);
    // Every box keeps its name as a tooltip; only those with room carry it inside.
    const named = boxesWithRoomForName(data, width - MARGIN_LEFT - MARGIN_RIGHT);
    const chart = Plot.plot({
      width,
      height: 60 + 36 * new Set(data.map((d) => d.device)).size,
      marginLeft: MARGIN_LEFT,
      marginRight: MARGIN_RIGHT,
      x: { label: words.scheduleAxis, ticks: Math.max(2, Math.floor(width / 80)) },
      y: { label: null },
      color: {
        legend: true,
        domain: ['forward', 'backward'],
        tickFormat: (kind: 'forward' | 'backward') => words.scheduleKinds[kind],
      },
      marks: [
        Plot.barX(data, { y: 'device', x1: 'x1', x2: 'x2', fill: 'kind', inset: 1, title: 'label' }),
        Plot.text(named, { y: 'device', x: (d: ScheduleBox) => (d.x1 + d.x2) / 2, text: 'label', fill: 'white' }),
      ],
    });
    return mountPlot(node, chart, words.scheduleDescription);
  }, [spans, words]);
  return <div class="lab-timeline" ref={container} />;
}
