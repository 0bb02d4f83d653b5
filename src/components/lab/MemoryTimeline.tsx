import { MIB } from '../../base/bytes';
import * as Plot from '@observablehq/plot';
import { useEffect, useRef } from 'preact/hooks';
import { mountPlot } from '../charts/mount-plot';
import { chartWidth } from './chart-width';
import { useMessages } from '../../i18n/use-messages';

/** One point of a memory series: x in the chart's own unit (seconds, or step number). */
export interface MemoryPoint {
  readonly x: number;
  readonly bytes: number;
}

/** One labelled series of bytes. */
export interface MemorySeries {
  readonly label: string;
  readonly points: readonly MemoryPoint[];
}

export interface MemoryTimelineProps {
  readonly series: readonly MemorySeries[];
  /** What is counted, e.g. "live GPU buffers". */
  readonly unitLabel: string;
  /** What x is, e.g. "time in the run (s)" or "training step". */
  readonly xLabel: string;
  /** Draw dots at the points (for per-step samples). */
  readonly dots?: boolean;
}

/**
 * Bytes held over a run, one line per variant, like watching `nvidia-smi -l 1`. Drawn with
 * Observable Plot into a container the component owns.
 */
export default function MemoryTimeline({ series, unitLabel, xLabel, dots = false }: MemoryTimelineProps) {
  const container = useRef<HTMLDivElement>(null);
  const words = useMessages().lab.timeline;
  useEffect(() => {
    const node = container.current;
    if (!node) return;
    const data = series.flatMap((s) => s.points.map((p) => ({ variant: s.label, x: p.x, mib: p.bytes / MIB })));
    const width = chartWidth(node);
    const chart = Plot.plot({
      width,
      height: 220,
      marginLeft: 56,
      // About one tick per 80 px, so tick labels never touch on a phone.
      x: { label: xLabel, ticks: Math.max(2, Math.floor(width / 80)) },
      y: { label: words.yAxis(unitLabel), grid: true, zero: true, nice: true },
      color: { legend: true },
      marks: [
        Plot.line(data, {
          x: 'x',
          y: 'mib',
          stroke: 'variant',
          curve: dots ? 'linear' : 'step-after',
          marker: dots ? 'dot' : null,
        }),
        Plot.ruleY([0]),
      ],
    });
    return mountPlot(
      node,
      chart,
      words.description(
        unitLabel,
        xLabel,
        series.map((s) => s.label),
      ),
    );
  }, [series, unitLabel, xLabel, dots, words]);
  // Each series' highest point, for tests: the chart must plot what the table calls the peak.
  const peaks = series.map((s) => Math.max(0, ...s.points.map((p) => p.bytes))).join(',');
  return <div class="lab-timeline" ref={container} data-peak-bytes={peaks} />;
}
