import { useEffect, useState } from 'preact/hooks';
import { lessonHref } from '../../base/lessons';
import { DEFAULT_LOCALE, localizedHref, type Locale } from '../../i18n/locales';
import { messagesFor } from '../../i18n/messages/index';
import { LocaleContext } from '../../i18n/use-messages';
import { DEFAULT_STACK, GPU_PRESETS, MODEL_PRESETS, type Stack } from '../../memory';
import { estimateCommandLine } from '../../planner';
import StackPicker from '../calculators/StackPicker';
import { SITE_DEFAULTS } from '../calculators/site-defaults';
import { chosenStack, isStack, saveStack, STACK_EVENT, storedStack } from '../calculators/stack-choice';
import {
  calculatorHref,
  fitFlags,
  GPU_COUNTS,
  JOBS,
  remediesFor,
  willItFit,
  type FitRequest,
  type Job,
  type Remedy,
} from './will-it-fit';
import ModelSource from '../model-source/ModelSource';
import ModelParams from '../model-source/ModelParams';
import type { LoadedModel } from '../model-source/loaded-model';
import { modelFacts } from '../model-source/model-facts';
import '../widget.css';
import '../calculators/calculator.css';
import './landing.css';

/** A remedy's link, titled "Parallelism (ZeRO-2)" where a technique is named, in the page's language. */
function remedyLink(remedy: Remedy, locale: Locale): { readonly href: string; readonly title: string } {
  const text = messagesFor(locale).willItFit;
  const title = messagesFor(locale).lessonTitles[remedy.lesson];
  return {
    href: localizedHref(locale, lessonHref(remedy.lesson)),
    title: text.remedy(title, remedy.technique === undefined ? undefined : text.techniques[remedy.technique]),
  };
}

/** The real models a reader may pick (the lab's demo models are left out). */
const MODELS = MODEL_PRESETS.filter((m) => !m.id.startsWith('demo-'));

/** Props of the landing page's first look. */
export interface WillItFitProps {
  /** Model preset id to start with; the site's default model otherwise. */
  readonly model?: string;
  /** GPU preset id to start with; the site's default GPU otherwise. */
  readonly gpu?: string;
  /** The page's language (given to every island of a translated page by remark-island-locale.ts). */
  readonly locale?: Locale;
}

/**
 * The landing page's first look: pick a model, a GPU, how many, the job and how you train, and see at once whether it
 * fits one GPU, by how much, which part dominates and the lessons that shrink it on that many GPUs, with a link to the
 * full calculator in the same state. Every number is `estimateMemory` on the site's defaults (site-defaults.ts), the
 * same ones lesson 1's calculator starts from.
 */
export default function WillItFit({
  model: startModel = SITE_DEFAULTS.model,
  gpu: startGpu = SITE_DEFAULTS.gpu,
  locale = DEFAULT_LOCALE,
}: WillItFitProps) {
  const messages = messagesFor(locale);
  const text = messages.willItFit;
  const gib = messages.format.gib;
  const [model, setModel] = useState(startModel);
  /** The model read from a config.json, in use instead of the preset `model`. */
  const [loaded, setLoaded] = useState<LoadedModel | null>(null);
  const [gpu, setGpu] = useState(startGpu);
  const [gpus, setGpus] = useState(1);
  const [job, setJob] = useState<Job>('full');
  const [stack, setStack] = useState<Stack>(DEFAULT_STACK);
  // After hydration: the URL's stack, else the reader's stored answer; and follow an answer given elsewhere on the page.
  useEffect(() => {
    setStack(chosenStack(location.search, storedStack()));
    const follow = (event: Event) => {
      const picked = (event as CustomEvent<unknown>).detail;
      if (isStack(picked)) setStack(picked);
    };
    window.addEventListener(STACK_EVENT, follow);
    return () => window.removeEventListener(STACK_EVENT, follow);
  }, []);
  const request: FitRequest = { model, loaded, gpu, gpus, job, stack };
  const verdict = willItFit(request);
  const select = (
    label: string,
    value: string,
    options: readonly { id: string; label: string }[],
    onPick: (id: string) => void,
  ) => (
    <label class="widget-field">
      <span>{label}</span>
      <select value={value} onChange={(e) => onPick((e.currentTarget as HTMLSelectElement).value)}>
        {options.map((o) => (
          <option value={o.id}>{o.label}</option>
        ))}
      </select>
    </label>
  );
  const resolved = verdict?.result.resolved;
  const modelName =
    loaded === null ? (MODELS.find((m) => m.id === model)?.label ?? model) : messages.modelSource.loadedName(loaded.hubId);
  const command = estimateCommandLine({ ...fitFlags(request), ...(loaded === null ? {} : { config: 'config.json' }) });
  return (
    <LocaleContext.Provider value={locale}>
      <section
        class="widget will-it-fit not-content"
        aria-label={text.title}
        data-fits={verdict ? String(verdict.fits) : undefined}
        {...(verdict ? { 'data-total-bytes': verdict.result.perGpu.total } : {})}
      >
        <div class="will-it-fit-controls">
          <ModelSource
            label={text.model}
            options={MODELS.map((m) => ({ id: m.id, label: m.label }))}
            selected={model}
            loaded={loaded}
            onSelect={(id) => {
              setLoaded(null);
              setModel(id);
            }}
            onLoad={setLoaded}
          />
          {select(
            text.gpu,
            gpu,
            GPU_PRESETS.map((g) => ({ id: g.id, label: g.name })),
            setGpu,
          )}
          {select(
            text.gpus,
            String(gpus),
            GPU_COUNTS.map((n) => ({ id: String(n), label: text.gpuCount(n) })),
            (n) => setGpus(Number(n)),
          )}
          {select(
            text.job,
            job,
            JOBS.map((j) => ({ id: j, label: text.jobs[j] })),
            (j) => setJob(j as Job),
          )}
        </div>
        <StackPicker
          stack={stack}
          settings={resolved?.stackSettings ?? []}
          notModelled={resolved?.notModelled ?? []}
          onPick={(picked) => {
            setStack(picked);
            saveStack(picked);
          }}
        />
        {verdict && resolved ? (
          <div class="will-it-fit-answer" aria-live="polite">
            <ModelParams name={modelName} facts={modelFacts(verdict.result)} />
            <p class={verdict.fits ? 'will-it-fit-verdict fits' : 'will-it-fit-verdict over'}>
              <strong>{verdict.fits ? text.fits : text.doesNotFit}</strong>
              {text.verdictSeparator}
              {verdict.fits ? text.spare(gib(verdict.marginBytes, 1)) : text.over(gib(verdict.marginBytes, 1))}
              {text.needs(
                gib(verdict.result.perGpu.total, 1),
                gib(verdict.result.gpu?.memoryBytes ?? 0, 1),
                verdict.result.headroom?.percent ?? 0,
              )}
            </p>
            <p>
              {text.largest}
              <strong>{messages.memoryParts[verdict.largest.part]}</strong>
              {text.share(gib(verdict.largest.bytes, 1), Math.round(verdict.largest.share * 100))}
              {text.remedies(gpus)}
              {remediesFor(verdict.largest.part, gpus).map((remedy, i) => (
                <>
                  {i > 0 && text.listSeparator}
                  <a href={remedyLink(remedy, locale).href} data-lesson={remedy.lesson}>
                    {remedyLink(remedy, locale).title}
                  </a>
                </>
              ))}
            </p>
            <p>
              <a class="will-it-fit-calculator" href={calculatorHref(request, locale)}>
                {text.calculator}
              </a>
            </p>
            <p class="will-it-fit-defaults">
              {loaded === null ? text.defaults : text.defaultsWithConfig} <code>{command}</code>
            </p>
          </div>
        ) : (
          <p class="widget-error" role="alert">
            {text.refused}
          </p>
        )}
      </section>
    </LocaleContext.Provider>
  );
}
