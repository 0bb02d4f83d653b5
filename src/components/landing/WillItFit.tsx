import { useEffect, useState } from 'preact/hooks';
import { formatGiB } from '../../base/bytes';
import { lessonBySlug, lessonHref } from '../../base/lessons';
import { DEFAULT_STACK, GPU_PRESETS, MODEL_PRESETS, type Stack } from '../../memory';
import { estimateCommandLine } from '../../planner';
import { MEMORY_PART_LABELS } from '../memory-parts';
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
import { STRINGS as MODEL_STRINGS } from '../model-source/strings';
import '../widget.css';
import '../calculators/calculator.css';
import './landing.css';

/** What the island says, in one place for translation. */
const STRINGS = {
  title: 'Will it fit?',
  model: 'Model',
  gpu: 'GPU',
  gpus: 'How many',
  gpuCount: (n: number) => (n === 1 ? '1 GPU' : `${n} GPUs`),
  job: 'Job',
  jobs: { full: 'full fine-tune', lora: 'LoRA', qlora: 'QLoRA', infer: 'inference' } satisfies Record<Job, string>,
  fits: 'Fits',
  doesNotFit: 'Does not fit',
  spare: (bytes: string) => `${bytes} to spare`,
  over: (bytes: string) => `${bytes} over`,
  needs: (total: string, gpu: string, percent: number) =>
    `needs ${total} per GPU of ${gpu}, keeping ${percent}% free against fragmentation`,
  largest: 'Largest part:',
  share: (bytes: string, percent: number) => `${bytes} (${percent}% of the total)`,
  remedies: (gpus: number) => (gpus === 1 ? 'on one GPU, read:' : `on ${gpus} GPUs, read:`),
  refused: 'The memory engine cannot estimate this combination.',
  defaults: 'One sequence of 2,048 tokens per GPU, every other setting the stack’s default; the same in a terminal:',
  defaultsWithConfig:
    'One sequence of 2,048 tokens per GPU, every other setting the stack’s default; the same in a terminal, with the model’s config.json saved as config.json:',
  calculator: 'Change any setting in the full calculator',
  parts: MEMORY_PART_LABELS,
} as const;

/** A remedy's link, titled "Parallelism (ZeRO-2)" where a technique is named. */
function remedyLink(remedy: Remedy): { readonly href: string; readonly title: string } {
  const title = lessonBySlug(remedy.lesson).title;
  return { href: lessonHref(remedy.lesson), title: remedy.technique === undefined ? title : `${title} (${remedy.technique})` };
}

/** The real models a reader may pick (the lab's demo models are left out). */
const MODELS = MODEL_PRESETS.filter((m) => !m.id.startsWith('demo-'));

/** Props of the landing page's first look. */
export interface WillItFitProps {
  /** Model preset id to start with; the site's default model otherwise. */
  readonly model?: string;
  /** GPU preset id to start with; the site's default GPU otherwise. */
  readonly gpu?: string;
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
}: WillItFitProps) {
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
    loaded === null ? (MODELS.find((m) => m.id === model)?.label ?? model) : MODEL_STRINGS.loadedName(loaded.hubId);
  const command = estimateCommandLine({ ...fitFlags(request), ...(loaded === null ? {} : { config: 'config.json' }) });
  return (
    <section
      class="widget will-it-fit not-content"
      aria-label={STRINGS.title}
      data-fits={verdict ? String(verdict.fits) : undefined}
      {...(verdict ? { 'data-total-bytes': verdict.result.perGpu.total } : {})}
    >
      <div class="will-it-fit-controls">
        <ModelSource
          label={STRINGS.model}
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
          STRINGS.gpu,
          gpu,
          GPU_PRESETS.map((g) => ({ id: g.id, label: g.name })),
          setGpu,
        )}
        {select(
          STRINGS.gpus,
          String(gpus),
          GPU_COUNTS.map((n) => ({ id: String(n), label: STRINGS.gpuCount(n) })),
          (n) => setGpus(Number(n)),
        )}
        {select(
          STRINGS.job,
          job,
          JOBS.map((j) => ({ id: j, label: STRINGS.jobs[j] })),
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
            <strong>{verdict.fits ? STRINGS.fits : STRINGS.doesNotFit}</strong>
            {': '}
            {verdict.fits
              ? STRINGS.spare(formatGiB(verdict.marginBytes, 1))
              : STRINGS.over(formatGiB(verdict.marginBytes, 1))} —{' '}
            {STRINGS.needs(
              formatGiB(verdict.result.perGpu.total, 1),
              formatGiB(verdict.result.gpu?.memoryBytes ?? 0, 1),
              verdict.result.headroom?.percent ?? 0,
            )}
            .
          </p>
          <p>
            {STRINGS.largest} <strong>{STRINGS.parts[verdict.largest.part]}</strong>,{' '}
            {STRINGS.share(formatGiB(verdict.largest.bytes, 1), Math.round(verdict.largest.share * 100))};{' '}
            {STRINGS.remedies(gpus)}{' '}
            {remediesFor(verdict.largest.part, gpus).map((remedy, i) => (
              <>
                {i > 0 && ', '}
                <a href={remedyLink(remedy).href} data-lesson={remedy.lesson}>
                  {remedyLink(remedy).title}
                </a>
              </>
            ))}
          </p>
          <p>
            <a class="will-it-fit-calculator" href={calculatorHref(request)}>
              {STRINGS.calculator}
            </a>
          </p>
          <p class="will-it-fit-defaults">
            {loaded === null ? STRINGS.defaults : STRINGS.defaultsWithConfig} <code>{command}</code>
          </p>
        </div>
      ) : (
        <p class="widget-error" role="alert">
          {STRINGS.refused}
        </p>
      )}
    </section>
  );
}
