/** Where the tools send the reader next: the site's lesson and tool pages, by their real URLs. */
import { lessonHref } from '../base/lessons.ts';

/** Each link the tools show, lessons (from the lesson registry) and their sections first, then the tool pages. */
export const LESSON_LINKS = {
  whereTheMemoryGoes: lessonHref('where-the-memory-goes'),
  diagnose: lessonHref('diagnose-your-run'),
  threeNumbers: lessonHref('where-the-memory-goes', 'three-numbers-that-disagree'),
  fragmentation: lessonHref('diagnose-your-run', 'fragmentation-and-expandable_segments'),
  findTheLeak: lessonHref('diagnose-your-run', 'find-the-leak'),
  snapshot: lessonHref('diagnose-your-run', 'take-a-memory-snapshot'),
  watchTerminal: lessonHref('diagnose-your-run', 'watch-from-the-terminal'),
  mixedPrecision: lessonHref('mixed-precision'),
  gradientAccumulation: lessonHref('gradient-accumulation'),
  checkpointing: lessonHref('gradient-checkpointing'),
  parallelism: lessonHref('parallelism'),
  offload: lessonHref('offload'),
  inference: lessonHref('inference-memory'),
  compression: lessonHref('distillation-and-compression'),
  puttingTogether: lessonHref('putting-it-together'),
  toolTriage: '/tools/triage/',
  toolNvidiaSmi: '/tools/nvidia-smi/',
  toolOom: '/tools/oom-message/',
  toolSummary: '/tools/memory-summary/',
  toolSnapshot: '/tools/snapshot/',
} as const;

/** One of the link targets above. */
export type LessonLink = (typeof LESSON_LINKS)[keyof typeof LESSON_LINKS];
