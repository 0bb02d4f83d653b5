/** Every experiment of the site and the lesson page it runs on, for the scripts that drive them in Chromium. */
import { lessonHref } from '../../src/base/lessons.ts';

/** Experiment id → its lesson's page, in lesson order (the cluster experiments share lesson 5). */
export const EXPERIMENT_PAGES = [
  ['leak', lessonHref('01-diagnostics')],
  ['mixed-precision', lessonHref('02-mixed-precision')],
  ['gradient-accumulation', lessonHref('03-gradient-accumulation')],
  ['gradient-checkpointing', lessonHref('04-gradient-checkpointing')],
  ['offload', lessonHref('06-offload')],
  ['data-parallel', lessonHref('05-parallelism')],
  ['zero-sharding', lessonHref('05-parallelism')],
  ['pipeline-parallel', lessonHref('05-parallelism')],
] as const;
