import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import {
  estimateMemory,
  formatEstimateFlags,
  formatStepTime,
  GPU_PRESETS,
  MODEL_PRESETS,
  type ShownFieldError,
} from '../../memory/index';
import {
  BAND_RATIO,
  changesNumerics,
  estimateCommandLine,
  planCommandLine,
  EXAMPLE_PRICES,
  planSections,
  parsePlanFlags,
  planFlags,
  planOptions,
  planKey,
  plannerFlagNamed,
  runBudgetText,
  type Plan,
  type PlanGroup,
  type PlanResult,
  type RawFlagValues,
  type RejectionGroup,
} from '../../planner/index';
import { costText, hardwareText, techniquesText } from './plan-text';
import { formatGiB } from '../../base/bytes';
import PlanDetails from './PlanDetails';
import { createPlannerClient, type PlannerAnswer, type PlannerClient } from './planner-client';
import { draftError, draftsFromLink, priceFlags, type PriceDraft } from './price-drafts';
import PriceTable from './PriceTable';
import { flagsFromQuery, PLAN_PARAM, queryFromFlags } from './query';
import CopyCommand from '../CopyCommand';
import '../widget.css';
import WidgetField from '../WidgetField';
import ModelSource from '../model-source/ModelSource';
import ModelParams from '../model-source/ModelParams';
import type { LoadedModel } from '../model-source/loaded-model';
import { fieldErrorsLine } from '../field-errors';
import { modelFacts } from '../model-source/model-facts';
import { modelFromLink, modelLinkParams } from '../model-source/model-link';
import { DEFAULT_LOCALE, localizedHref, type Locale } from '../../i18n/locales';
import { messagesFor, type Messages } from '../../i18n/messages/index';
import { LocaleContext, useMessages } from '../../i18n/use-messages';
import type { PlannerQuery } from './planner-requests';
import '../calculators/calculator.css';
import './planner.css';

/** Props of the planner island. */
export interface PlannerProps {
  /** Starting settings as a query string in the `plan` flag vocabulary, e.g. `model=gpt2-xl&gpu=rtx-4090&global-batch=4`. */
  readonly defaults?: string;
  /** Whether the settings live in (and are read from) this page's URL query; default true. Off for an embed in a lesson. */
  readonly syncUrl?: boolean;
  /** Path of the planner page that plan links open, in English; default `/tools/planner/` (in the page's language). */
  readonly planPage?: string;
  /** The page's language (given to every island of a translated page by remark-island-locale.ts). */
  readonly locale?: Locale;
}

const DEFAULTS = 'model=gpt2-xl&gpu=rtx-4090&gpus=1&global-batch=4&seq=512&task=finetune';
/**
 * The fields, in page order, each a flag of `npm run plan`: the model and GPU pick a preset, an enumeration is a select
 * of its values, any other a text box; label, unit, values and default come from the flag's definition. The prices and
 * renting have widgets of their own below.
 */
const FIELDS: readonly string[] = [
  'model',
  'gpu',
  'gpus',
  'global-batch',
  'seq',
  'task',
  'max-host-gb',
  'headroom',
  'rank-by',
  'price-tier',
  'epoch-tokens',
  'train-tokens',
];
/** The words for an enumeration flag's values, in the page's language. */
function choiceWords(strings: PlannerWords): Readonly<Record<string, Readonly<Record<string, string>>>> {
  return { task: strings.tasks, 'rank-by': strings.rankings, 'price-tier': strings.tiers };
}
/** The planner's words in the page's language. */
type PlannerWords = Messages['planner'];
const PAGE_SIZE = 10;

/** The two lists of plans: the reader's own GPUs', then, with renting compared, the rented GPUs' (planSections). */
type SectionId = 'own' | 'rented';
/** Groups each list shows before "show more". */
const FIRST_PAGES: Readonly<Record<SectionId, number>> = { own: PAGE_SIZE, rented: PAGE_SIZE };
/**
 * Columns of the plans' table: rank, details, GPUs, per GPU, step, cost, link (the techniques span all but the rank),
 * and the whole run with a token budget (planColumns).
 */
const PLAN_COLUMNS = 7;

/** Columns of the plans' table for an answer: one more for the whole run when the request has a token budget. */
function planColumns(result: PlanResult): number {
  return PLAN_COLUMNS + (result.request.trainTokens === null ? 0 : 1);
}
/**
 * Typing pauses this long before a search starts, so one search runs per edit, not per key. The first search (the page
 * opening, or a shared link) answers no typing and starts at once.
 */
const DEBOUNCE_MS = 150;

type Flags = Record<string, string | string[]>;
type Answer =
  | { state: 'searching' }
  | { state: 'done'; result: PlanResult; ms: number; waitedMs: number; workers: number }
  | { state: 'error'; message: string };

/**
 * The OOM planner: the reader's model, GPUs and batch in; every combination of techniques that
 * fits, ranked, out. The search runs in a worker; the settings live in the URL query under the
 * flag names of `npm run plan`, and every plan is a link.
 */
export default function Planner({
  defaults = DEFAULTS,
  syncUrl = true,
  planPage = '/tools/planner/',
  locale = DEFAULT_LOCALE,
}: PlannerProps) {
  const messages = messagesFor(locale);
  const strings = messages.planner;
  const [flags, setFlags] = useState<Flags>(() => withoutPrices(flagsFromQuery(defaults)));
  /** The model read from a config.json, planned instead of the preset in `flags`. */
  const [loaded, setLoaded] = useState<LoadedModel | null>(null);
  /** Why the link's model could not be read (the preset stays in use). */
  const [linkErrors, setLinkErrors] = useState<readonly ShownFieldError[]>([]);
  const [drafts, setDrafts] = useState<Record<string, PriceDraft>>(() => linkDrafts(flagsFromQuery(defaults), strings).drafts);
  /** The link's price values that have no row to go to, with why. */
  const [unreadPrices, setUnreadPrices] = useState<readonly string[]>([]);
  /** Whether the settings are final for the first search: the URL query is read (at once without one). */
  const [queryRead, setQueryRead] = useState(!syncUrl);
  const [selected, setSelected] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const [answer, setAnswer] = useState<Answer>({ state: 'searching' });
  const [shown, setShown] = useState<Readonly<Record<SectionId, number>>>(FIRST_PAGES);
  const [open, setOpen] = useState<string | null>(null);
  const client = useRef<PlannerClient | null>(null);

  // The query is read after hydration: the prerendered HTML shows the defaults. Its prices fill the price rows.
  useEffect(() => {
    if (!syncUrl) return;
    const fromUrl = flagsFromQuery(location.search);
    if (Object.keys(fromUrl).length > 0) {
      const link = linkDrafts(fromUrl, strings);
      setFlags(withRequired(withoutPrices(fromUrl), flagsFromQuery(defaults)));
      setDrafts(link.drafts);
      setUnreadPrices(link.unread);
    }
    const linked = modelFromLink(new URLSearchParams(location.search), messages.modelSourceErrors);
    if (linked.kind === 'model') setLoaded(linked.model);
    if (linked.kind === 'error') setLinkErrors(linked.errors);
    setSelected(new URLSearchParams(location.search).get(PLAN_PARAM));
    setQueryRead(true);
  }, [syncUrl, defaults]);

  useEffect(() => {
    client.current = createPlannerClient((a: PlannerAnswer, waitedMs: number) =>
      setAnswer(
        a.ok
          ? { state: 'done', result: a.result, ms: a.ms, waitedMs, workers: a.workers }
          : { state: 'error', message: a.message },
      ),
    );
    return () => client.current?.close();
  }, []);

  // The reader's GPU gets a price row of its own (empty: owned GPUs cost nothing to compare).
  const ownGpu = typeof flags['gpu'] === 'string' ? flags['gpu'] : '';
  useEffect(() => {
    if (ownGpu !== '' && drafts[ownGpu] === undefined)
      setDrafts((current) => ({ ...current, [ownGpu]: { 'on-demand': '', reserved: '', spot: '' } }));
  }, [ownGpu, drafts]);

  // A model read from a config.json replaces the preset: the engine refuses both at once.
  const raw: RawFlagValues = useMemo(() => {
    const prices = priceFlags(drafts);
    const { model: _preset, ...withoutPreset } = flags;
    const own = loaded === null ? flags : withoutPreset;
    return prices.length > 0 ? { ...own, price: prices } : own;
  }, [flags, drafts, loaded]);
  const query: PlannerQuery = useMemo(
    () => (loaded === null ? { flags: raw, locale } : { flags: raw, modelConfig: loaded.config, locale }),
    [raw, loaded, locale],
  );
  const parsed = useMemo(
    () => parsePlanFlags(query.flags, EXAMPLE_PRICES, query.modelConfig, strings.search.request),
    [query, strings],
  );
  // The model alone, as the engine counts it, for the line next to the model field.
  const probe = useMemo(() => (parsed.ok ? estimateMemory(parsed.request.base) : null), [parsed]);
  /** A page query of these settings: the planner's flags, then the loaded model's parameters. */
  const pageQuery = (values: RawFlagValues) => {
    const params = new URLSearchParams(queryFromFlags(values));
    for (const [name, value] of loaded === null ? [] : modelLinkParams(loaded)) params.set(name, value);
    return params.toString();
  };
  const priceErrors = Object.entries(drafts).some(([gpu, d]) => draftError(gpu, d, strings) !== null);

  const searched = useRef(false);
  useEffect(() => {
    if (!queryRead || !parsed.ok || priceErrors) return;
    setAnswer({ state: 'searching' });
    if (!searched.current) {
      searched.current = true;
      client.current?.search(query);
      return;
    }
    const timer = setTimeout(() => client.current?.search(query), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [queryRead, parsed, query, priceErrors]);

  useEffect(() => {
    if (!syncUrl || !touched || !parsed.ok) return;
    history.replaceState(history.state, '', `${location.pathname}?${pageQuery(raw)}${location.hash}`);
  }, [raw, loaded, parsed, touched, syncUrl]);

  const set = (name: string, value: string | undefined) => {
    setTouched(true);
    setShown(FIRST_PAGES);
    setFlags((current) => {
      const next = { ...current };
      if (value === undefined || value === '') delete next[name];
      else next[name] = value;
      return next;
    });
  };
  const errors: readonly ShownFieldError[] = parsed.ok ? [] : parsed.errors;
  const errorFor = (name: string) =>
    errors
      .filter((e) => e.field === name)
      .map(messages.engine.fieldError)
      .join('; ');
  // The price rows show their own errors; the other flags' errors (a link's shape flags, say) are listed below.
  const otherErrors = errors.filter((e) => !FIELDS.includes(e.field) && e.field !== 'price');
  const value = (name: string) => (typeof flags[name] === 'string' ? (flags[name] as string) : '');
  const linkFor = (plan: Plan) => `${localizedHref(locale, planPage)}?${pageQuery({ ...raw, [PLAN_PARAM]: keyOf(plan) })}`;
  const ready = parsed.ok && !priceErrors && answer.state === 'done';

  const text = (name: string, label: string, placeholder = '') => (
    <WidgetField label={label} error={errorFor(name)}>
      <input
        type="text"
        inputMode="decimal"
        value={value(name)}
        placeholder={placeholder}
        aria-invalid={errorFor(name) ? 'true' : undefined}
        onInput={(e) => set(name, (e.currentTarget as HTMLInputElement).value)}
      />
    </WidgetField>
  );
  /**
   * A select of `options`; with `byDefault`, a first option that leaves the flag out and names what that means. A value
   * from a link that is none of the options shows as it is (its error beside it), not as another option.
   */
  const select = (name: string, label: string, options: readonly (readonly [string, string])[], byDefault?: string) => {
    const current = value(name);
    const unknown = current !== '' && !options.some(([v]) => v === current);
    return (
      <WidgetField label={label} error={errorFor(name)}>
        <select
          value={current}
          aria-invalid={errorFor(name) ? 'true' : undefined}
          onChange={(e) => set(name, (e.currentTarget as HTMLSelectElement).value || undefined)}
        >
          {unknown && <option value={current}>{strings.notAChoice(current)}</option>}
          {byDefault !== undefined && <option value="">{strings.byDefault(byDefault)}</option>}
          {options.map(([v, l]) => (
            <option value={v}>{l}</option>
          ))}
        </select>
      </WidgetField>
    );
  };

  return (
    <LocaleContext.Provider value={locale}>
      <section
        class="widget planner not-content"
        data-planner
        aria-label={strings.ariaLabel}
        data-state={!parsed.ok || priceErrors ? 'invalid' : answer.state}
        {...(ready && answer.state === 'done' ? { 'data-plan-count': answer.result.plans.length } : {})}
      >
        <div class="calc-fields">
          {FIELDS.map((name) => {
            if (name === 'model') {
              const preset = value('model');
              const known = preset === '' || MODEL_PRESETS.some((p) => p.id === preset);
              return (
                <>
                  <ModelSource
                    label={strings.fields.model}
                    options={[
                      ...(known ? [] : [{ id: preset, label: strings.notAChoice(preset) }]),
                      ...MODEL_PRESETS.map((p) => ({ id: p.id, label: p.label })),
                    ]}
                    selected={preset}
                    loaded={loaded}
                    error={[errorFor('model'), fieldErrorsLine(linkErrors, messages.engine.fieldError)]
                      .filter(Boolean)
                      .join('; ')}
                    onSelect={(id) => {
                      setLoaded(null);
                      setLinkErrors([]);
                      set('model', id);
                    }}
                    onLoad={(model) => {
                      setTouched(true);
                      setShown(FIRST_PAGES);
                      setLinkErrors([]);
                      setLoaded(model);
                    }}
                  />
                  {probe?.ok === true && (
                    <ModelParams
                      name={
                        loaded === null
                          ? (MODEL_PRESETS.find((p) => p.id === preset)?.label ?? preset)
                          : messages.modelSource.loadedName(loaded.hubId)
                      }
                      facts={modelFacts(probe.result)}
                    />
                  )}
                </>
              );
            }
            if (name === 'gpu')
              return select(
                name,
                strings.fields.gpu,
                GPU_PRESETS.map((g) => [g.id, `${g.name} (${g.marketedMemory})`] as const),
              );
            const spec = plannerFlagNamed(name);
            if (spec === undefined) throw new Error(`the planner takes no flag --${name}`);
            const label = strings.fieldLabel(spec);
            if (spec.kind !== 'enum')
              return text(name, label, spec.default ?? (REQUIRED.some((r) => r === name) ? '' : strings.optional));
            const words = (v: string) => choiceWords(strings)[name]?.[v] ?? v;
            return select(
              name,
              label,
              (spec.values ?? []).map((v) => [v, words(v)] as const),
              spec.default === undefined ? undefined : words(spec.default),
            );
          })}
          <label class="widget-field calc-check">
            <input
              type="checkbox"
              checked={flags['rent'] === 'true'}
              onChange={(e) => set('rent', (e.currentTarget as HTMLInputElement).checked ? 'true' : undefined)}
            />
            <span>{strings.fields.rent}</span>
          </label>
          {flags['task'] !== 'finetune' && (
            <label class="widget-field calc-check">
              <input
                type="checkbox"
                checked={flags['allow-lossy'] !== undefined}
                onChange={(e) => set('allow-lossy', (e.currentTarget as HTMLInputElement).checked ? 'true' : undefined)}
              />
              <span>{strings.fields.allowLossy}</span>
            </label>
          )}
        </div>
        <PriceTable
          drafts={drafts}
          onChange={(gpu, draft) => {
            setTouched(true);
            setDrafts((current) => ({ ...current, [gpu]: draft }));
          }}
        />
        {unreadPrices.length > 0 && (
          <p class="widget-error" role="alert" data-unread-prices>
            {strings.prices.unread}
            {unreadPrices.join('; ')}
          </p>
        )}
        {errorFor('price') && (
          <p class="widget-error" role="alert">
            {errorFor('price')}
          </p>
        )}
        {otherErrors.length > 0 && (
          <ul class="widget-error" role="alert">
            {otherErrors.map((e) => (
              <li>
                <code>{e.field}</code>: {messages.engine.fieldError(e)}
              </li>
            ))}
          </ul>
        )}
        {parsed.ok && !priceErrors && (
          <CopyCommand
            command={planCommandLine(
              new URLSearchParams(queryFromFlags(loaded === null ? raw : { config: 'config.json', ...raw })),
            )}
            intro={loaded === null ? strings.terminal : strings.terminalWithConfig}
            copy={strings.copyCommand}
            copied={strings.copiedCommand}
          />
        )}
        {parsed.ok && !priceErrors && answer.state === 'searching' && <p aria-live="polite">{strings.searching}</p>}
        {parsed.ok && answer.state === 'error' && (
          <p class="widget-error" role="alert">
            {strings.searchFailed}
            {answer.message || strings.workerCrashed}
          </p>
        )}
        {ready && answer.state === 'done' && (
          <Results
            result={answer.result}
            ms={answer.ms}
            waitedMs={answer.waitedMs}
            workers={answer.workers}
            shown={shown}
            onMore={(section) => setShown({ ...shown, [section]: shown[section] + PAGE_SIZE })}
            open={open}
            onToggle={(key) => setOpen(open === key ? null : key)}
            selected={selected}
            linkFor={linkFor}
          />
        )}
      </section>
    </LocaleContext.Provider>
  );
}

interface ResultsProps {
  result: PlanResult;
  /** The search's time in the workers (its longest share's). */
  ms: number;
  /** From the request to the answer on the page (the search, the answer's copy to the page, the merge and ranking). */
  waitedMs: number;
  /** Workers the search ran in. */
  workers: number;
  /** Groups each list shows. */
  shown: Readonly<Record<SectionId, number>>;
  onMore: (section: SectionId) => void;
  open: string | null;
  onToggle: (key: string) => void;
  selected: string | null;
  linkFor: (plan: Plan) => string;
}

function Results(props: ResultsProps) {
  const { result, ms, waitedMs, workers, shown, onMore, open, onToggle, selected, linkFor } = props;
  const strings = useMessages().planner;
  const own = result.searches[0];
  const ownCount = own?.fitting ?? 0;
  // The reader's GPUs' plans first; the rented GPUs' are a section of their own below (planSections).
  const sections = useMemo(() => planSections(result.request, result.plans), [result]);
  const combinations = result.searches.reduce((sum, s) => sum + s.combinations, 0);
  const estimates = result.searches.reduce((sum, s) => sum + s.evaluations, 0);
  const finetune = result.request.task === 'finetune';
  // Keys are derived when read: for the shown plans, and for all only to find a shared link's plan.
  const sharedPlan = useMemo(
    () => (selected === null ? undefined : result.plans.find((p) => keyOf(p) === selected)),
    [result, selected],
  );
  // A shared link opens with its plan in view: the page scrolls to it once, when the plan first arrives.
  const sharedBox = useRef<HTMLDivElement>(null);
  const scrolledTo = useRef<string | null>(null);
  useEffect(() => {
    if (sharedPlan === undefined || selected === null || scrolledTo.current === selected) return;
    scrolledTo.current = selected;
    sharedBox.current?.scrollIntoView({ block: 'start' });
  }, [sharedPlan, selected]);
  const failed = own?.rejected.filter((g) => g.kind !== 'ruled-out') ?? [];
  const ruledOut = own?.rejected.filter((g) => g.kind === 'ruled-out') ?? [];
  const sectionProps = { result, open, onToggle, linkFor, finetune, selected };
  return (
    <div class="calc-results" aria-live="polite">
      <p data-search-ms={ms.toFixed(1)} data-answer-ms={waitedMs.toFixed(1)} data-workers={workers}>
        {strings.summary(ownCount, result.plans.length - ownCount, combinations, estimates, ms)}
      </p>
      <p class="calc-note">{strings.estimateNote}</p>
      {result.plans.length > 0 && (
        <p class="calc-note" data-group-count={sections.own.length + sections.rented.length}>
          {strings.groupsNote(BAND_RATIO.toFixed(2))}
        </p>
      )}
      {selected !== null && (
        <div
          ref={sharedBox}
          class="planner-shared"
          data-selected-plan={selected}
          {...(sharedPlan ? { 'data-total-bytes': sharedPlan.perGpu.total } : {})}
        >
          <h3>{strings.shared.heading}</h3>
          {sharedPlan ? (
            <>
              <p>
                #{sharedPlan.rank} · {hardwareText(sharedPlan, strings)} · {techniquesText(sharedPlan)} ·{' '}
                {formatGiB(sharedPlan.perGpu.total)} · {formatStepTime(sharedPlan.stepTimeSeconds)}
              </p>
              <PlanDetails plan={sharedPlan} finetune={finetune} priceTier={result.request.priceTier} />
            </>
          ) : (
            <p>{strings.shared.missing}</p>
          )}
        </div>
      )}
      {result.shortfall !== null && (
        <div class="planner-shortfall" data-shortfall-bytes={result.shortfall.bytes}>
          <p>
            <strong>{strings.nothingFits}</strong>{' '}
            {strings.shortfall(
              formatGiB(result.shortfall.bytes),
              { gpu: strings.gpuMemory, host: strings.hostMemory, 'gpu+host': strings.gpuAndHostMemory }[
                result.shortfall.resource
              ],
            )}
          </p>
          <p>
            <code>{estimateCommandLine(formatEstimateFlags(result.shortfall.options))}</code>
          </p>
          <p>
            {result.wouldFit.length > 0
              ? `${strings.wouldFit} ${result.wouldFit.map((h) => `${h.gpus} × ${h.name}`).join(strings.listSeparator)}`
              : strings.wouldFitNone}
          </p>
        </div>
      )}
      {sections.own.length > 0 && (
        <PlanSection
          {...sectionProps}
          id="own"
          heading={strings.sections.own(hardwareText(sections.own[0]?.plans[0] as Plan, strings))}
          groups={sections.own}
          shown={shown.own}
          onMore={() => onMore('own')}
        />
      )}
      {sections.rented.length > 0 && (
        <PlanSection
          {...sectionProps}
          id="rented"
          heading={strings.sections.rented}
          groups={sections.rented}
          shown={shown.rented}
          onMore={() => onMore('rented')}
        />
      )}
      <Groups heading={strings.rejected} groups={failed} open />
      <Groups heading={strings.notTried} groups={ruledOut} open={false} />
    </div>
  );
}

interface PlanSectionProps {
  id: SectionId;
  heading: string;
  /** The section's groups, best first. */
  groups: readonly PlanGroup[];
  result: PlanResult;
  /** Groups listed. */
  shown: number;
  onMore: () => void;
  open: string | null;
  onToggle: (key: string) => void;
  linkFor: (plan: Plan) => string;
  finetune: boolean;
  /** The key of the plan a shared link names, or null. */
  selected: string | null;
}

/** One list of plans (the reader's GPUs', or the rented GPUs'): a heading and its groups, one row each. */
function PlanSection({
  id,
  heading,
  groups,
  result,
  shown,
  onMore,
  open,
  onToggle,
  linkFor,
  finetune,
  selected,
}: PlanSectionProps) {
  const strings = useMessages().planner;
  // The group holding a shared link's plan, and whether the plan is one of its members rather than its leader. Keys
  // are derived only for a link (keyOf formats a plan's flags).
  const linked = useMemo(() => {
    if (selected === null) return undefined;
    const group = groups.find((g) => g.plans.some((p) => keyOf(p) === selected));
    return group === undefined ? undefined : { group, member: keyOf(group.plans[0] as Plan) !== selected };
  }, [groups, selected]);
  // Which groups list all their members; a new answer closes them, except the one whose member a shared link names.
  const [openGroups, setOpenGroups] = useState<ReadonlySet<number>>(new Set());
  useEffect(() => setOpenGroups(new Set(linked?.member === true ? [linked.group.index] : [])), [groups, linked]);
  const onToggleGroup = (index: number) => {
    const next = new Set(openGroups);
    if (!next.delete(index)) next.add(index);
    setOpenGroups(next);
  };
  // The linked plan's group is listed even past the first page.
  const listed = groups.filter((group, i) => i < shown || group === linked?.group);
  const techniquesHeading = useId();
  const headingId = useId();
  const columns = planColumns(result);
  return (
    <section class="planner-section" data-plan-section={id} aria-labelledby={headingId}>
      <h3 id={headingId}>{heading}</h3>
      <div class="widget-scroll scroll-shadows planner-plans-box" tabIndex={0} role="region" aria-label={heading}>
        <table class="widget-table planner-plans">
          <thead>
            {/* Each plan takes two lines: its figures, then its techniques across the table under them. In one line the
                techniques pushed the figures out of a laptop's view (the content column is about 30 rem wide). */}
            <tr>
              <th scope="col" rowSpan={2}>
                {strings.table.rank}
              </th>
              <th scope="col">{strings.table.details}</th>
              {/* Step and cost, what plans are ranked by, first: on a phone the columns after them scroll out of view. */}
              <th scope="col">{strings.table.step}</th>
              <th scope="col">{strings.table.cost}</th>
              {result.request.trainTokens !== null && <th scope="col">{strings.table.run}</th>}
              <th scope="col">{strings.table.perGpu}</th>
              <th scope="col">{strings.table.hardware}</th>
              <th scope="col">{strings.table.link}</th>
            </tr>
            <tr>
              <th scope="col" colSpan={columns - 1} id={techniquesHeading}>
                {strings.table.techniques}
              </th>
            </tr>
          </thead>
          <tbody>
            {listed.flatMap((group) => {
              const leader = group.plans[0] as Plan;
              const members = group.plans.slice(1);
              const groupOpen = openGroups.has(group.index);
              const rowProps = { result, open, onToggle, linkFor, finetune, techniquesHeading, selected, strings };
              return [
                ...planRows({ ...rowProps, plan: leader, group }),
                ...(members.length === 0
                  ? []
                  : [
                      <tr class="planner-group-row" data-group-members={group.index}>
                        <td colSpan={columns} class="planner-group-cell">
                          <div class="planner-in-view">
                            <button
                              type="button"
                              aria-expanded={groupOpen ? 'true' : 'false'}
                              onClick={() => onToggleGroup(group.index)}
                            >
                              {strings.groupMembers(members.length, groupOpen)}
                            </button>{' '}
                            {strings.groupDifferences(
                              group.differences.map(
                                (d) => `${strings.dimensionNames[d.dimension] ?? d.dimension}: ${d.values.join(', ')}`,
                              ),
                            )}
                          </div>
                        </td>
                      </tr>,
                    ]),
                ...(groupOpen ? members.flatMap((plan) => planRows({ ...rowProps, plan, group: null })) : []),
              ];
            })}
          </tbody>
        </table>
      </div>
      {groups.length > shown && (
        <button type="button" class="planner-more" onClick={onMore}>
          {strings.showMore(Math.min(PAGE_SIZE, groups.length - shown))}
        </button>
      )}
    </section>
  );
}

interface PlanRowsProps {
  plan: Plan;
  /** The group the plan leads, or null for a member listed under its group's row. */
  group: PlanGroup | null;
  result: PlanResult;
  open: string | null;
  onToggle: (key: string) => void;
  linkFor: (plan: Plan) => string;
  finetune: boolean;
  techniquesHeading: string;
  /** The key of the plan a shared link names, or null: its row is marked as the current one. */
  selected: string | null;
  strings: PlannerWords;
}

/** One plan's rows: its figures, its techniques across the table, and its details when opened. */
function planRows(props: PlanRowsProps) {
  const { plan, group, result, open, onToggle, linkFor, finetune, techniquesHeading, selected, strings } = props;
  const key = keyOf(plan);
  return [
    <tr
      id={`plan-${plan.rank}`}
      class={group === null ? 'planner-member' : undefined}
      data-plan-key={key}
      data-rank={plan.rank}
      data-total-bytes={plan.perGpu.total}
      data-step-seconds={plan.stepTimeSeconds}
      data-rented={plan.hardware.rented ? 'true' : 'false'}
      {...(key === selected ? { 'aria-current': 'true' as const, 'data-linked': 'true' } : {})}
      {...(group === null ? {} : { 'data-group': group.index, 'data-group-size': group.plans.length })}
    >
      <td rowSpan={2}>{plan.rank}</td>
      <td>
        {/* Beside the rank, not at the row's end: on a phone the table scrolls sideways. */}
        <button type="button" aria-expanded={open === key ? 'true' : 'false'} onClick={() => onToggle(key)}>
          {open === key ? strings.hide : strings.show}
        </button>
      </td>
      <td class="planner-step">{formatStepTime(plan.stepTimeSeconds)}</td>
      <td class="planner-cost">{costText(plan, result, strings)}</td>
      {plan.run !== null && (
        <td class="planner-run" data-run-seconds={plan.run.seconds.value}>
          {runBudgetText(plan.run, result.request.priceTier)}
        </td>
      )}
      <td>{formatGiB(plan.perGpu.total)}</td>
      <td class="planner-wrap">{hardwareText(plan, strings)}</td>
      <td class="planner-actions">
        <a href={linkFor(plan)} data-plan-link>
          {strings.share}
        </a>
      </td>
    </tr>,
    <tr class="planner-techniques-row">
      <td colSpan={planColumns(result) - 1} class="planner-techniques" headers={techniquesHeading}>
        <div class="planner-in-view">
          {techniquesText(plan)}
          {changesNumerics(planOptions(plan)) && (
            <strong data-changes-numerics>
              {' · ⚠ '}
              {strings.changesNumerics}
            </strong>
          )}
        </div>
      </td>
    </tr>,
    ...(open === key
      ? [
          <tr>
            <td colSpan={planColumns(result)} class="planner-details-cell">
              <PlanDetails plan={plan} finetune={finetune} priceTier={result.request.priceTier} />
            </td>
          </tr>,
        ]
      : []),
  ];
}

function Groups({ heading, groups, open }: { heading: string; groups: readonly RejectionGroup[]; open: boolean }) {
  const strings = useMessages().planner;
  if (groups.length === 0) return null;
  return (
    <details open={open} class="planner-groups">
      <summary>{heading}</summary>
      <ul>
        {groups.map((g) => (
          <li data-rejection={g.kind}>
            {strings.count(g.count)} × {g.reason}
            {g.smallestGap !== null ? ` (${strings.closest(formatGiB(g.smallestGap))})` : ''}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** A plan's key: its own flags as a URL query, the value of a shared link's `plan` parameter. */
function keyOf(plan: Plan): string {
  return planKey(planFlags(plan));
}

/**
 * A link's settings, with the page's own for the flags a search cannot go without (model, GPU, global batch) where the
 * link leaves them out: a link the page wrote has them all, and one written by hand (`?model=llama-2-7b`) then opens on
 * a search. The others stay as the link has them: a flag left out means its default, as in `npm run plan`.
 */
function withRequired(link: Flags, page: Flags): Flags {
  const merged = { ...link };
  for (const name of REQUIRED) {
    // A link with a model shape of its own (--arch and its sizes) needs no preset.
    if (name === 'model' && link['arch'] !== undefined) continue;
    if (merged[name] === undefined && page[name] !== undefined) merged[name] = page[name];
  }
  return merged;
}
const REQUIRED = ['model', 'gpu', 'global-batch'] as const;

/** Settings without their `price` values, which live in the price rows. */
function withoutPrices(flags: Flags): Flags {
  const { price: _prices, ...rest } = flags;
  return rest;
}

/** The price rows of a link's settings (its GPU's row, and its prices over the examples). */
function linkDrafts(flags: Flags, words: Pick<PlannerWords, 'prices' | 'search'>) {
  const prices = flags['price'];
  return draftsFromLink(
    typeof flags['gpu'] === 'string' ? flags['gpu'] : '',
    typeof prices === 'string' ? [prices] : (prices ?? []),
    words,
  );
}
