/**
 * The step loop a single experiment's side runs on WebGPU (single.worker.ts, measure/single-run.ts),
 * described for the runtime model (runtime-model/single-step-loop.ts), so "this runtime" follows
 * the same micro-batches, read-backs and kept results as the measurement. Pure.
 */
import { gradName, isAccOut, LOSS, LOSS_SCALE, type ManifestModel } from '../../../graphs/browser-safe';
import type { GraphSchedule } from '../../runtime-model/graph-schedule';
import type { SingleStepLoop } from '../../runtime-model/single-step-loop';
import type { LabSettings } from '../settings';
import { measuredSteps } from '../warm-up';
import type { SingleExperimentDefinition, SingleSideSpec } from './experiments';

/** The loop `side` of `experiment` runs with `model` (whose graphs are `graphs`) at `settings`. */
export function singleStepLoop(
  experiment: SingleExperimentDefinition,
  side: SingleSideSpec,
  model: ManifestModel,
  graphs: readonly GraphSchedule[],
  settings: LabSettings,
): SingleStepLoop {
  const parameterGradients = new Set(model.parameters.map((p) => gradName(p.name)));
  // single-run.ts: gradients go to the host unless the side says otherwise or runs a training loop.
  const gradientsToHost = (side.gradients ?? (side.loop ? 'gpu' : 'host')) === 'host';
  return {
    graphs,
    batch: settings.batch,
    microBatches: model.variant.accumulate ? side.microBatches(settings) : 1,
    steps: experiment.steps ?? measuredSteps('webgpu'),
    retainsResults: side.loop?.retain ?? false,
    isResult: (name) => name === LOSS || parameterGradients.has(name) || isAccOut(name),
    readBack: (name) => name === LOSS || (gradientsToHost && parameterGradients.has(name)),
    hostInputs: new Set([LOSS_SCALE]),
  };
}
