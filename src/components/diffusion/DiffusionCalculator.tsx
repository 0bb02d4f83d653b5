import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import {
  DIFFUSION_OFFLOADS,
  DIFFUSION_PHASES,
  DIFFUSION_PRESETS,
  DIT_WEIGHTS,
  formatChanges,
  formatCount,
  formatSeconds,
  GUIDANCES,
  pipelineFor,
  wordNotice,
} from '../../memory/index';
import CopyCommand from '../CopyCommand';
import GpuSelect from '../GpuSelect';
import WidgetField from '../WidgetField';
import {
  computeDiffusion,
  DIFFUSION_DEFAULTS,
  diffusionFromQuery,
  pickPipeline,
  withChanges,
  withSetting,
  type DiffusionComputed,
  type DiffusionSettings,
  type DiffusionView,
} from './diffusion-state';
import { DEFAULT_LOCALE, type Locale } from '../../i18n/locales';
import { messagesFor } from '../../i18n/messages/index';
import { LocaleContext, useMessages } from '../../i18n/use-messages';
import '../widget.css';
import '../calculators/calculator.css';
import './diffusion.css';
import VerdictFrame from '../calculators/VerdictFrame';

/**
 * Image and video generation memory: a diffusers pipeline preset, the output and where each component waits in, the
 * GPU memory of each phase of one generation out (encode, denoise, decode), with the parameters of each component and
 * the changes that would make it fit, computed by the same functions as `npm run diffusion`. The settings live in the
 * URL query under the command's flag names; while a field is invalid, the last valid result stays, dimmed.
 */
export default function DiffusionCalculator({ locale = DEFAULT_LOCALE }: { readonly locale?: Locale }) {
  const messages = messagesFor(locale);
  const text = messages.diffusion;
  const [settings, setSettings] = useState<DiffusionSettings>(DIFFUSION_DEFAULTS);
  const [touched, setTouched] = useState(false);

  // The query is read after hydration: the prerendered HTML shows the defaults.
  useEffect(() => setSettings(diffusionFromQuery(location.search)), []);

  const computed = useMemo(() => computeDiffusion(settings), [settings]);
  const lastValid = useRef<DiffusionComputed & { ok: true }>();
  if (computed.ok) lastValid.current = computed;
  const view = computed.ok ? computed.view : lastValid.current?.view;
  const stale = !computed.ok;

  useEffect(() => {
    if (!touched || !computed.ok) return;
    const query = new URLSearchParams(computed.view.flags);
    history.replaceState(history.state, '', `${location.pathname}?${query.toString()}${location.hash}`);
  }, [computed, touched]);

  const change = (next: DiffusionSettings) => {
    setTouched(true);
    setSettings(next);
  };
  const set = (flag: string, value: string | undefined) => change(withSetting(settings, flag, value));
  const errors = computed.ok ? [] : computed.errors;
  const errorFor = (field: string) =>
    errors
      .filter((e) => e.field === field)
      .map(messages.engine.fieldError)
      .join('; ') || undefined;
  const pipeline = view === undefined ? undefined : pipelineFor(view.preset.shape);
  const video = (pipeline?.vae.temporalCompression ?? 1) > 1;

  return (
    <LocaleContext.Provider value={locale}>
      <section
        class="widget calc not-content"
        data-widget="diffusion"
        aria-label={text.ariaLabel}
        {...(computed.ok ? { 'data-peak-bytes': computed.view.result.peak } : {})}
      >
        {view && <Verdict view={view} stale={stale} />}
        <div class="calc-groups">
          <fieldset class="calc-group">
            <legend>{text.groups.model}</legend>
            <WidgetField label={<FlagLabel label={text.model} flag="model" />} error={errorFor('model')}>
              <select
                data-flag="model"
                value={settings['model'] ?? ''}
                onChange={(e) => change(pickPipeline(settings, e.currentTarget.value))}
              >
                {DIFFUSION_PRESETS.map((p) => (
                  <option value={p.id}>{p.label}</option>
                ))}
              </select>
            </WidgetField>
            {view && <Components view={view} stale={stale} />}
          </fieldset>
          <fieldset class="calc-group">
            <legend>{text.groups.output}</legend>
            <TextField flag="resolution" label={text.resolution} settings={settings} set={set} error={errorFor('resolution')} />
            {video && <TextField flag="frames" label={text.frames} settings={settings} set={set} error={errorFor('frames')} />}
            <TextField
              flag="steps"
              label={text.steps}
              settings={settings}
              set={set}
              error={errorFor('steps')}
              placeholder={pipeline === undefined ? undefined : String(pipeline.defaults.steps)}
            />
            <SelectField
              flag="guidance"
              label={text.guidance}
              settings={settings}
              set={set}
              error={errorFor('guidance')}
              values={GUIDANCES}
              empty={pipeline === undefined ? undefined : text.pipelineDefault(pipeline.guidance)}
            />
          </fieldset>
          <fieldset class="calc-group">
            <legend>{text.groups.memory}</legend>
            <SelectField
              flag="weights"
              label={text.weights}
              settings={settings}
              set={set}
              error={errorFor('weights')}
              values={DIT_WEIGHTS}
            />
            <SelectField
              flag="offload"
              label={text.offload}
              settings={settings}
              set={set}
              error={errorFor('offload')}
              values={DIFFUSION_OFFLOADS}
              names={text.offloads}
            />
            <CheckField flag="text-encoder-cpu" label={text.textEncoderCpu} settings={settings} set={set} />
            <CheckField flag="vae-tiling" label={text.vaeTiling} settings={settings} set={set} />
          </fieldset>
          <fieldset class="calc-group">
            <legend>{text.groups.hardware}</legend>
            <WidgetField label={<FlagLabel label={text.gpu} flag="gpu" />} error={errorFor('gpu')}>
              <GpuSelect value={settings['gpu'] ?? ''} noGpuLabel={text.noGpu} onPick={(id) => set('gpu', id)} />
            </WidgetField>
            {settings['headroom'] !== undefined && (
              <TextField flag="headroom" label={text.headroom} settings={settings} set={set} error={errorFor('headroom')} />
            )}
          </fieldset>
        </div>
        {view && <Results view={view} stale={stale} onApply={(changes) => change(withChanges(settings, changes))} />}
      </section>
    </LocaleContext.Provider>
  );
}

/** A field's label with the flag that sets it, as `npm run diffusion` spells it. */
function FlagLabel({ label, flag }: { label: string; flag: string }) {
  return (
    <>
      {label} <code class="calc-flag">--{flag}</code>
    </>
  );
}

interface FieldProps {
  readonly flag: string;
  readonly label: string;
  readonly settings: DiffusionSettings;
  readonly set: (flag: string, value: string | undefined) => void;
  readonly error?: string | undefined;
}

function TextField({ flag, label, settings, set, error, placeholder }: FieldProps & { placeholder?: string | undefined }) {
  return (
    <WidgetField label={<FlagLabel label={label} flag={flag} />} error={error}>
      <input
        type="text"
        data-flag={flag}
        value={settings[flag] ?? ''}
        placeholder={placeholder}
        aria-invalid={error ? 'true' : undefined}
        onInput={(e) => set(flag, e.currentTarget.value)}
      />
    </WidgetField>
  );
}

function SelectField({
  flag,
  label,
  settings,
  set,
  error,
  values,
  names,
  empty,
}: FieldProps & {
  values: readonly string[];
  names?: Readonly<Record<string, string>>;
  /** The empty choice's words, when leaving the flag out means the pipeline's own value. */
  empty?: string | undefined;
}) {
  return (
    <WidgetField label={<FlagLabel label={label} flag={flag} />} error={error}>
      <select
        data-flag={flag}
        value={settings[flag] ?? ''}
        aria-invalid={error ? 'true' : undefined}
        onChange={(e) => set(flag, e.currentTarget.value)}
      >
        {empty !== undefined && <option value="">{empty}</option>}
        {values.map((value) => (
          <option value={value}>{names?.[value] ?? value}</option>
        ))}
      </select>
    </WidgetField>
  );
}

function CheckField({ flag, label, settings, set }: FieldProps) {
  return (
    <label class="widget-field calc-check">
      <input
        type="checkbox"
        data-flag={flag}
        checked={settings[flag] === 'true'}
        onChange={(e) => set(flag, e.currentTarget.checked ? 'true' : undefined)}
      />
      <span>
        {label} <code class="calc-flag">--{flag}</code>
      </span>
    </label>
  );
}

/** The parameters of each component, next to the pipeline picked, so no shape is silent. */
function Components({ view, stale }: { view: DiffusionView; stale: boolean }) {
  const text = useMessages().diffusion;
  const { result } = view;
  return (
    <dl class={`diffusion-components${stale ? ' calc-stale' : ''}`} data-components>
      <dt>{text.transformer}</dt>
      <dd data-param="transformer">
        {formatCount(result.transformer.total)} ({view.preset.className})
      </dd>
      {result.textEncoders.map((encoder) => (
        <>
          <dt>{encoder.name}</dt>
          <dd data-param="text-encoder">{formatCount(encoder.params)}</dd>
        </>
      ))}
      {result.imageEncoder !== null && (
        <>
          <dt>{result.imageEncoder.name}</dt>
          <dd data-param="image-encoder">{formatCount(result.imageEncoder.params)}</dd>
        </>
      )}
      <dt>{text.vae}</dt>
      <dd data-param="vae">{formatCount(result.vaeParams)}</dd>
    </dl>
  );
}

/** The answer first: fits or not and by how much, and the phase of the peak. */
function Verdict({ view, stale }: { view: DiffusionView; stale: boolean }) {
  const messages = useMessages();
  const text = messages.diffusion;
  const gib = messages.format.gib;
  const { result } = view;
  const fit =
    result.gpu === null
      ? text.pickGpu
      : result.fits
        ? text.fits(result.gpu.name, gib(result.gpu.memoryBytes - (result.headroom?.bytes ?? 0) - result.peak))
        : text.overBy(result.gpu.name, gib(result.shortfall ?? 0));
  return (
    <VerdictFrame fits={result.fits} stale={stale} staleNote={text.staleNote} answer={fit}>
      <p data-peak>{text.peakAt(gib(result.peak), text.phases[result.peakPhase])}</p>
      <p class="calc-note">{text.tokens(formatCount(result.tokens.visual), result.tokens.text)}</p>
    </VerdictFrame>
  );
}

/** Each line per phase, the host side of offload, the changes that fit, and the command. */
function Results({
  view,
  stale,
  onApply,
}: {
  view: DiffusionView;
  stale: boolean;
  onApply: (changes: DiffusionView['remedies'][number]['changes']) => void;
}) {
  const messages = useMessages();
  const text = messages.diffusion;
  const gib = messages.format.gib;
  const { result } = view;
  const transfer = result.hostTransfer;
  return (
    <div class={`calc-results${stale ? ' calc-stale' : ''}`}>
      <div class="widget-scroll" tabIndex={0}>
        <table class="widget-table" data-phases>
          <caption>{text.tableCaption}</caption>
          <thead>
            <tr>
              <th scope="col">{text.part}</th>
              {DIFFUSION_PHASES.map((phase) => (
                <th scope="col">{text.phaseColumns[phase]}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {result.lines.map((l) => (
              <tr data-line={l.id}>
                <th scope="row">{text.lineLabel(l)}</th>
                {l.live.map((bytes) => (
                  <td>{gib(bytes)}</td>
                ))}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr data-total>
              <th scope="row">{text.total}</th>
              {DIFFUSION_PHASES.map((phase) => (
                <td data-phase={phase} data-bytes={result.perPhase[phase]}>
                  {phase === result.peakPhase ? <strong>{gib(result.perPhase[phase])}</strong> : gib(result.perPhase[phase])}
                </td>
              ))}
            </tr>
          </tfoot>
        </table>
      </div>
      <p>{text.host(gib(result.hostPeak))}</p>
      {transfer.bytes > 0 && (
        <p data-transfer-bytes={transfer.bytes}>
          {text.transfer(
            gib(transfer.bytes),
            transfer.passes,
            transfer.seconds === null ? null : formatSeconds(transfer.seconds),
            result.gpu?.hostLink ?? '',
          )}
        </p>
      )}
      {result.notices.length > 0 && (
        <ul class="calc-warnings" aria-label={text.warnings}>
          {result.notices.map((notice) => (
            <li>{wordNotice(notice, messages.engine.warnings)}</li>
          ))}
        </ul>
      )}
      {result.fits === false && (
        <section class="diffusion-remedies" data-remedies>
          <h3>{text.remediesTitle}</h3>
          <p class="calc-note">{text.remediesIntro}</p>
          {view.remedies.length === 0 ? (
            <p>{text.noRemedy}</p>
          ) : (
            <ul>
              {view.remedies.map((remedy) => (
                <li data-remedy={formatChanges(remedy.changes)} data-peak-bytes={remedy.peak}>
                  <code>{formatChanges(remedy.changes)}</code>:{' '}
                  {text.remedyLine(gib(remedy.peak), text.phases[remedy.peakPhase], formatSeconds(remedy.transferSeconds))}{' '}
                  <button type="button" data-action="apply" onClick={() => onApply(remedy.changes)}>
                    {text.apply}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      <CopyCommand command={view.command} intro={text.copyIntro} copy={text.copy} copied={text.copied} />
    </div>
  );
}
