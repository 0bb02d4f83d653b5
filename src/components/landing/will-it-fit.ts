import { lessonHref, type LessonSlug } from '../../base/lessons';
import { DEFAULT_LOCALE, localizedHref, type Locale } from '../../i18n/locales';
import type { Messages } from '../../i18n/messages/index';
import {
  estimateMemory,
  LINE_CATEGORIES,
  parseEstimateFlags,
  type EstimateResult,
  type LineCategory,
  type Stack,
} from '../../memory';
import { SITE_DEFAULTS } from '../calculators/site-defaults';
import { calculatorAnchor } from '../calculators/specs';
import type { LoadedModel } from '../model-source/loaded-model';
import { modelLinkParams } from '../model-source/model-link';

/** The parts of one GPU's memory a verdict may name as the largest. */
export type MemoryPart = LineCategory;

/** What the reader wants to run: a full fine-tune, LoRA or QLoRA adapters, or inference. */
export type Job = 'full' | 'lora' | 'qlora' | 'infer';

/** Every job, in the order the landing page lists them. */
export const JOBS: readonly Job[] = ['full', 'lora', 'qlora', 'infer'];

/** GPU counts the landing page offers. */
export const GPU_COUNTS: readonly number[] = [1, 2, 4, 8];

/** One "will it fit?" question. */
export interface FitRequest {
  /** A preset id; ignored while `loaded` is set. */
  readonly model: string;
  /** A model read from a config.json, in use instead of the preset. */
  readonly loaded?: LoadedModel | null;
  readonly gpu: string;
  /** GPUs of that kind the reader has: it decides which remedies apply, not the per-GPU figure. */
  readonly gpus: number;
  readonly job: Job;
  readonly stack: Stack;
}

/** The answer to "will it fit?", in bytes, for one model on one GPU. */
export interface FitVerdict {
  readonly result: EstimateResult;
  /** Whether the total plus the recommended free margin fits. */
  readonly fits: boolean;
  /** Bytes to spare (fits) or missing (does not), never negative. */
  readonly marginBytes: number;
  /** The largest part at the step's peak, its bytes and its share of the peak. */
  readonly largest: { readonly part: MemoryPart; readonly bytes: number; readonly share: number };
}

/**
 * The estimate flags of a request: the site's defaults (one sequence of 2,048 tokens), the job and the stack. They are
 * exactly what lesson 1's calculator computes for the same state, so its link shows the same figure.
 */
export function fitFlags(request: FitRequest): Record<string, string> {
  const flags: Record<string, string> = { ...SITE_DEFAULTS, model: request.model, gpu: request.gpu, stack: request.stack };
  // A loaded model travels as its config.json (the link's `config` parameter), not as a preset.
  if (request.loaded) delete flags['model'];
  if (request.job === 'infer') flags['mode'] = 'infer';
  else if (request.job !== 'full') flags['finetune'] = request.job;
  return flags;
}

/**
 * Whether the request fits on one of its GPUs (each GPU of plain data parallelism holds the whole replica):
 * `estimateMemory`'s own verdict, plus the part that dominates. Null when the engine refuses the combination.
 */
export function willItFit(request: FitRequest): FitVerdict | null {
  const parsed = parseEstimateFlags(fitFlags(request));
  if (!parsed.ok) return null;
  const outcome = estimateMemory(request.loaded ? { ...parsed.options, modelConfig: request.loaded.config } : parsed.options);
  if (!outcome.ok || outcome.result.fits === null) return null;
  const { result } = outcome;
  const peak = result.timeline.find((m) => m.moment === result.peakMoment);
  const [part, bytes] = LINE_CATEGORIES.map((p) => [p, peak?.byCategory[p] ?? 0] as const).reduce((a, b) =>
    b[1] > a[1] ? b : a,
  );
  return {
    result,
    fits: result.fits === true,
    marginBytes: (result.fits ? result.spare : result.shortfall) ?? 0,
    largest: { part, bytes, share: result.perGpu.total > 0 ? bytes / result.perGpu.total : 0 },
  };
}

/** A lesson that shrinks a part, and the technique of it to read when the lesson teaches several (a catalogue key). */
export interface Remedy {
  readonly lesson: LessonSlug;
  readonly technique?: keyof Messages['willItFit']['techniques'];
}

/** What shrinks each part on one GPU: nothing to shard with, so no ZeRO; offload and adapters instead. */
const ONE_GPU: Readonly<Record<MemoryPart, readonly Remedy[]>> = {
  weights: [{ lesson: 'lora-and-qlora', technique: 'quantizedWeights' }],
  gradients: [{ lesson: 'lora-and-qlora', technique: 'lora' }],
  optimizer: [
    { lesson: 'offload', technique: 'optimizerToCpu' },
    { lesson: 'lora-and-qlora', technique: 'lora' },
  ],
  activations: [{ lesson: 'gradient-checkpointing' }],
  kvCache: [{ lesson: 'inference-memory' }],
  overhead: [{ lesson: 'where-the-memory-goes' }],
};

/** What shrinks each part when there are GPUs to shard over. */
const SEVERAL_GPUS: Readonly<Record<MemoryPart, readonly Remedy[]>> = {
  ...ONE_GPU,
  weights: [{ lesson: 'parallelism', technique: 'zero3' }, ...ONE_GPU.weights],
  gradients: [{ lesson: 'parallelism', technique: 'zero2' }],
  optimizer: [{ lesson: 'parallelism', technique: 'zero' }],
};

/** The remedies for `part` that apply to `gpus` GPUs: sharding (ZeRO, FSDP) only with more than one. */
export function remediesFor(part: MemoryPart, gpus: number): readonly Remedy[] {
  return (gpus > 1 ? SEVERAL_GPUS : ONE_GPU)[part];
}

/** Lesson 1's calculator, in `locale`'s edition, with the request's state, where every setting can be changed. */
export function calculatorHref(request: FitRequest, locale: Locale = DEFAULT_LOCALE): string {
  const query = new URLSearchParams(fitFlags(request));
  if (request.loaded) for (const [name, value] of modelLinkParams(request.loaded)) query.append(name, value);
  return `${localizedHref(locale, lessonHref('where-the-memory-goes'))}?${query.toString()}#${calculatorAnchor('breakdown')}`;
}
