/** Where the tools send the reader next: the site's lesson and tool pages, by their real URLs. */
import { lessonHref } from '../base/lessons.ts';

/** Each link the tools show, lessons (from the lesson registry) and their sections first, then the tool pages. */
export const LESSON_LINKS = {
  diagnostics: lessonHref('01-diagnostics'),
  threeNumbers: lessonHref('01-diagnostics', 'three-numbers-that-disagree'),
  fragmentation: lessonHref('01-diagnostics', 'fragmentation-and-expandable_segments'),
  findTheLeak: lessonHref('01-diagnostics', 'find-the-leak'),
  snapshot: lessonHref('01-diagnostics', 'take-a-memory-snapshot'),
  watchTerminal: lessonHref('01-diagnostics', 'watch-from-the-terminal'),
  mixedPrecision: lessonHref('02-mixed-precision'),
  gradientAccumulation: lessonHref('03-gradient-accumulation'),
  checkpointing: lessonHref('04-gradient-checkpointing'),
  parallelism: lessonHref('05-parallelism'),
  offload: lessonHref('06-offload'),
  compression: lessonHref('07-distillation-and-compression'),
  puttingTogether: lessonHref('08-putting-it-together'),
  toolTriage: '/tools/triage/',
  toolNvidiaSmi: '/tools/nvidia-smi/',
  toolOom: '/tools/oom-message/',
  toolSummary: '/tools/memory-summary/',
  toolSnapshot: '/tools/snapshot/',
} as const;

/** One of the link targets above. */
export type LessonLink = (typeof LESSON_LINKS)[keyof typeof LESSON_LINKS];
