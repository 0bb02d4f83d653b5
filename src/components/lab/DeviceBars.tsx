import { MIB } from '../../base/bytes';
import * as Plot from '@observablehq/plot';
import { useEffect, useRef } from 'preact/hooks';
import { mountPlot } from '../charts/mount-plot';
import { chartWidth } from './chart-width';
import { useMessages } from '../../i18n/use-messages';

/** One device's bar: what it measured at its peak and what the engine predicted for it. */
export interface DeviceBar {
  readonly side: string;
  readonly device: string;
  readonly measuredBytes: number;
  readonly predictedBytes: number;
}

/** Per-device peak bytes side by side, coloured by side, the prediction as a tick on each bar. */
export default function DeviceBars({ bars }: { readonly bars: readonly DeviceBar[] }) {
  const container = useRef<HTMLDivElement>(null);
  const words = useMessages().lab.cluster;
  useEffect(() => {
    const node = container.current;
    if (!node) return;
    // One bar per device of each side (facets would share one x domain and leave empty slots).
    const data = bars.map((b) => ({
      ...b,
      key: `${b.device} · ${b.side}`,
      measured: b.measuredBytes / MIB,
      predicted: b.predictedBytes / MIB,
    }));
    const chart = Plot.plot({
      width: chartWidth(node),
      height: 260,
      marginLeft: 56,
      // Each tick names only the device: the colour (and its legend) says which side, so the
      // labels stay short enough not to collide on a phone.
      x: { label: null, domain: data.map((d) => d.key), tickFormat: (key: string) => key.split(' · ')[0] },
      y: { label: words.barsAxis, grid: true, zero: true, nice: true },
      color: { legend: true, domain: [...new Set(data.map((d) => d.side))] },
      marks: [
        Plot.barY(data, { x: 'key', y: 'measured', fill: 'side' }),
        Plot.tickY(data, { x: 'key', y: 'predicted', stroke: 'currentColor', strokeWidth: 3 }),
        Plot.ruleY([0]),
      ],
    });
    return mountPlot(node, chart, words.barsDescription([...new Set(bars.map((b) => b.side))]));
  }, [bars, words]);
  return <div class="lab-timeline" ref={container} />;
}
