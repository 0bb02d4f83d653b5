import { schedulePath, type ManifestModel, type ScheduleFile } from '../../graphs/browser-safe';
import { graphSchedule, type GraphSchedule } from '../runtime-model/graph-schedule';
import { loadModelsJson } from './manifest-loader';

/**
 * Every graph of `model` with its nodes, from the schedule files beside its `.onnx` files
 * (scripts/build-models.ts). Fetched only when an experiment runs, once per page.
 */
export function loadGraphSchedules(model: ManifestModel): Promise<GraphSchedule[]> {
  return Promise.all(
    model.graphs.map(async (entry) =>
      graphSchedule(entry, await loadModelsJson<ScheduleFile>(schedulePath(entry.file), `the schedule of ${entry.file}`)),
    ),
  );
}
