/** Every experiment of the site and the page it runs on, for the scripts that drive them in Chromium. */
import { experimentPage } from './island-pages.ts';

/** Experiment ids in lesson order, each with the page that embeds it (read from the MDX sources). */
export const EXPERIMENT_PAGES = (
  [
    'leak',
    'mixed-precision',
    'gradient-accumulation',
    'gradient-checkpointing',
    'offload',
    'data-parallel',
    'zero-sharding',
    'pipeline-parallel',
  ] as const
).map((id) => [id, experimentPage(id)] as const);
