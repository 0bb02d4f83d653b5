import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Backend } from '../../lab/protocol';
import type { LabProgress, LabSample } from '../../lab/progress';
import { LabRunError } from '../../lab/lab-run-error';
import { RUNTIME_DOWNLOAD_MB } from '../../lab/runtime';
import { SIZE_FIELDS, validateLabSettings, type BatchSplit, type LabField, type LabSettings } from '../../lab/settings';
import LabControls from './LabControls';
import { MiB } from './format';
import { useLabSettings } from './useLabSettings';
import '../widget.css';
import './lab.css';

/** The runtime's size as `loadRuntime` picks it: both, since the build is chosen only on Run. */
const RUNTIME_DOWNLOAD = `${RUNTIME_DOWNLOAD_MB.jspi} MB in browsers with WebAssembly JSPI such as Chrome and Edge, ${RUNTIME_DOWNLOAD_MB.asyncify} MB in others`;

/** The figures every experiment puts on its root element: the test contract. */
export interface ContractFigures {
  readonly backend: Backend;
  readonly measuredBeforeBytes: number;
  readonly measuredAfterBytes: number;
  readonly predictedBeforeBytes: number;
  readonly predictedAfterBytes: number;
  /** More `data-*` attributes (camelCase names become kebab-case), e.g. timings for the bench. */
  readonly extra?: Readonly<Record<string, string | number>>;
}

type RunState<O> =
  | { readonly state: 'idle' }
  | { readonly state: 'running'; readonly progress: LabProgress | null; readonly samples: readonly LabSample[] }
  | { readonly state: 'unsupported'; readonly message: string }
  | { readonly state: 'done'; readonly outcome: O }
  | { readonly state: 'error'; readonly title: string; readonly message: string };

const FAILURE_TITLES: Record<LabRunError['kind'], string> = {
  'out-of-memory': 'You just hit OOM in your browser',
  'device-lost': 'The GPU device was lost',
  limits: 'This model is larger than your GPU allows',
  unsupported: 'Your browser cannot run this variant',
  error: 'The experiment failed',
  'needs-webgpu': 'Needs WebGPU',
};

const FAILURE_WHY: Record<LabRunError['kind'], string> = {
  'out-of-memory': 'The browser could not allocate the buffers this step needs — the same thing CUDA reports as "out of memory". Try a smaller batch or width, or the technique this lesson teaches.',
  'device-lost': 'The browser reset the GPU (often because a step ran too long or used too much memory). Reload the page and try smaller sizes.',
  limits: 'One buffer would exceed a WebGPU limit of this device (maxBufferSize or maxStorageBufferBindingSize). Try a smaller batch or width.',
  unsupported: 'A feature this run needs is missing here.',
  error: 'Something unexpected went wrong while running the model.',
  'needs-webgpu': 'This experiment measures GPU buffers, which only WebGPU has.',
};

function describeProgress(progress: LabProgress | null): string {
  if (!progress) return 'Starting…';
  if (progress.phase === 'runtime') {
    const { loaded, total } = progress.download;
    return total ? `Downloading onnxruntime-web: ${Math.round((100 * loaded) / total)}% of ${MiB(total)}` : `Downloading onnxruntime-web: ${MiB(loaded)}`;
  }
  return `${progress.label}: ${progress.stage}…`;
}

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The contract's `data-*` attributes for a finished run. */
export function contractAttributes(figures: ContractFigures): Record<string, string | number> {
  const { backend, extra = {}, ...bytes } = figures;
  const attributes: Record<string, string | number> = { 'data-backend': backend };
  for (const [name, value] of Object.entries({ ...bytes, ...extra })) attributes[`data-${kebab(name)}`] = value;
  return attributes;
}

export interface ExperimentFrameProps<O> {
  /** The `data-experiment` id. */
  readonly id: string;
  /** What is compared, for assistive technology (e.g. "keep activations vs recompute"). */
  readonly title: string;
  /** Which settings the reader may change (defaults: width, layers, batch). */
  readonly fields?: readonly LabField[];
  /** How the batch must split (checked before Run). */
  readonly splits?: readonly BatchSplit[];
  /** Starting values where they differ from the lab's defaults. */
  readonly defaults?: Partial<LabSettings>;
  /** Starting values on a software WebGPU adapter, over `defaults` (see `useLabSettings`); none: no change. */
  readonly softwareDefaults?: Partial<LabSettings>;
  /** The experiment needs 16-bit shaders (it runs on WebAssembly where an adapter lacks them). */
  readonly needsF16?: boolean;
  /** What Run does, after "Press Run to download onnxruntime-web (…) and". */
  readonly idleText: string;
  /** Runs the experiment; throws `LabRunError` for failures the page explains. */
  readonly run: (settings: LabSettings, onProgress: (progress: LabProgress) => void) => Promise<O>;
  readonly figures: (outcome: O) => ContractFigures;
  /** One line under the controls once done (usually which backend ran, and why). */
  readonly summary: (outcome: O) => string;
  readonly results: (outcome: O) => ComponentChildren;
  /** What to draw from live samples while running (e.g. bytes per step). */
  readonly live?: (samples: readonly LabSample[]) => ComponentChildren;
}

/**
 * The frame every experiment shares: settings and Run, progress while running, the failure a
 * reader can learn from, and the test contract on the root element (`data-experiment`,
 * `data-state`, and once done the figures). Each experiment supplies how to run and what to show.
 */
export default function ExperimentFrame<O>(props: ExperimentFrameProps<O>) {
  const { id, title, fields = SIZE_FIELDS, splits = [], defaults, softwareDefaults, needsF16, idleText, run, figures, summary, results, live } = props;
  const { settings, batchText, softwareNote, startedAt, change } = useLabSettings({ defaults, software: softwareDefaults, needsF16 });
  const [state, setState] = useState<RunState<O>>({ state: 'idle' });
  const errors = validateLabSettings(settings, fields, splits);
  const running = state.state === 'running';

  const start = async () => {
    const samples: LabSample[] = [];
    setState({ state: 'running', progress: null, samples });
    try {
      const outcome = await run(settings, (progress) => {
        if (progress.phase === 'run' && progress.sample) samples.push(progress.sample);
        setState({ state: 'running', progress, samples: [...samples] });
      });
      setState({ state: 'done', outcome });
    } catch (error) {
      const kind = error instanceof LabRunError ? error.kind : 'error';
      const detail = error instanceof Error ? error.message : String(error);
      // An experiment that has nothing to show without WebGPU says so as a state of its own.
      if (kind === 'needs-webgpu') setState({ state: 'unsupported', message: detail });
      else setState({ state: 'error', title: FAILURE_TITLES[kind], message: `${FAILURE_WHY[kind]} (${detail})` });
    }
  };

  const outcome = state.state === 'done' ? state.outcome : null;
  return (
    <section
      class="widget lab-experiment not-content"
      data-experiment={id}
      data-state={state.state}
      data-sizes={startedAt ?? undefined}
      aria-label={`Experiment: ${title}`} {...(outcome ? contractAttributes(figures(outcome)) : {})}>
      <LabControls
        fields={fields}
        settings={settings}
        batchText={batchText}
        errors={errors}
        running={running}
        runLabel={running ? 'Running…' : state.state === 'idle' ? 'Run' : 'Run again'}
        onChange={change}
        onRun={() => void start()}
      />
      {softwareNote && <p class="lab-note">{softwareNote}</p>}
      <p class="lab-status" aria-live="polite">
        {state.state === 'idle' && `Press Run to download onnxruntime-web (${RUNTIME_DOWNLOAD}, once) and ${idleText}`}
        {state.state === 'running' && describeProgress(state.progress)}
        {outcome && summary(outcome)}
      </p>
      {state.state === 'running' && live && state.samples.length > 0 && live(state.samples)}
      {state.state === 'unsupported' && (
        <div class="lab-failure" role="alert">
          <strong>Needs WebGPU.</strong> {state.message}
        </div>
      )}
      {state.state === 'error' && (
        <div class="lab-failure" role="alert">
          <strong>{state.title}.</strong> {state.message}
        </div>
      )}
      {outcome && results(outcome)}
    </section>
  );
}
