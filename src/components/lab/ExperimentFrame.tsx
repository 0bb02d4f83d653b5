import type { ComponentChildren } from 'preact';
import { useContext, useState } from 'preact/hooks';
import { backendReasonWords, fallbackCauseWords, type BackendChoice } from '../../lab/page/choose-backend';
import type { Backend } from '../../lab/measure/executor';
import type { LabProgress, LabSample, ProgressSide } from '../../lab/page/progress';
import { LabRunError } from '../../lab/page/lab-run-error';
import {
  SIZE_FIELDS,
  validateLabSettings,
  type BatchSplit,
  type LabField,
  type LabSettings,
} from '../../lab/experiments/settings';
import LabControls from './LabControls';
import { formatMiB } from '../../base/bytes';
import { RUNTIME_DOWNLOAD_MB } from '../../lab/page/runtime-loader';
import { localizedHref } from '../../i18n/locales';
import { LocaleContext, useMessages } from '../../i18n/use-messages';
import type { LabMessages } from '../../i18n/messages/lab/en';
import { LAB_METHOD_HREF, WASM_SECTION_HREF } from './lab-links';
import { useLabSettings } from './useLabSettings';
import '../widget.css';
import './lab.css';

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

/** The progress line: the runtime's download, or who runs and what its worker does, in the page's language. */
function describeProgress(progress: LabProgress | null, messages: LabMessages, sideName: (side: ProgressSide) => string): string {
  const words = messages.frame;
  if (!progress) return words.startingRun;
  if (progress.phase === 'runtime') {
    const { loaded, total } = progress.download;
    return total
      ? words.downloading(Math.round((100 * loaded) / total), formatMiB(total))
      : words.downloadingBytes(formatMiB(loaded));
  }
  const sides = progress.sides.map(sideName).join(words.then);
  const who = progress.rank === undefined ? sides : messages.cluster.deviceOfSide(sides, progress.rank);
  return words.progress(who, words.stage(progress.stage));
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
  /** Why the experiment cannot run without WebGPU; unset when it falls back to WebAssembly. */
  readonly needsWebGpu?: string | undefined;
  /** What a backend will and will not show of the technique (null: nothing to add), said before Run. */
  readonly caveat?: (backend: Backend) => string | null;
  /** What Run does, after "Press Run to download onnxruntime-web (…) and". */
  readonly idleText: string;
  /** Runs the experiment; throws `LabRunError` for failures the page explains. */
  readonly run: (settings: LabSettings, onProgress: (progress: LabProgress) => void) => Promise<O>;
  /** A side the progress line names, in the page's language. */
  readonly sideName: (side: ProgressSide) => string;
  readonly figures: (outcome: O) => ContractFigures;
  /** Which backend ran and why, as data; the frame says it under the controls once done. */
  readonly backendOf: (outcome: O) => BackendChoice;
  readonly results: (outcome: O) => ComponentChildren;
  /** What to draw from live samples while running (e.g. bytes per step). */
  readonly live?: (samples: readonly LabSample[]) => ComponentChildren;
}

/** The label of Run: what pressing it would do now. */
function runLabel(state: RunState<unknown>['state'], words: LabMessages['frame']): string {
  if (state === 'running') return words.running;
  if (state === 'done') return words.runAgain;
  if (state === 'error') return words.tryAgain;
  return words.run;
}

/**
 * What the page says before Run about the backend it will use: why it falls back to
 * WebAssembly, if it does, and what that backend cannot show of the technique; null when
 * there is nothing to warn about.
 */
function describeChoice(
  choice: BackendChoice,
  caveat: ((backend: Backend) => string | null) | undefined,
  words: LabMessages,
): string | null {
  const cannotShow = caveat?.(choice.backend) ?? null;
  const cause = fallbackCauseWords(choice, words.backend);
  const fallback = cause === null ? null : words.frame.willRunOnWasm(cause);
  return [fallback, cannotShow].filter(Boolean).join(' ') || null;
}

/**
 * The frame every experiment shares: settings and Run, progress while running, the failure a
 * reader can learn from, the test contract on the root element (`data-experiment`,
 * `data-state`, and once done the figures), and one link to "How the lab measures", under the
 * results, which explains their columns for every experiment. Each experiment supplies how to run
 * and what to show.
 *
 * Run stays disabled until the island has hydrated and asked the browser for a WebGPU adapter:
 * the server-rendered button would otherwise submit its form and reload the page, losing the
 * click. An experiment that needs WebGPU where there is none says so then, before any Run.
 */
export default function ExperimentFrame<O>(props: ExperimentFrameProps<O>) {
  const {
    id,
    title,
    fields = SIZE_FIELDS,
    splits = [],
    defaults,
    softwareDefaults,
    needsF16,
    needsWebGpu,
    caveat,
    idleText,
    run,
    sideName,
    figures,
    backendOf,
    results,
    live,
  } = props;
  const messages = useMessages().lab;
  const words = messages.frame;
  const locale = useContext(LocaleContext);
  const { settings, batchText, softwareNote, startedAt, choice, change } = useLabSettings({
    defaults,
    software: softwareDefaults,
    needsF16,
  });
  const [runState, setState] = useState<RunState<O>>({ state: 'idle' });
  const errors = validateLabSettings(settings, fields, splits, messages.controls.errors);
  // Known before Run: nothing can run here, so nothing is offered.
  const state: RunState<O> =
    choice && needsWebGpu && choice.backend === 'wasm' && runState.state === 'idle'
      ? { state: 'unsupported', message: words.needsWebGpu(needsWebGpu, fallbackCauseWords(choice, messages.backend) ?? '') }
      : runState;
  const running = state.state === 'running';
  const ready = choice !== null && state.state !== 'unsupported';

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
      // The error's own words are the lab's English: the page says the same from what it knows, in its language.
      if (kind === 'needs-webgpu')
        setState({
          state: 'unsupported',
          message:
            needsWebGpu && choice ? words.needsWebGpu(needsWebGpu, fallbackCauseWords(choice, messages.backend) ?? '') : detail,
        });
      else setState({ state: 'error', title: words.failureTitles[kind], message: words.failure(words.failureWhy[kind], detail) });
    }
  };

  const outcome = state.state === 'done' ? state.outcome : null;
  const backendNote =
    choice && (state.state === 'idle' || state.state === 'running') ? describeChoice(choice, caveat, messages) : null;
  return (
    <section
      class="widget lab-experiment not-content"
      data-experiment={id}
      data-state={state.state}
      data-sizes={startedAt ?? undefined}
      aria-label={words.ariaLabel(title)}
      {...(outcome ? contractAttributes(figures(outcome)) : {})}
    >
      <LabControls
        fields={fields}
        settings={settings}
        batchText={batchText}
        errors={errors}
        ready={ready}
        running={running}
        labels={messages.controls.labels}
        runLabel={runLabel(state.state, words)}
        onChange={change}
        onRun={() => void start()}
      />
      {softwareNote && (
        <p class="lab-note" data-software-note>
          {softwareNote}
        </p>
      )}
      {backendNote && (
        <p class="lab-caveat" data-backend-note>
          {backendNote}
          {choice?.backend === 'wasm' && (
            <>
              {' '}
              <a href={localizedHref(locale, WASM_SECTION_HREF)} data-wasm-link>
                {words.wasmLink}
              </a>
            </>
          )}
        </p>
      )}
      <p class="lab-status" aria-live="polite">
        {state.state === 'idle' &&
          (choice ? words.idle(idleText, RUNTIME_DOWNLOAD_MB.jspi, RUNTIME_DOWNLOAD_MB.asyncify) : words.checking)}
        {state.state === 'running' && describeProgress(state.progress, messages, sideName)}
        {outcome && backendReasonWords(backendOf(outcome), messages.backend)}
      </p>
      {state.state === 'running' && live && state.samples.length > 0 && live(state.samples)}
      {state.state === 'unsupported' && (
        <div class="lab-failure" role="alert">
          <strong>{words.needsWebGpuTitle}</strong> {state.message}{' '}
          <a href={localizedHref(locale, WASM_SECTION_HREF)} data-wasm-link>
            {words.wasmLink}
          </a>
        </div>
      )}
      {state.state === 'error' && (
        <div class="lab-failure" role="alert">
          <strong>{state.title}.</strong> {state.message}
        </div>
      )}
      {outcome && results(outcome)}
      <p class="lab-note">
        <a href={localizedHref(locale, LAB_METHOD_HREF)} data-lab-method>
          {words.methodLink}
        </a>
      </p>
    </section>
  );
}
