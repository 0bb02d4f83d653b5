/**
 * A figure a lesson states about its experiment: the engine's prediction for one side, as the page shows it on WebGPU
 * at the default settings, computed at build time from the manifest `npm run models` wrote (read once per build).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatBytes } from '../../base/bytes';
import type { Manifest } from '../../graphs/browser-safe';
import { defaultSidePrediction, type SingleExperimentId } from '../../lab/experiments/single/experiments';

let manifest: Manifest | undefined;

/** The prediction for `side` of `experiment` in MiB, at the default settings or at `layers` deep. */
export function labPredictionFigure(experiment: SingleExperimentId, side: 'before' | 'after', layers?: number): string {
  manifest ??= JSON.parse(readFileSync(join(process.cwd(), 'public/models/manifest.json'), 'utf8')) as Manifest;
  return formatBytes(defaultSidePrediction(manifest, experiment, side, layers === undefined ? {} : { layers }), 'MiB', 2);
}
