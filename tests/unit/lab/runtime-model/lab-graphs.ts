/**
 * The lab's graphs as the runtime model reads them: each graph's manifest entry
 * (public/models/manifest.json) with its schedule file beside it, the same files the page
 * fetches (written by scripts/build-models.ts, `npm run models`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schedulePath, type ScheduleFile } from '../../../../src/graphs/schedule-file.ts';
import type { Manifest, ManifestGraph } from '../../../../src/graphs/manifest.ts';
import { graphSchedule, type GraphSchedule } from '../../../../src/lab/runtime-model/graph-schedule.ts';

const MODELS_DIR = join(import.meta.dirname, '../../../../public/models');

/** The manifest the lab reads (public/models/manifest.json). */
export const labManifest = JSON.parse(readFileSync(join(MODELS_DIR, 'manifest.json'), 'utf8')) as Manifest;

/** A graph with its nodes, from its schedule file. */
function readSchedule(entry: ManifestGraph): GraphSchedule {
  return graphSchedule(entry, JSON.parse(readFileSync(join(MODELS_DIR, schedulePath(entry.file)), 'utf8')) as ScheduleFile);
}

/** A graph with its nodes, read from its schedule file as the page fetches it (page/schedule-loader.ts). */
export function loadLabSchedule(entry: ManifestGraph): Promise<GraphSchedule> {
  return Promise.resolve(readSchedule(entry));
}
