import { useState } from 'preact/hooks';
import { agreesWithPrediction, AGREEMENT_RATIO } from '../../lab/agreement';
import { EXPERIMENTS, type ExperimentId } from '../../lab/experiments';
import { LabRunError } from '../../lab/run-variant';
import { measuredBytes, runExperiment, type ExperimentOutcome, type ExperimentProgress } from '../../lab/run-experiment';
import {
  DEFAULT_LAB_SETTINGS, LAB_BATCH_MAX, LAB_BATCH_MIN, LAB_LAYERS, LAB_MICRO_BATCHES, LAB_WIDTHS,
  validateLabSettings, type LabSettings,
} from '../../lab/settings';
import MemoryTimeline from './MemoryTimeline';
import '../widget.css';
import './lab.css';

/** Bytes after one step of one variant, as the worker reports them during a run. */
interface LiveSample {
  readonly side: string;
  readonly step: number;
  readonly bytes: number;
}

type RunState =
  | { readonly state: 'idle' }
  | { readonly state: 'running'; readonly progress: ExperimentProgress | null; readonly samples: readonly LiveSample[] }
  | { readonly state: 'unsupported'; readonly message: string }
  | { readonly state: 'done'; readonly outcome: ExperimentOutcome }
  | { readonly state: 'error'; readonly title: string; readonly message: string };

const FAILURE_TITLES: Record<LabRunError['kind'], string> = {
  'out-of-memory': 'You just hit OOM in your browser',
  'device-lost': 'The GPU device was lost',
  limits: 'This model is larger than your GPU allows',
  unsupported: 'Your browser cannot run this variant',
  error: 'The experiment failed',
};

const FAILURE_WHY: Record<LabRunError['kind'], string> = {
  'out-of-memory': 'The browser could not allocate the buffers this step needs — the same thing CUDA reports as "out of memory". Try a smaller batch or width, or the technique this lesson teaches.',
  'device-lost': 'The browser reset the GPU (often because a step ran too long or used too much memory). Reload the page and try smaller sizes.',
  limits: 'One buffer would exceed a WebGPU limit of this device (maxBufferSize or maxStorageBufferBindingSize). Try a smaller batch or width.',
  unsupported: 'A feature this run needs is missing here.',
  error: 'Something unexpected went wrong while running the model.',
};

/** Lab models are small: MiB (2^20 bytes) reads best. */
const MiB = (bytes: number) => `${(bytes / 2 ** 20).toFixed(2)} MiB`;

function describeProgress(progress: ExperimentProgress | null): string {
  if (!progress) return 'Starting…';
  if (progress.phase === 'runtime') {
    const { loaded, total } = progress.download;
    return total ? `Downloading onnxruntime-web: ${Math.round((100 * loaded) / total)}% of ${MiB(total)}` : `Downloading onnxruntime-web: ${MiB(loaded)}`;
  }
  return `${progress.side}: ${progress.stage}…`;
}

/** Props of the experiment island. */
export interface ExperimentProps {
  /** Which experiment (also its `data-experiment` attribute). */
  readonly id: ExperimentId;
}

/**
 * An in-browser experiment: the reader picks sizes and presses Run; the same tiny model runs
 * without and with the technique, each in a fresh worker, and the page shows the measured
 * bytes next to the memory engine's prediction. The test contract lives on the root element.
 */
export default function Experiment({ id }: ExperimentProps) {
  const experiment = EXPERIMENTS[id];
  const initial: LabSettings = { ...DEFAULT_LAB_SETTINGS, ...experiment.defaults };
  const [settings, setSettings] = useState<LabSettings>(initial);
  const [batchText, setBatchText] = useState(String(initial.batch));
  const [run, setRun] = useState<RunState>({ state: 'idle' });
  const errors = validateLabSettings(settings, { accumulate: experiment.accumulate });
  const errorFor = (field: keyof LabSettings) => errors.find((e) => e.field === field)?.message;
  const running = run.state === 'running';

  const start = async () => {
    const samples: LiveSample[] = [];
    setRun({ state: 'running', progress: null, samples });
    try {
      const outcome = await runExperiment(id, settings, (progress) => {
        if (progress.phase === 'run' && progress.sample) samples.push(progress.sample);
        setRun({ state: 'running', progress, samples: [...samples] });
      });
      setRun({ state: 'done', outcome });
    } catch (error) {
      const kind = error instanceof LabRunError ? error.kind : 'error';
      const detail = error instanceof Error ? error.message : String(error);
      // An experiment that needs WebGPU says so as its own state, not as a failure.
      if (kind === 'unsupported' && experiment.needsWebGpu) setRun({ state: 'unsupported', message: detail });
      else setRun({ state: 'error', title: FAILURE_TITLES[kind], message: `${FAILURE_WHY[kind]} (${detail})` });
    }
  };

  const outcome = run.state === 'done' ? run.outcome : null;
  const rootData = outcome
    ? {
        'data-backend': outcome.backend,
        'data-measured-before-bytes': measuredBytes(outcome.before.result),
        'data-measured-after-bytes': measuredBytes(outcome.after.result),
        'data-predicted-before-bytes': outcome.before.predictedBytes,
        'data-predicted-after-bytes': outcome.after.predictedBytes,
        'data-gradients-match': String(outcome.gradientsPass),
        'data-saving-measurable': String(outcome.unmeasurable === null),
        // Timings for `npm run bench` (milliseconds).
        'data-before-step-ms': Math.round(outcome.before.result.stepMs),
        'data-after-step-ms': Math.round(outcome.after.result.stepMs),
        'data-load-ms': Math.round(outcome.before.result.loadMs),
      }
    : {};

  const select = (field: 'hidden' | 'layers' | 'microBatches', label: string, options: readonly number[]) => (
    <label class="widget-field">
      <span>{label}</span>
      <select
        value={settings[field]}
        disabled={running}
        onChange={(e) => setSettings({ ...settings, [field]: Number((e.currentTarget as HTMLSelectElement).value) })}
        aria-invalid={errorFor(field) ? 'true' : undefined}
      >
        {options.map((o) => (
          <option value={o}>{o}</option>
        ))}
      </select>
      {errorFor(field) && <span class="widget-error" role="alert">{errorFor(field)}</span>}
    </label>
  );

  return (
    <section class="widget lab-experiment not-content" data-experiment={id} data-state={run.state} aria-label={`Experiment: ${experiment.before.label} vs ${experiment.after.label}`} {...rootData}>
      <form
        class="lab-controls"
        onSubmit={(e) => {
          e.preventDefault();
          if (errors.length === 0 && !running) void start();
        }}
      >
        {select('hidden', 'Width', LAB_WIDTHS)}
        {select('layers', 'Layers', LAB_LAYERS)}
        <label class="widget-field">
          <span>Batch</span>
          <input
            type="number"
            inputMode="numeric"
            min={LAB_BATCH_MIN}
            max={LAB_BATCH_MAX}
            value={batchText}
            disabled={running}
            aria-invalid={errorFor('batch') ? 'true' : undefined}
            onInput={(e) => {
              const text = (e.currentTarget as HTMLInputElement).value;
              setBatchText(text);
              setSettings({ ...settings, batch: text.trim() === '' ? Number.NaN : Number(text) });
            }}
          />
          {errorFor('batch') && <span class="widget-error" role="alert">{errorFor('batch')}</span>}
        </label>
        {experiment.accumulate && select('microBatches', 'Micro-batches', LAB_MICRO_BATCHES)}
        <button type="submit" data-action="run" disabled={running || errors.length > 0}>
          {running ? 'Running…' : run.state === 'idle' ? 'Run' : 'Run again'}
        </button>
      </form>

      <p class="lab-status" aria-live="polite">
        {run.state === 'idle' && 'Press Run to download onnxruntime-web (about 27 MB, once) and measure both variants in your browser.'}
        {run.state === 'running' && describeProgress(run.progress)}
        {outcome && outcome.backendReason}
      </p>

      {run.state === 'running' && experiment.before.loop && run.samples.length > 0 && (
        <MemoryTimeline unitLabel="live GPU buffers" xLabel="training step" dots series={seriesFromSamples(run.samples)} />
      )}

      {run.state === 'unsupported' && (
        <div class="lab-failure" role="alert">
          <strong>Needs WebGPU.</strong> {run.message}
        </div>
      )}

      {run.state === 'error' && (
        <div class="lab-failure" role="alert">
          <strong>{run.title}.</strong> {run.message}
        </div>
      )}

      {outcome && <Results outcome={outcome} tolerance={experiment.gradients} loop={Boolean(experiment.before.loop)} />}
    </section>
  );
}

/** Groups live samples into one series per variant, for the chart drawn during a run. */
function seriesFromSamples(samples: readonly LiveSample[]) {
  const labels = [...new Set(samples.map((s) => s.side))];
  return labels.map((label) => ({ label, points: samples.filter((s) => s.side === label).map((s) => ({ x: s.step, bytes: s.bytes })) }));
}

function Results({ outcome, tolerance, loop }: { outcome: ExperimentOutcome; tolerance: (typeof EXPERIMENTS)[ExperimentId]['gradients']; loop: boolean }) {
  const sides = [outcome.before, outcome.after];
  const memoryLabel = outcome.before.result.memory.kind === 'wasm-heap' ? 'WebAssembly heap growth (coarse high-water mark)' : 'GPU buffers, peak (reserved by onnxruntime-web)';
  const [before, after] = sides.map((s) => measuredBytes(s.result)) as [number, number];
  const saving = before > 0 ? 1 - after / before : 0;
  const kind = outcome.before.result.memory.kind;
  const agree = sides.every((s) => agreesWithPrediction(kind, measuredBytes(s.result), s.predictedBytes));
  const { min, max } = AGREEMENT_RATIO[kind];
  return (
    <div class="lab-results">
      <table class="widget-table">
        <caption>
          Measured: {memoryLabel}; "weights at rest" is what was held once the weights were placed and the sessions created, before the
          first step — everything above it is gradients, activations and temporaries. Predicted: the memory engine for the same model
          (weights, gradients, activations; no CUDA context).
        </caption>
        <thead>
          <tr>
            <th scope="col">Variant</th>
            <th scope="col">Measured peak</th>
            <th scope="col">of which weights at rest</th>
            <th scope="col">Predicted</th>
            <th scope="col">Step time</th>
            <th scope="col">Loss</th>
          </tr>
        </thead>
        <tbody>
          {sides.map((s) => (
            <tr>
              <th scope="row">
                {s.label}
                {s.microBatches > 1 ? ` (${s.microBatches} × ${s.batch / s.microBatches})` : ` (batch ${s.batch})`}
              </th>
              <td>{MiB(measuredBytes(s.result))}</td>
              <td>{MiB(Math.max(0, s.result.memory.setupBytes - s.result.memory.baselineBytes))}</td>
              <td>{MiB(s.predictedBytes)}</td>
              <td>{(s.result.stepMs / 1000).toFixed(2)} s</td>
              <td>{s.result.loss.toFixed(4)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {outcome.unmeasurable && <p class="lab-caveat">{outcome.unmeasurable}</p>}
      <p>
        {saving > 0 ? `Measured saving: ${(saving * 100).toFixed(0)}%. ` : 'No measured saving at these sizes. '}
        {outcome.gradientsPass ? tolerance.passLabel : tolerance.failLabel} (largest relative difference {outcome.gradientDifference.toExponential(1)}).
        {agree
          ? ` Measured and predicted agree within this backend's tolerance (${min}–${max}× the prediction).`
          : ` Measured and predicted differ by more than this backend's tolerance (${min}–${max}×); the lesson explains where such gaps come from.`}
        {outcome.backend === 'webgpu' && outcome.before.result.adapter ? ` Adapter: ${outcome.before.result.adapter}.` : ''}
      </p>
      {loop ? (
        <MemoryTimeline
          unitLabel="GPU buffers held"
          xLabel="training step"
          dots
          series={sides.map((s) => ({ label: s.label, points: s.result.stepBytes.map((bytes, i) => ({ x: i + 1, bytes })) }))}
        />
      ) : (
        <MemoryTimeline
          unitLabel={outcome.before.result.memory.kind === 'wasm-heap' ? 'WASM heap' : 'live GPU buffers'}
          xLabel="time in the run (s)"
          series={sides.map((s) => ({ label: s.label, points: s.result.memory.timeline.map((p) => ({ x: p.t / 1000, bytes: p.bytes })) }))}
        />
      )}
    </div>
  );
}
