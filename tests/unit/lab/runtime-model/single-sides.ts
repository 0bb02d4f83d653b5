/**
 * The single experiments' sides as the page runs them on WebGPU at the sizes the traces were
 * recorded at (tests/fixtures/lab/traces/), and their measured peaks there.
 */
import { DEFAULT_LAB_SETTINGS, SOFTWARE_ADAPTER_SETTINGS, type LabSettings } from '../../../../src/lab/experiments/settings.ts';
import {
  findSingleModel,
  predictSideBytes,
  SINGLE_EXPERIMENTS,
  sideRunSpec,
  type SingleExperimentId,
} from '../../../../src/lab/experiments/single/experiments.ts';
import { measuredSteps } from '../../../../src/lab/experiments/warm-up.ts';
import type { SingleRunSpec } from '../../../../src/lab/measure/single-run.ts';
import { labManifest } from './lab-graphs.ts';
import { traces } from './recorded-traces.ts';

/** One side of a single experiment. */
export type Side = 'before' | 'after';

/** An experiment's software-adapter sizes (where the traces were recorded), at width `hidden` if given. */
export function softwareSettings(id: SingleExperimentId, hidden?: number): LabSettings {
  const experiment = SINGLE_EXPERIMENTS[id];
  return {
    ...DEFAULT_LAB_SETTINGS,
    ...experiment.defaults,
    ...(experiment.softwareDefaults ?? SOFTWARE_ADAPTER_SETTINGS),
    ...(hidden ? { hidden } : {}),
  };
}

/** The run single.worker.ts measures for one side on WebGPU, and the engine's peak for it (PyTorch on CUDA). */
export function sideOf(id: SingleExperimentId, side: Side, hidden?: number): { spec: SingleRunSpec; pytorchBytes: number } {
  const experiment = SINGLE_EXPERIMENTS[id];
  const settings = softwareSettings(id, hidden);
  const model = findSingleModel(labManifest, experiment[side], settings, 'webgpu');
  const steps = experiment.steps ?? measuredSteps('webgpu');
  return {
    spec: sideRunSpec(experiment[side], model, settings, steps),
    pytorchBytes: predictSideBytes(experiment[side], model, settings, steps),
  };
}

/** A side's measured peak in the trace recorded at the software sizes, or at width `hidden`. */
export function measuredPeak(id: SingleExperimentId, side: Side, hidden?: number): number {
  const trace = traces.find((t) => t.experiment === id && t.hidden === hidden);
  const bytes = Number(trace?.data[side === 'before' ? 'measuredBeforeBytes' : 'measuredAfterBytes']);
  if (!Number.isFinite(bytes)) throw new Error(`no measured ${side} bytes in the ${id} trace`);
  return bytes;
}
