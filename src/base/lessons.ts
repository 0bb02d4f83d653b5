/**
 * The lessons in reading order: the one list that the sidebar (astro.config.mjs), the landing page's learning path
 * (content/docs/index.mdx), the planner's and the diagnose tools' links and the benchmarks read. It sits in src/base,
 * the bottom layer, so the pure layers (src/planner, src/diagnose) may read it; it imports nothing.
 * A lesson's page is content/docs/lessons/<slug>.mdx, whose frontmatter title is the title here (a unit test holds both).
 */

/** One lesson of the learning path. */
export interface Lesson {
  /** The page's file name and URL segment: `gradient-checkpointing`. Unnumbered, so a lesson added or split does not move the others' URLs. */
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
    slug: 'where-the-memory-goes',
    number: 1,
    title: 'Where the memory goes',
    summary:
      'Weights, gradients, optimizer states, activations and the CUDA context, and why the peak is a moment of the step, not their sum.',
  },
  {
    slug: 'diagnose-your-run',
    number: 2,
    title: 'Diagnose your run',
    summary: 'Read nvidia-smi, the OOM message, memory_summary() and a memory snapshot, and find a leak.',
  },
  {
    slug: 'mixed-precision',
    number: 3,
    title: 'Mixed precision',
    summary: "fp32, fp16, bf16: what 16-bit activations save, and what Adam's model states do not.",
  },
  {
    slug: 'gradient-accumulation',
    number: 4,
    title: 'Gradient accumulation',
    summary: 'Same gradient, smaller micro-batches, lower peak memory.',
  },
  {
    slug: 'gradient-checkpointing',
    number: 5,
    title: 'Gradient checkpointing',
    summary: 'Keep fewer activations, recompute them in the backward pass, pay about one extra forward.',
  },
  {
    slug: 'parallelism',
    number: 6,
    title: 'Parallelism',
    summary: 'DDP, ZeRO and FSDP, tensor, pipeline and sequence parallelism: per-GPU memory from 1 to thousands of GPUs.',
  },
  {
    slug: 'offload',
    number: 7,
    title: 'Offload',
    summary: 'Move optimizer states, weights or activations to host memory or NVMe, and do the bandwidth arithmetic first.',
  },
  {
    slug: 'lora-and-qlora',
    number: 8,
    title: 'LoRA and QLoRA',
    summary: 'Train adapters on a frozen base, in 16 bits or 4, with optimizers that keep less state.',
  },
  {
    slug: 'inference-memory',
    number: 9,
    title: 'Inference memory',
    summary: 'Weights and their formats, the KV cache, generate and beams, and how vLLM and llama.cpp budget memory.',
  },
  {
    slug: 'distillation-and-compression',
    number: 10,
    title: 'Distillation and compression',
    summary: 'Smaller students, pruning, and quantization for deployment.',
  },
  {
    slug: 'putting-it-together',
    number: 11,
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
 * Site path of a lesson, e.g. `/lessons/gradient-checkpointing/`, or of a section of it with `section` (its heading's
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

/** "Lesson 2: find the leak": how a tool names a section of a lesson it links to. */
export function lessonSectionLabel(slug: LessonSlug, section: string): string {
  return `Lesson ${lessonBySlug(slug).number}: ${section}`;
}

/**
 * The numbered URLs lessons had before lesson 1 and lesson 7 were split: links shared before then still open the lesson
 * that holds their content (astro.config.mjs makes a redirect page for each).
 */
export const MOVED_LESSONS: Readonly<Record<string, LessonSlug>> = {
  '01-diagnostics': 'where-the-memory-goes',
  '02-mixed-precision': 'mixed-precision',
  '03-gradient-accumulation': 'gradient-accumulation',
  '04-gradient-checkpointing': 'gradient-checkpointing',
  '05-parallelism': 'parallelism',
  '06-offload': 'offload',
  '07-distillation-and-compression': 'distillation-and-compression',
  '08-putting-it-together': 'putting-it-together',
};
