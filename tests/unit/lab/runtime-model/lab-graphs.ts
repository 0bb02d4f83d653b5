/**
 * The lab's graphs as the runtime model reads them: each graph's manifest entry
 * (public/models/manifest.json) with its schedule file beside it, the same files the page
 * fetches (written by scripts/build-models.ts, `npm run models`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schedulePath, type ScheduleFile } from '../../../../src/graphs/schedule-file.ts';
import type { Manifest, ManifestModel } from '../../../../src/graphs/manifest.ts';
import { graphSchedule, type GraphSchedule } from '../../../../src/lab/runtime-model/graph-schedule.ts';

const MODELS_DIR = join(import.meta.dirname, '../../../../public/models');

/** The manifest the lab reads (public/models/manifest.json). */
export const labManifest = JSON.parse(readFileSync(join(MODELS_DIR, 'manifest.json'), 'utf8')) as Manifest;

/** A model variant's manifest entry, by id (`mlp-h128-l4.train.keep.fp32`). */
export function manifestModel(id: string): ManifestModel {
  const model = labManifest.models.find((m) => m.id === id);
  if (!model) throw new Error(`no ${id} in public/models/manifest.json (npm run models)`);
  return model;
}

/** Every graph of the model variant `id`, in the manifest's order, with its nodes. */
export function labGraphs(id: string): GraphSchedule[] {
  return manifestModel(id).graphs.map((entry) =>
    graphSchedule(entry, JSON.parse(readFileSync(join(MODELS_DIR, schedulePath(entry.file)), 'utf8')) as ScheduleFile),
  );
}
