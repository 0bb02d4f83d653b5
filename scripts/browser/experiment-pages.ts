/** Every experiment of the site and the lesson page it runs on, for the scripts that drive them in Chromium. */
import { lessonHref } from '../../src/base/lessons.ts';

/** Experiment id → its lesson's page, in lesson order (the cluster experiments share lesson 5). */
export const EXPERIMENT_PAGES = [
  ['leak', lessonHref('diagnose-your-run')],
  ['mixed-precision', lessonHref('mixed-precision')],
  ['gradient-accumulation', lessonHref('gradient-accumulation')],
  ['gradient-checkpointing', lessonHref('gradient-checkpointing')],
  ['offload', lessonHref('offload')],
  ['data-parallel', lessonHref('parallelism')],
  ['zero-sharding', lessonHref('parallelism')],
  ['pipeline-parallel', lessonHref('parallelism')],
] as const;
