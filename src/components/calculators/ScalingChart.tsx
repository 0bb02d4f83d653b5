import { GB } from '../../base/bytes';
import * as Plot from '@observablehq/plot';
import { mountPlot } from '../charts/mount-plot';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import type { EstimateOptions } from '../../memory/index';
import { scalingCurve } from './scaling';

/** Per-GPU memory from 1 to 1024 data-parallel GPUs, one line per ZeRO stage, log-scaled. */
export default function ScalingChart({ options, capacityBytes }: { options: EstimateOptions; capacityBytes: number | null }) {
  const container = useRef<HTMLDivElement>(null);
  const points = useMemo(() => scalingCurve(options), [options]);
  useEffect(() => {
    const node = container.current;
    if (!node) return;
    const data = points.map((p) => ({
      gpus: p.gpus,
      gb: p.bytes / GB,
      stage: p.stage === 0 ? 'DDP (ZeRO-0)' : `ZeRO-${p.stage}`,
    }));
    const marks: Plot.Markish[] = [Plot.line(data, { x: 'gpus', y: 'gb', stroke: 'stage', marker: 'dot' })];
    if (capacityBytes) marks.push(Plot.ruleY([capacityBytes / GB], { strokeDasharray: '4,3' }));
    const chart = Plot.plot({
      width: Math.max(320, node.clientWidth),
      height: 260,
      marginLeft: 56,
      x: { type: 'log', base: 2, label: 'data-parallel GPUs', ticks: [1, 4, 16, 64, 256, 1024], tickFormat: 'd' },
      y: { type: 'log', label: 'per-GPU memory (GB)', grid: true },
      color: { legend: true },
      marks,
    });
    return mountPlot(node, chart, 'Per-GPU memory against the number of data-parallel GPUs for each ZeRO stage');
  }, [points, capacityBytes]);
  return (
    <figure class="calc-scaling">
      <div class="calc-chart" ref={container} />
      <figcaption>
        The same model and batch on 1 to 1024 GPUs: plain data parallelism (DDP) never divides the model states; ZeRO-1, 2 and 3
        divide more of them as GPUs are added (ZeRO, arXiv 1910.02054, Figure 1). The dashed line is the selected GPU's memory.
      </figcaption>
    </figure>
  );
}
