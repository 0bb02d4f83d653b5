/** Where the tools send the reader next: the site's lesson and tool pages, by their real URLs. */
export const LESSON_LINKS = {
  diagnostics: '/lessons/01-diagnostics/',
  threeNumbers: '/lessons/01-diagnostics/#three-numbers-that-disagree',
  fragmentation: '/lessons/01-diagnostics/#fragmentation-and-expandable_segments',
  findTheLeak: '/lessons/01-diagnostics/#find-the-leak',
  snapshot: '/lessons/01-diagnostics/#take-a-memory-snapshot',
  watchTerminal: '/lessons/01-diagnostics/#watch-from-the-terminal',
  mixedPrecision: '/lessons/02-mixed-precision/',
  gradientAccumulation: '/lessons/03-gradient-accumulation/',
  checkpointing: '/lessons/04-gradient-checkpointing/',
  parallelism: '/lessons/05-parallelism/',
  offload: '/lessons/06-offload/',
  compression: '/lessons/07-distillation-and-compression/',
  puttingTogether: '/lessons/08-putting-it-together/',
  toolTriage: '/tools/triage/',
  toolNvidiaSmi: '/tools/nvidia-smi/',
  toolOom: '/tools/oom-message/',
  toolSummary: '/tools/memory-summary/',
  toolSnapshot: '/tools/snapshot/',
} as const;

/** One of the link targets above. */
export type LessonLink = (typeof LESSON_LINKS)[keyof typeof LESSON_LINKS];
