import * as Plot from '@observablehq/plot';
import { useEffect, useRef } from 'preact/hooks';
import { DEFAULT_LOCALE, type Locale } from '../../i18n/locales';
import { LocaleContext, useMessages } from '../../i18n/use-messages';

import { describeSnapshotOom } from '../../diagnose/explain';
import {
  refuseOversizeSnapshot,
  wordSnapshotRefusal,
  type DeviceMemory,
  type SnapshotOom,
  type StackFrame,
} from '../../diagnose/snapshot';
import { formatBinarySize, GIB } from '../../base/bytes';
import { mountPlot } from '../charts/mount-plot';
import ToolFrame from './ToolFrame';
import UnreadList from './UnreadList';
import { useAnalysis } from './use-analysis';
import { writePickle, type PlainData } from '../../diagnose/pickle-writer';
import snapshotDataUrl from '../../diagnose/examples/snapshot-oom.json?url';
import '../widget.css';
import './diagnose.css';

/**
 * The example snapshot as the file `_dump_snapshot()` would have written: its data ships as JSON and is pickled here,
 * so the tool reads it through the same unpickler as the reader's own file.
 */
async function loadExampleSnapshot(): Promise<File> {
  const data = (await (await fetch(snapshotDataUrl)).json()) as PlainData;
  return new File([writePickle(data)], 'snapshot-oom.pickle');
}

/** Segments drawn in the segments chart, largest first. */
const SEGMENTS_SHOWN = 40;

function TimelineChart({ device, ooms }: { device: DeviceMemory; ooms: SnapshotOom[] }) {
  const S = useMessages().diagnose.snapshot;
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = container.current;
    if (!node) return;
    const timed = device.timeline.every((p) => p.ms !== null);
    const x = (p: { ms: number | null; event: number }) => (timed ? (p.ms ?? 0) : p.event);
    const data = device.timeline.flatMap((p) => [
      { x: x(p), gib: p.activeBytes / GIB, series: S.active },
      { x: x(p), gib: p.reservedBytes / GIB, series: S.reserved },
    ]);
    const chart = Plot.plot({
      width: Math.max(320, node.clientWidth),
      height: 260,
      marginLeft: 56,
      x: { label: timed ? S.xMs : S.xEvent },
      y: { label: S.yGiB, grid: true },
      color: { legend: true, domain: [S.reserved, S.active] },
      marks: [
        Plot.line(data, { x: 'x', y: 'gib', stroke: 'series', curve: 'step-after' }),
        Plot.ruleY([0]),
        Plot.ruleX(ooms.map(x), { stroke: 'currentColor', strokeDasharray: '2,2' }),
        Plot.text(ooms.map(x), { x: (d: number) => d, frameAnchor: 'top', text: () => S.oomMark, dy: -4 }),
      ],
    });
    return mountPlot(node, chart, S.timelineLabel);
  }, [device, ooms, S]);
  return <div class="diag-chart" ref={container} data-chart="timeline" />;
}

function SegmentsChart({ device }: { device: DeviceMemory }) {
  const S = useMessages().diagnose.snapshot;
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = container.current;
    if (!node) return;
    const shown = device.segments.slice(0, SEGMENTS_SHOWN);
    const data = shown.flatMap((s, i) => [
      { segment: i + 1, part: S.inUse, gib: s.activeBytes / GIB },
      { segment: i + 1, part: S.free, gib: (s.totalBytes - s.activeBytes) / GIB },
    ]);
    const chart = Plot.plot({
      width: Math.max(320, node.clientWidth),
      height: 220,
      marginLeft: 56,
      x: { label: S.segmentAxis, tickFormat: (d: number) => (d % 5 === 0 || d === 1 ? String(d) : '') },
      y: { label: S.yGiB, grid: true },
      color: { legend: true, domain: [S.inUse, S.free] },
      marks: [Plot.barY(data, { x: 'segment', y: 'gib', fill: 'part' })],
    });
    return mountPlot(node, chart, S.segmentsLabel);
  }, [device, S]);
  return <div class="diag-chart" ref={container} data-chart="segments" />;
}

const frameText = (f: StackFrame) => `${f.filename}:${f.line} ${f.name}`;

function Frames({ frames }: { frames: StackFrame[] }) {
  const S = useMessages().diagnose.snapshot;
  if (frames.length === 0) return <span class="diag-note">{S.noFrames}</span>;
  const user = frames.find((f) => !f.filename.includes('site-packages')) ?? frames[0];
  return (
    <details>
      <summary>{user ? frameText(user) : ''}</summary>
      <ol class="diag-frames">
        {frames.map((f) => (
          <li>{frameText(f)}</li>
        ))}
      </ol>
    </details>
  );
}

function DeviceView({ device, ooms }: { device: DeviceMemory; ooms: SnapshotOom[] }) {
  const S = useMessages().diagnose.snapshot;
  return (
    <section data-device={device.device} data-peak-active-bytes={device.peakActiveBytes}>
      <h3>{S.device(device.device, device.traceEvents)}</h3>
      <p>{S.peak(formatBinarySize(device.peakActiveBytes))}</p>
      <TimelineChart device={device} ooms={ooms} />
      <h4>{S.largest}</h4>
      <table class="widget-table">
        <thead>
          <tr>
            <th scope="col">{S.size}</th>
            <th scope="col">{S.where}</th>
          </tr>
        </thead>
        <tbody>
          {device.largestAtPeak.map((a) => (
            <tr>
              <td>{formatBinarySize(a.sizeBytes)}</td>
              <td>
                <Frames frames={a.frames} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h4>{S.segments}</h4>
      <p class="diag-note">
        {S.segmentsNote(
          Math.min(SEGMENTS_SHOWN, device.segments.length),
          device.segments.length,
          device.fragmentationShare === null ? '–' : `${(device.fragmentationShare * 100).toFixed(1)} %`,
        )}
      </p>
      <SegmentsChart device={device} />
    </section>
  );
}

/** Reads a torch.cuda.memory._dump_snapshot() pickle in a worker, as data only, and shows where memory went. */
export default function SnapshotTool({ locale = DEFAULT_LOCALE }: { readonly locale?: Locale }) {
  return (
    <LocaleContext.Provider value={locale}>
      <SnapshotReader />
    </LocaleContext.Provider>
  );
}

function SnapshotReader() {
  const { snapshot: S, explain } = useMessages().diagnose;
  const analysis = useAnalysis('snapshot', (file) => refuseOversizeSnapshot(file.size));
  const [state] = analysis;
  const read = state.status === 'done' ? state.result : null;
  return (
    <ToolFrame
      analysis={analysis}
      shownState={read && !read.ok ? 'error' : state.status}
      tool="snapshot"
      examples={[{ label: S.example, load: loadExampleSnapshot }]}
    >
      {read && !read.ok && (
        <p class="widget-error" role="alert" data-refused={String(read.refused)}>
          {(read.refused ? S.refused : S.failed)(wordSnapshotRefusal(read.refusal, S.refusals))}
        </p>
      )}
      {read?.ok && (
        <div
          class="diag-results"
          aria-live="polite"
          data-peak-active-bytes={read.analysis.peakActiveBytes}
          data-oom-events={read.analysis.oomEvents.length}
        >
          <h3>{S.ooms}</h3>
          {read.analysis.oomEvents.length === 0 ? (
            <p>{S.noOoms}</p>
          ) : (
            <ul>
              {read.analysis.oomEvents.map((oom) => (
                <li>
                  {describeSnapshotOom(oom, explain)} <Frames frames={oom.frames} />
                </li>
              ))}
            </ul>
          )}
          {read.analysis.devices.map((device) => (
            <DeviceView device={device} ooms={read.analysis.oomEvents.filter((o) => o.device === device.device)} />
          ))}
          <UnreadList notes={read.analysis.unread} title={S.unread} />
        </div>
      )}
    </ToolFrame>
  );
}
