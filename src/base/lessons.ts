/**
 * The lessons in reading order: the one list that the sidebar (astro.config.mjs), the landing page's learning path
 * (content/docs/index.mdx), the planner's and the diagnose tools' links and the benchmarks read. It sits in src/base,
 * the bottom layer, so the pure layers (src/planner, src/diagnose) may read it; it imports nothing.
 * A lesson's page is content/docs/lessons/<slug>.mdx, whose frontmatter title is the title here (a unit test holds both).
 */

/** One lesson of the learning path. */
export interface Lesson {
  /** The page's file name and URL segment, its number first: `04-gradient-checkpointing`. */
  readonly slug: string;
  /** Its place in reading order, from 1. */
  readonly number: number;
  /** The page's title, as the sidebar shows it. */
  readonly title: string;
  /** One sentence for the learning path's card on the landing page. */
  readonly summary: string;
}

/** Every lesson, in reading order. */
export const LESSONS = [
  {
    slug: '01-diagnostics',
    number: 1,
    title: 'Diagnostics',
    summary:
      'Where the memory goes: weights, gradients, optimizer states, activations, the CUDA context. Read nvidia-smi and an OOM message.',
  },
  {
    slug: '02-mixed-precision',
    number: 2,
    title: 'Mixed precision',
    summary: "fp32, fp16, bf16: what 16-bit activations save, and what Adam's model states do not.",
  },
  {
    slug: '03-gradient-accumulation',
    number: 3,
    title: 'Gradient accumulation',
    summary: 'Same gradient, smaller micro-batches, lower peak memory.',
  },
  {
    slug: '04-gradient-checkpointing',
    number: 4,
    title: 'Gradient checkpointing',
    summary: 'Keep fewer activations, recompute them in the backward pass, pay about one extra forward.',
  },
  {
    slug: '05-parallelism',
    number: 5,
    title: 'Parallelism',
    summary: 'DDP, ZeRO and FSDP, tensor, pipeline and sequence parallelism: per-GPU memory from 1 to 1024 GPUs.',
  },
  {
    slug: '06-offload',
    number: 6,
    title: 'Offload',
    summary: 'Move optimizer states and weights to host memory or NVMe, and do the bandwidth arithmetic first.',
  },
  {
    slug: '07-distillation-and-compression',
    number: 7,
    title: 'Distillation and compression',
    summary: 'Smaller students, pruning, int8 and int4 quantization.',
  },
  {
    slug: '08-putting-it-together',
    number: 8,
    title: 'Putting it together',
    summary: 'Diagnose first, stack techniques until the job fits, or rent the right GPU.',
  },
] as const satisfies readonly Lesson[];

/** Slug of a lesson page under /lessons/. */
export type LessonSlug = (typeof LESSONS)[number]['slug'];

/** The lesson of `slug`. */
export function lessonBySlug(slug: LessonSlug): Lesson {
  return LESSONS.find((lesson) => lesson.slug === slug)!;
}

/**
 * Site path of a lesson, e.g. `/lessons/04-gradient-checkpointing/`, or of a section of it with `section` (its heading's
 * id). The path is typed as its literal, so a table keyed by paths (diagnose's link titles) is checked for every key.
 */
export function lessonHref<S extends LessonSlug>(slug: S): `/lessons/${S}/`;
export function lessonHref<S extends LessonSlug, A extends string>(slug: S, section: A): `/lessons/${S}/#${A}`;
export function lessonHref(slug: LessonSlug, section?: string): string {
  return section === undefined ? `/lessons/${slug}/` : `/lessons/${slug}/#${section}`;
}

/** "Lesson 4: Gradient checkpointing": how a tool names a lesson it links to. */
export function lessonLabel(slug: LessonSlug): string {
  const lesson = lessonBySlug(slug);
  return `Lesson ${lesson.number}: ${lesson.title}`;
}
