/**
 * The cluster experiments' sides as the page runs them on WebGPU at the sizes the traces were
 * recorded at (tests/fixtures/lab/traces/), and each device's measured peak there.
 */
import {
  CLUSTER_EXPERIMENTS,
  findClusterModel,
  type ClusterExperimentId,
} from '../../../../src/lab/experiments/cluster/experiments.ts';
import type { ClusterSideRun } from '../../../../src/lab/experiments/cluster/runtime-prediction.ts';
import { DEFAULT_LAB_SETTINGS, SOFTWARE_ADAPTER_SETTINGS } from '../../../../src/lab/experiments/settings.ts';
import { measuredSteps } from '../../../../src/lab/experiments/warm-up.ts';
import { labManifest } from './lab-graphs.ts';
import { traces } from './recorded-traces.ts';
import type { Side } from './single-sides.ts';

/** The run of one side at the software-adapter sizes (at width `hidden` if given), and the engine's per-device peak. */
export function clusterSideOf(
  id: ClusterExperimentId,
  side: Side,
  hidden?: number,
): { run: ClusterSideRun; pytorchBytes: number } {
  const experiment = CLUSTER_EXPERIMENTS[id];
  const settings = {
    ...DEFAULT_LAB_SETTINGS,
    ...experiment.defaults,
    ...SOFTWARE_ADAPTER_SETTINGS,
    ...(hidden ? { hidden } : {}),
  };
  const spec = experiment[side];
  const model = findClusterModel(labManifest, spec, settings);
  return {
    run: { job: spec.job(model, settings, labManifest), devices: spec.devices(settings), steps: measuredSteps('webgpu') },
    pytorchBytes: spec.predict(model, settings),
  };
}

/**
 * The measured peak the page reported for a side: its busiest device ("before"; the page records
 * that figure only) or every device by rank ("after", `afterDeviceBytes`).
 */
export function measuredDevices(id: ClusterExperimentId, side: Side, hidden?: number): number[] {
  const trace = traces.find((t) => t.experiment === id && t.hidden === hidden);
  const text = side === 'before' ? trace?.data['measuredBeforeBytes'] : trace?.data['afterDeviceBytes'];
  const bytes = (text ?? '').split(',').map(Number);
  if (!text || bytes.some((b) => !Number.isFinite(b))) throw new Error(`no measured ${side} bytes in the ${id} trace`);
  return bytes;
}
