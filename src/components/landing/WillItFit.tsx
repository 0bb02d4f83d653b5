import { useState } from 'preact/hooks';
import { formatGiB } from '../../base/bytes';
import { lessonBySlug, lessonHref, type LessonSlug } from '../../base/lessons';
import { GPU_PRESETS, MODEL_PRESETS, type Mode } from '../../memory';
import { estimateCommandLine } from '../../planner';
import { MEMORY_PART_LABELS } from '../memory-parts';
import { willItFit, type MemoryPart } from './will-it-fit';
import ModelSource from '../model-source/ModelSource';
import ModelParams from '../model-source/ModelParams';
import type { LoadedModel } from '../model-source/loaded-model';
import { modelFacts } from '../model-source/model-facts';
import { STRINGS as MODEL_STRINGS } from '../model-source/strings';
import '../widget.css';
import './landing.css';

/** What the island says, in one place for translation. */
const STRINGS = {
  title: 'Will it fit?',
  model: 'Model',
  gpu: 'GPU',
  mode: 'Job',
  modes: { train: 'training', infer: 'inference' } satisfies Record<Mode, string>,
  fits: 'Fits',
  doesNotFit: 'Does not fit',
  spare: (bytes: string) => `${bytes} to spare`,
  over: (bytes: string) => `${bytes} over`,
  needs: (total: string, gpu: string, percent: number) =>
    `needs ${total} of ${gpu}, keeping ${percent}% free against fragmentation`,
  largest: 'Largest part:',
  share: (bytes: string, percent: number) => `${bytes} (${percent}% of the total)`,
  refused: 'The memory engine cannot estimate this combination.',
  defaults: 'One GPU, every other setting at the engine’s default; the same in a terminal:',
  defaultsWithConfig:
    'One GPU, every other setting at the engine’s default; the same in a terminal, with the model’s config.json saved as config.json:',
  parts: MEMORY_PART_LABELS,
} as const;

/** The lesson that shrinks each part first, and the technique of it to read when the lesson teaches several. */
const LESSON_FOR: Record<MemoryPart, { readonly lesson: LessonSlug; readonly technique?: string }> = {
  weights: { lesson: '07-distillation-and-compression' },
  gradients: { lesson: '05-parallelism', technique: 'ZeRO-2' },
  optimizer: { lesson: '05-parallelism', technique: 'ZeRO' },
  activations: { lesson: '04-gradient-checkpointing' },
  kvCache: { lesson: '07-distillation-and-compression' },
  overhead: { lesson: '01-diagnostics' },
};

/** The link to the lesson for `part`, titled "Parallelism (ZeRO-2)" where a technique is named. */
function lessonLinkFor(part: MemoryPart): { readonly href: string; readonly title: string } {
  const { lesson, technique } = LESSON_FOR[part];
  const title = lessonBySlug(lesson).title;
  return { href: lessonHref(lesson), title: technique === undefined ? title : `${title} (${technique})` };
}

/** The real models a reader may pick (the lab's demo models are left out). */
const MODELS = MODEL_PRESETS.filter((m) => !m.id.startsWith('demo-'));

/** Props of the landing page's first look. */
export interface WillItFitProps {
  /** Model preset id to start with. */
  readonly model?: string;
  /** GPU preset id to start with. */
  readonly gpu?: string;
}

/**
 * The landing page's first look: pick a model and a GPU and see at once whether one training
 * step (or inference) fits, by how much, and which part dominates, with the lesson that
 * shrinks it. Every number is `estimateMemory` with the engine's defaults.
 */
export default function WillItFit({ model: startModel = 'llama-2-7b', gpu: startGpu = 'rtx-4090' }: WillItFitProps) {
  const [model, setModel] = useState(startModel);
  /** The model read from a config.json, in use instead of the preset `model`. */
  const [loaded, setLoaded] = useState<LoadedModel | null>(null);
  const [gpu, setGpu] = useState(startGpu);
  const [mode, setMode] = useState<Mode>('train');
  const verdict = willItFit(loaded?.config ?? model, gpu, mode);
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
  const modelFlag = loaded === null ? { model } : { config: 'config.json' };
  const command = resolved ? estimateCommandLine({ ...modelFlag, gpu, ...(mode === 'infer' ? { mode } : {}) }) : '';
  const modelName =
    loaded === null ? (MODELS.find((m) => m.id === model)?.label ?? model) : MODEL_STRINGS.loadedName(loaded.hubId);
  return (
    <section
      class="widget will-it-fit not-content"
      aria-label={STRINGS.title}
      data-fits={verdict ? String(verdict.fits) : undefined}
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
          STRINGS.mode,
          mode,
          (['train', 'infer'] as const).map((m) => ({ id: m, label: STRINGS.modes[m] })),
          (m) => setMode(m as Mode),
        )}
      </div>
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
            {STRINGS.share(formatGiB(verdict.largest.bytes, 1), Math.round(verdict.largest.share * 100))}:{' '}
            <a href={lessonLinkFor(verdict.largest.part).href}>{lessonLinkFor(verdict.largest.part).title}</a>
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
