import { GB } from '../../base/bytes';
import * as Plot from '@observablehq/plot';
import { mountPlot } from '../charts/mount-plot';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import type { EstimateOptions } from '../../memory/index';
import { scalingCurve } from './scaling';
import { useMessages } from '../../i18n/use-messages';

/** Per-GPU memory from 1 to 1024 data-parallel GPUs, one line per ZeRO stage, log-scaled. */
export default function ScalingChart({ options, capacityBytes }: { options: EstimateOptions; capacityBytes: number | null }) {
  const text = useMessages().calculator.scaling;
  const container = useRef<HTMLDivElement>(null);
  const points = useMemo(() => scalingCurve(options), [options]);
  useEffect(() => {
    const node = container.current;
    if (!node) return;
    const data = points.map((p) => ({
      gpus: p.gpus,
      gb: p.bytes / GB,
      stage: text.stage(p.stage),
    }));
    const marks: Plot.Markish[] = [Plot.line(data, { x: 'gpus', y: 'gb', stroke: 'stage', marker: 'dot' })];
    if (capacityBytes) marks.push(Plot.ruleY([capacityBytes / GB], { strokeDasharray: '4,3' }));
    const chart = Plot.plot({
      width: Math.max(320, node.clientWidth),
      height: 260,
      marginLeft: 56,
      x: { type: 'log', base: 2, label: text.xAxis, ticks: [1, 4, 16, 64, 256, 1024], tickFormat: 'd' },
      y: { type: 'log', label: text.yAxis, grid: true },
      color: { legend: true },
      marks,
    });
    return mountPlot(node, chart, text.description);
  }, [points, capacityBytes, text]);
  return (
    <figure class="calc-scaling">
      <div class="calc-chart" ref={container} />
      <figcaption>{text.caption}</figcaption>
    </figure>
  );
}
