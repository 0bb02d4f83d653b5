import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import {
  flagNamed,
  formatEstimateFlags,
  formatStepTime,
  MODEL_PRESETS,
  wordNotice,
  type FieldError,
  type ShownFieldError,
  type LineCategory,
  type RawFlags,
} from '../../memory/index';
import { DEFAULT_LOCALE, type Locale } from '../../i18n/locales';
import { messagesFor } from '../../i18n/messages/index';
import { LocaleContext, useMessages } from '../../i18n/use-messages';
import MemoryBarChart, { type MemoryBar } from '../charts/MemoryBarChart';
import {
  changedFromDefaults,
  compute,
  CUSTOM_FIELDS,
  isCustomField,
  fromQuery,
  groupedFields,
  isCustomShape,
  modelSummary,
  pickPreset,
  startCustomShape,
  type Computed,
  type ScenarioResult,
} from './calculator-state';
import RentCost from './RentCost';
import ScalingChart from './ScalingChart';
import { CALCULATORS, calculatorAnchor, type CalculatorId } from './specs';
import StackPicker from './StackPicker';
import { chosenStack, isStack, saveStack, STACK_EVENT, storedStack } from './stack-choice';
import TimelineChart, { limitOf } from './TimelineChart';
import '../widget.css';
import './calculator.css';
import GpuSelect from '../GpuSelect';
import WidgetField from '../WidgetField';
import CopyCommand from '../CopyCommand';
import { estimateCommandLine } from '../../planner/index';
import ModelSource from '../model-source/ModelSource';
import ModelParams from '../model-source/ModelParams';
import type { LoadedModel } from '../model-source/loaded-model';
import { fieldErrorsLine } from '../field-errors';
import { modelFromLink, modelLinkParams } from '../model-source/model-link';
import VerdictFrame from './VerdictFrame';

/** Props of the calculator island. */
export interface CalculatorProps {
  /** Which calculator (also its `data-calculator` attribute). */
  readonly id: CalculatorId;
  /** The page's language (given to every island of a translated page by remark-island-locale.ts). */
  readonly locale?: Locale;
}

type Setter = (name: string, value: string | boolean | undefined) => void;

/**
 * A memory calculator: the reader's model, GPU and settings in, the step's peak per GPU out, moment by moment and
 * before and after the lesson's technique, computed by the same engine as `npm run estimate`. Its settings live in
 * the URL query under the CLI's flag names, so a configuration is one shareable link. While a field is invalid the
 * last valid result stays, dimmed, so the page does not jump.
 */
export default function Calculator({ id, locale = DEFAULT_LOCALE }: CalculatorProps) {
  const messages = messagesFor(locale);
  const text = messages.calculator;
  const engine = messages.engine;
  const spec = CALCULATORS[id];
  const [raw, setRaw] = useState<RawFlags>(() => ({ ...spec.defaults }));
  /** The model read from a config.json, in use instead of the preset or custom shape in `raw`. */
  const [loaded, setLoaded] = useState<LoadedModel | null>(null);
  /** Why the link's model could not be read (the preset stays in use). */
  const [linkErrors, setLinkErrors] = useState<readonly ShownFieldError[]>([]);
  const [touched, setTouched] = useState(false);

  // The query is read after hydration: the prerendered HTML shows the defaults. The stack is the URL's, else the
  // reader's stored answer, else this calculator's default.
  useEffect(() => {
    const fallback = isStack(spec.defaults['stack']) ? spec.defaults['stack'] : undefined;
    setRaw({ ...fromQuery(id, location.search), stack: chosenStack(location.search, storedStack(), fallback) });
    const linked = modelFromLink(new URLSearchParams(location.search), messages.modelSourceErrors);
    if (linked.kind === 'model') setLoaded(linked.model);
    if (linked.kind === 'error') setLinkErrors(linked.errors);
  }, [id, messages]);

  // One answer to "How do you train?" changes every calculator on the page.
  useEffect(() => {
    const follow = (event: Event) => {
      const stack = (event as CustomEvent<unknown>).detail;
      if (isStack(stack)) setRaw((current) => (current['stack'] === stack ? current : { ...current, stack }));
    };
    window.addEventListener(STACK_EVENT, follow);
    return () => window.removeEventListener(STACK_EVENT, follow);
  }, []);

  const computed = useMemo(() => compute(id, raw, loaded?.config, engine.scenarios), [id, raw, loaded, engine]);
  const lastValid = useRef<Computed & { ok: true }>();
  if (computed.ok) lastValid.current = computed;
  const shown = computed.ok ? computed : lastValid.current;

  useEffect(() => {
    if (!touched || !computed.ok) return;
    const query = new URLSearchParams(formatEstimateFlags(computed.options));
    for (const [name, value] of loaded === null ? [] : modelLinkParams(loaded)) query.set(name, value);
    history.replaceState(history.state, '', `${location.pathname}?${query.toString()}${location.hash}`);
  }, [computed, loaded, touched]);

  const set: Setter = (name, value) => {
    setTouched(true);
    setRaw((current) => {
      const next = { ...current, [name]: value };
      if (value === undefined || value === '') delete next[name];
      return next;
    });
  };
  const errors = computed.ok ? [] : computed.errors;
  const customShape = loaded === null && isCustomShape(raw);
  const groups = groupedFields(id, raw);
  const shownFields = new Set<string>(['model', 'gpu', ...groups.flatMap((g) => g.flags), ...(customShape ? CUSTOM_FIELDS : [])]);
  const errorFor = (name: string) =>
    errors
      .filter((e) => e.field === name)
      .map(engine.fieldError)
      .join('; ');
  const otherErrors = errors.filter((e) => !shownFields.has(e.field));
  const last = computed.ok ? computed.results[computed.results.length - 1]?.result : undefined;
  const shownLast = shown?.results[shown.results.length - 1]?.result;
  const stackValues = new Map((shownLast?.resolved.stackSettings ?? []).map((s) => [s.flag, s.value]));

  return (
    <LocaleContext.Provider value={locale}>
      <section
        class="widget calc not-content"
        id={calculatorAnchor(id)}
        data-calculator={id}
        aria-label={text.ariaLabel}
        {...(last ? { 'data-total-bytes': last.perGpu.total } : {})}
      >
        {shownLast && (
          <StackPicker
            stack={shownLast.resolved.stack}
            settings={shownLast.resolved.stackSettings}
            notModelled={shownLast.resolved.notModelled}
            onPick={(stack) => {
              set('stack', stack);
              saveStack(stack);
            }}
          />
        )}
        {shown && <Verdict results={shown.results} stale={!computed.ok} />}
        {/* The step's timeline right under the answer it explains: on a phone the form below is over a screen tall. */}
        {shownLast && (
          <div class={`calc-timeline${computed.ok ? '' : ' calc-stale'}`}>
            <TimelineChart result={shownLast} />
          </div>
        )}
        <div class="calc-groups">
          <fieldset class="calc-group">
            <legend>{text.groups.model}</legend>
            <ModelSource
              label={<FlagLabel label={text.model} flag="model" />}
              // Custom… edits a preset's shape; a loaded model is edited in its config.json instead.
              options={[
                ...MODEL_PRESETS.map((p) => ({ id: p.id, label: p.label })),
                ...(loaded === null ? [{ id: 'custom', label: text.custom }] : []),
              ]}
              selected={customShape ? 'custom' : String(raw['model'])}
              loaded={loaded}
              error={[errorFor('model'), fieldErrorsLine(linkErrors, engine.fieldError)].filter(Boolean).join('; ')}
              selectAttributes={{ 'data-flag': 'model' }}
              onSelect={(value) => {
                setTouched(true);
                setLoaded(null);
                setLinkErrors([]);
                setRaw((current) => (value === 'custom' ? startCustomShape(current) : pickPreset(current, value)));
              }}
              onLoad={(model) => {
                setTouched(true);
                setLinkErrors([]);
                setLoaded(model);
              }}
            />
            {customShape &&
              CUSTOM_FIELDS.map((name) => (
                <FlagField name={name} raw={raw} set={set} error={errorFor(name)} stackValue={stackValues.get(name)} />
              ))}
            {shown && <ComputedModel raw={raw} loaded={loaded} results={shown.results} stale={!computed.ok} />}
            {groups
              .filter((g) => g.group === 'model')
              .flatMap((g) => g.flags)
              .map((name) => (
                <FlagField name={name} raw={raw} set={set} error={errorFor(name)} stackValue={stackValues.get(name)} />
              ))}
          </fieldset>
          {groups
            .filter((g) => g.group !== 'model')
            .map(({ group, flags }) => (
              <fieldset class="calc-group">
                <legend>{text.groups[group]}</legend>
                {flags.map((name) => (
                  <FlagField name={name} raw={raw} set={set} error={errorFor(name)} stackValue={stackValues.get(name)} />
                ))}
              </fieldset>
            ))}
          <fieldset class="calc-group">
            <legend>{text.groups.hardware}</legend>
            <WidgetField label={<FlagLabel label={text.gpu} flag="gpu" />} error={errorFor('gpu')}>
              <GpuSelect value={String(raw['gpu'] ?? '')} noGpuLabel={text.noGpu} onPick={(id) => set('gpu', id)} />
            </WidgetField>
          </fieldset>
        </div>

        {otherErrors.length > 0 && (
          <ul class="widget-error" role="alert">
            {otherErrors.map((e: FieldError) => (
              <li>
                <code>{e.field}</code>: {engine.fieldError(e)}
              </li>
            ))}
          </ul>
        )}

        {shown && <Results id={id} results={shown.results} stale={!computed.ok} fromConfig={loaded !== null} />}
      </section>
    </LocaleContext.Provider>
  );
}

/** The answer first: fits or not and by how much, the peak's moment and its biggest part, the sum of parts. */
function Verdict({ results, stale }: { results: readonly ScenarioResult[]; stale: boolean }) {
  const messages = useMessages();
  const text = messages.calculator;
  const gib = messages.format.gib;
  const result = results[results.length - 1]?.result;
  if (!result) return null;
  const peak = result.timeline.find((m) => m.moment === result.peakMoment);
  const categories = Object.entries(peak?.byCategory ?? {}) as [LineCategory, number][];
  const [dominant, dominantBytes] = categories.reduce((best, entry) => (entry[1] > best[1] ? entry : best), ['weights', 0] as [
    LineCategory,
    number,
  ]);
  const share = result.perGpu.total > 0 ? Math.round((dominantBytes / result.perGpu.total) * 100) : 0;
  const fit =
    result.gpu === null
      ? text.pickGpu
      : result.fits
        ? text.fits(result.gpu.name, gib(result.spare ?? 0))
        : result.fitsCard
          ? text.insideMargin(result.gpu.name, gib(result.shortfall ?? 0))
          : text.overBy(result.gpu.name, gib(result.shortfall ?? 0));
  return (
    <VerdictFrame fits={result.fits} stale={stale} staleNote={text.staleNote} answer={fit}>
      <p>
        {text.peakAt(gib(result.perGpu.total), messages.moments[result.peakMoment])} ·{' '}
        {text.dominant(messages.memoryParts[dominant], share)}
      </p>
      <p class="calc-note">
        {text.sumOfParts(gib(result.perGpu.sumOfParts))}{' '}
        {result.perGpu.sumOfParts > result.perGpu.total ? text.sumWhy : text.sumSame}
      </p>
    </VerdictFrame>
  );
}

/**
 * The model the engine computed, next to the model field: its name, parameter count and architecture family, so a
 * custom shape never computes as another family unseen.
 */
function ComputedModel({
  raw,
  loaded,
  results,
  stale,
}: {
  raw: RawFlags;
  loaded: LoadedModel | null;
  results: readonly ScenarioResult[];
  stale: boolean;
}) {
  const messages = useMessages();
  const text = messages.calculator;
  const result = results[results.length - 1]?.result;
  if (!result) return null;
  const summary = modelSummary(raw, result);
  const name = loaded === null ? text.modelName(summary.preset, summary.custom) : messages.modelSource.loadedName(loaded.hubId);
  return <ModelParams name={name} facts={summary} stale={stale} />;
}

/** A field's label with the flag that sets it, as `npm run estimate` spells it. */
function FlagLabel({ label, flag }: { label: string; flag: string }) {
  return (
    <>
      {label} <code class="calc-flag">--{flag}</code>
    </>
  );
}

function FlagField({
  name,
  raw,
  set,
  error,
  stackValue,
}: {
  name: string;
  raw: RawFlags;
  set: Setter;
  error: string;
  /** The value the training stack gives this field when it is left empty, if the stack decides it. */
  stackValue: string | undefined;
}) {
  const messages = useMessages();
  const text = messages.calculator;
  const spec = flagNamed(name);
  const words = messages.engine.flags[name];
  if (!spec || !words) return null;
  const value = raw[name];
  if (spec.kind === 'boolean') {
    return (
      <label class="widget-field calc-check">
        <input
          type="checkbox"
          data-flag={name}
          checked={value === true || value === 'true'}
          onChange={(e) =>
            set(name, (e.currentTarget as HTMLInputElement).checked ? true : isCustomField(name) ? false : undefined)
          }
        />
        <span>
          {words.label} <code class="calc-flag">--{name}</code>
        </span>
      </label>
    );
  }
  const options = spec.kind === 'enum' ? (spec.values ?? []) : name === 'teacher' ? MODEL_PRESETS.map((p) => p.id) : null;
  return (
    <WidgetField
      label={<FlagLabel label={words.unit ? text.withUnit(words.label, words.unit) : words.label} flag={name} />}
      error={error || undefined}
    >
      {options ? (
        <select
          data-flag={name}
          value={String(value ?? '')}
          aria-invalid={error ? 'true' : undefined}
          title={words.help}
          onChange={(e) => set(name, (e.currentTarget as HTMLSelectElement).value || undefined)}
        >
          <option value="">
            {stackValue === undefined ? text.defaultOption(words.default) : text.stackDefaultOption(stackValue)}
          </option>
          {options.map((o) => (
            <option value={o}>{o}</option>
          ))}
        </select>
      ) : (
        <input
          type="text"
          inputMode="decimal"
          data-flag={name}
          title={words.help}
          value={typeof value === 'string' ? value : ''}
          placeholder={text.defaultPlaceholder(words.default)}
          aria-invalid={error ? 'true' : undefined}
          onInput={(e) => set(name, (e.currentTarget as HTMLInputElement).value)}
        />
      )}
    </WidgetField>
  );
}

/** Each scenario at its own peak, by part: the bars of the before/after chart. */
function peakBars(results: readonly ScenarioResult[]): MemoryBar[] {
  return results.map(({ label, result }) => ({
    label,
    byCategory: result.timeline.find((m) => m.moment === result.peakMoment)!.byCategory,
    totalBytes: result.perGpu.total,
  }));
}

function Results({
  id,
  results,
  stale,
  fromConfig,
}: {
  id: CalculatorId;
  results: readonly ScenarioResult[];
  stale: boolean;
  /** Whether the model was read from a config.json: the command then reads it from a file of that name. */
  fromConfig: boolean;
}) {
  const messages = useMessages();
  const text = messages.calculator;
  const engine = messages.engine;
  const gib = messages.format.gib;
  const bars = useMemo(() => peakBars(results), [results]);
  const limit = useMemo(() => {
    const last = results[results.length - 1]?.result;
    return last ? limitOf(last) : null;
  }, [results]);
  const first = results[0]?.result;
  const lastScenario = results[results.length - 1];
  const last = lastScenario?.result;
  if (!first || !last || !lastScenario) return null;
  const saving = first.perGpu.total > 0 ? 1 - last.perGpu.total / first.perGpu.total : 0;
  const flags = formatEstimateFlags(lastScenario.options);
  const changed = changedFromDefaults(flags);
  return (
    <div class={`calc-results${stale ? ' calc-stale' : ''}`}>
      {results.length > 1 && (
        <>
          <div class="calc-scroll" tabIndex={0}>
            <table class="widget-table">
              <thead>
                <tr>
                  <th scope="col">{text.scenario}</th>
                  <th scope="col">{text.peakColumn}</th>
                  <th scope="col">{text.hostColumn}</th>
                  <th scope="col">{text.fitsColumn}</th>
                </tr>
              </thead>
              <tbody>
                {results.map(({ label, result }) => (
                  <tr>
                    <th scope="row">{label}</th>
                    <td>{gib(result.perGpu.total)}</td>
                    <td>{result.perCpu.total > 0 ? gib(result.perCpu.total) : '—'}</td>
                    <td>{result.fits === null ? '—' : result.fits ? text.yes : text.shortBy(gib(result.shortfall ?? 0))}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p>
            {saving > 0
              ? text.saves(Math.round(saving * 100))
              : saving < 0
                ? text.needsMore(Math.round(-saving * 100))
                : text.noChange}
            {last.stepTime
              ? text.stepTime(
                  formatStepTime(last.stepTime.totalSeconds, last.stepTime.band),
                  engine.stepTimeAssumptions(last.stepTime.assumptions),
                )
              : ''}
            {text.sentenceEnd}
          </p>
          <MemoryBarChart
            bars={bars}
            limit={limit}
            axisLabel={text.compareAxis}
            description={`${text.compareTitle}: ${results.map((r) => `${r.label} ${gib(r.result.perGpu.total)}`).join(', ')}`}
            layout="scenarios"
          />
        </>
      )}
      {last.headroom && <p class="calc-note">{text.headroom(last.headroom.percent, gib(last.headroom.bytes))}</p>}
      {last.notices.length > 0 && (
        <ul class="calc-warnings">
          {last.notices.map((notice) => (
            <li>{wordNotice(notice, engine.warnings)}</li>
          ))}
        </ul>
      )}
      {id === 'rent-cost' && <RentCost result={last} />}
      {id === 'parallelism' && <ScalingChart options={lastScenario.options} capacityBytes={last.gpu?.memoryBytes ?? null} />}
      <details>
        <summary>{text.sources}</summary>
        <div class="calc-scroll" tabIndex={0}>
          <table class="widget-table calc-lines">
            <tbody>
              {last.lines.map((line) => (
                <tr>
                  <td>{engine.lineLabel(line)}</td>
                  <td>
                    {engine.device[line.device]}
                    {gib(line.bytes)}
                  </td>
                  {/* A line's source cites a paper's section or a tool's source file as published, so it stays English. */}
                  <td lang="en">{line.source}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {changed.length > 0 && (
          <p>
            {text.changedDefaults}{' '}
            {changed.map((c) => (
              <span class="calc-changed">
                <code>
                  --{c.flag} {c.value}
                </code>{' '}
                {text.changedFrom(engine.flags[c.flag]?.default ?? c.default)}{' '}
              </span>
            ))}
          </p>
        )}
        <CopyCommand
          command={estimateCommandLine(fromConfig ? { config: 'config.json', ...flags } : flags)}
          intro={fromConfig ? text.terminalWithConfig : text.terminal}
          copy={text.copyCommand}
          copied={text.copiedCommand}
        />
      </details>
    </div>
  );
}
