import * as Plot from '@observablehq/plot';
import { useEffect, useRef, useState } from 'preact/hooks';
import { describeSnapshotOom } from '../../diagnose/explain';
import { refuseOversizeSnapshot, type DeviceMemory, type SnapshotAnalysis, type StackFrame } from '../../diagnose/snapshot';
import { formatBinary } from '../../diagnose/units';
import { mountPlot } from '../charts/mount-plot';
import InputPanel, { exampleFile } from './InputPanel';
import type { SnapshotWorkerMessage } from './snapshot-protocol';
import { SNAPSHOT_STRINGS as S } from './strings';
import UnreadList from './UnreadList';
import snapshotUrl from '../../../tests/fixtures/diagnose/snapshot-oom.pickle?url';
import '../widget.css';
import './diagnose.css';

/** Segments drawn in the segments chart, largest first. */
const SEGMENTS_SHOWN = 40;

type ViewerState =
  | { status: 'idle' }
  | { status: 'working'; bytesRead: number; totalBytes: number }
  | { status: 'done'; analysis: SnapshotAnalysis }
  | { status: 'error'; message: string; refused: boolean };

const GiB = (bytes: number) => bytes / 2 ** 30;

function TimelineChart({ device }: { device: DeviceMemory }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = container.current;
    if (!node) return;
    const timed = device.timeline.every((p) => p.ms !== null);
    const x = (p: (typeof device.timeline)[number]) => (timed ? (p.ms ?? 0) : p.event);
    const data = device.timeline.flatMap((p) => [
      { x: x(p), gib: GiB(p.activeBytes), series: S.active },
      { x: x(p), gib: GiB(p.reservedBytes), series: S.reserved },
    ]);
    const chart = Plot.plot({
      width: Math.max(320, node.clientWidth),
      height: 260,
      marginLeft: 56,
      x: { label: timed ? S.xMs : S.xEvent },
      y: { label: S.yGiB, grid: true },
      color: { legend: true, domain: [S.reserved, S.active] },
      marks: [Plot.line(data, { x: 'x', y: 'gib', stroke: 'series', curve: 'step-after' }), Plot.ruleY([0])],
    });
    return mountPlot(node, chart, S.timelineLabel);
  }, [device]);
  return <div class="diag-chart" ref={container} data-chart="timeline" />;
}

function SegmentsChart({ device }: { device: DeviceMemory }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = container.current;
    if (!node) return;
    const shown = device.segments.slice(0, SEGMENTS_SHOWN);
    const data = shown.flatMap((s, i) => [
      { segment: i + 1, part: S.inUse, gib: GiB(s.activeBytes) },
      { segment: i + 1, part: S.free, gib: GiB(s.totalBytes - s.activeBytes) },
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
  }, [device]);
  return <div class="diag-chart" ref={container} data-chart="segments" />;
}

const frameText = (f: StackFrame) => `${f.filename}:${f.line} ${f.name}`;

function Frames({ frames }: { frames: StackFrame[] }) {
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

function DeviceView({ device }: { device: DeviceMemory }) {
  return (
    <section data-device={device.device} data-peak-active-bytes={device.peakActiveBytes}>
      <h3>{S.device(device.device, device.traceEvents)}</h3>
      <p>{S.peak(formatBinary(device.peakActiveBytes))}</p>
      <TimelineChart device={device} />
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
              <td>{formatBinary(a.sizeBytes)}</td>
              <td>
                <Frames frames={a.frames} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h4>{S.segments}</h4>
      <p class="diag-note">{S.segmentsNote(Math.min(SEGMENTS_SHOWN, device.segments.length), device.segments.length, device.fragmentationShare === null ? '–' : `${(device.fragmentationShare * 100).toFixed(1)} %`)}</p>
      <SegmentsChart device={device} />
    </section>
  );
}

/** Reads a torch.cuda.memory._dump_snapshot() pickle in a worker, as data only, and shows where memory went. */
export default function SnapshotTool() {
  const [state, setState] = useState<ViewerState>({ status: 'idle' });
  const [workerReady, setWorkerReady] = useState(false);
  const worker = useRef<Worker | null>(null);
  // The worker starts with the viewer, not with the first file: analysing a file then loads nothing.
  const startWorker = () => {
    worker.current?.terminate();
    setWorkerReady(false);
    const w = new Worker(new URL('./snapshot.worker.ts', import.meta.url), { type: 'module' });
    worker.current = w;
    w.onmessage = (event: MessageEvent<SnapshotWorkerMessage>) => {
      const message = event.data;
      if (message.type === 'ready') setWorkerReady(true);
      else if (message.type === 'progress') setState({ status: 'working', bytesRead: message.bytesRead, totalBytes: message.totalBytes });
      else setState(message.result.ok ? { status: 'done', analysis: message.result.analysis } : { status: 'error', message: message.result.message, refused: message.result.refused });
    };
    w.onerror = (event) => {
      setState({ status: 'error', message: event.message || 'the worker stopped', refused: false });
      startWorker();
    };
  };
  useEffect(() => {
    startWorker();
    return () => worker.current?.terminate();
  }, []);
  const onFile = (file: File) => {
    const oversize = refuseOversizeSnapshot(file.size);
    if (oversize && !oversize.ok) {
      setState({ status: 'error', message: oversize.message, refused: false });
      return;
    }
    setState({ status: 'working', bytesRead: 0, totalBytes: file.size });
    worker.current?.postMessage(file);
  };
  return (
    <div class="widget" data-tool="snapshot" data-state={state.status} data-worker={workerReady ? 'ready' : 'starting'}>
      <InputPanel tool="snapshot" examples={[{ label: S.example, load: () => exampleFile(snapshotUrl, 'snapshot-oom.pickle') }]} onFile={onFile} busy={state.status === 'working'} />
      {state.status === 'working' && (
        <p>
          <progress value={state.bytesRead} max={Math.max(1, state.totalBytes)} aria-label={S.progress(formatBinary(state.bytesRead), formatBinary(state.totalBytes))} />{' '}
          {S.progress(formatBinary(state.bytesRead), formatBinary(state.totalBytes))}
        </p>
      )}
      {state.status === 'error' && (
        <p class="widget-error" role="alert" data-refused={String(state.refused)}>
          {state.refused ? S.refused : S.failed} {state.message}
        </p>
      )}
      {state.status === 'done' && (
        <div class="diag-results" aria-live="polite" data-peak-active-bytes={state.analysis.peakActiveBytes} data-oom-events={state.analysis.oomEvents.length}>
          <h3>{S.ooms}</h3>
          {state.analysis.oomEvents.length === 0 ? (
            <p>{S.noOoms}</p>
          ) : (
            <ul>
              {state.analysis.oomEvents.map((oom) => (
                <li>
                  {describeSnapshotOom(oom.requestedBytes, oom.deviceFreeBytes, oom.device)} <Frames frames={oom.frames} />
                </li>
              ))}
            </ul>
          )}
          {state.analysis.devices.map((device) => (
            <DeviceView device={device} />
          ))}
          <UnreadList notes={state.analysis.unread} title={S.unread} />
        </div>
      )}
    </div>
  );
}
