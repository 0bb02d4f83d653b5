import { schedulePath, type ManifestGraph, type ScheduleFile } from '../../graphs/browser-safe';
import { graphSchedule, type GraphSchedule } from '../runtime-model/graph-schedule';
import { loadModelsJson } from './manifest-loader';

/**
 * A graph with its nodes, from the schedule file beside its `.onnx` file
 * (scripts/build-models.ts). Fetched only when an experiment runs, once per graph and page.
 */
export async function loadGraphSchedule(entry: ManifestGraph): Promise<GraphSchedule> {
  return graphSchedule(entry, await loadModelsJson<ScheduleFile>(schedulePath(entry.file), `the schedule of ${entry.file}`));
}
