/**
 * The cluster experiments: what each side runs on how many virtual GPUs, what the engine
 * predicts per device, and what must come out equal. Definitions are data, so the lesson's
 * claims and the unit tests read the same table.
 */
import { defaultSegmentLength, type Manifest, type ManifestModel } from '../../../graphs/browser-safe';
import { predictLabBytes, type LabParallelism } from '../predict-lab-model';
import type { BatchSplit, LabField, LabSettings } from '../settings';
import type { ClusterJob } from '../../measure/cluster-job';
import { CLUSTER_EXPERIMENT_WORDS as WORDS } from './words';

/** Ids of the cluster experiments; each is a `data-experiment` value. */
export type ClusterExperimentId = 'data-parallel' | 'zero-sharding' | 'pipeline-parallel';

/** One side: how many devices run which job, and the engine's per-device prediction. */
export interface ClusterSideSpec {
  readonly label: string;
  readonly devices: (settings: LabSettings) => number;
  /** The manifest entry this side's devices load (an id suffix after the model family). */
  readonly variant: (settings: LabSettings) => string;
  readonly job: (model: ManifestModel, settings: LabSettings, manifest: Manifest) => ClusterJob;
  /** The memory engine's figure for one device (the first pipeline stage: the larger one). */
  readonly predict: (model: ManifestModel, settings: LabSettings) => number;
}

/** A cluster experiment: one job on one or more virtual GPUs (before) against the same on several (after). */
export interface ClusterExperimentDefinition {
  readonly id: ClusterExperimentId;
  readonly before: ClusterSideSpec;
  readonly after: ClusterSideSpec;
  /** What must match between the sides: gradients, or the weights after the optimizer step. */
  readonly compares: 'gradients' | 'weights';
  /** Largest relative difference still called equal. */
  readonly tolerance: number;
  readonly fields: readonly LabField[];
  readonly splits: readonly BatchSplit[];
  readonly defaults: Partial<LabSettings>;
}

/** Adam's learning rate in the ZeRO experiment (one step; the value only scales the update). */
export const ZERO_LEARNING_RATE = 1e-3;

const segmented = (s: LabSettings): string => `seg${defaultSegmentLength(s.layers)}.keep.fp32`;
const perDevice = (s: LabSettings, devices: number) => ({ batch: s.batch / devices, microBatches: 1 });
/** A side of the ZeRO experiment: every device runs data parallel with Adam, sharded at `stage`. */
const zeroSide = (label: string, stage: 0 | 2): ClusterSideSpec => ({
  label,
  devices: (s) => s.devices,
  variant: segmented,
  job: (model, s, manifest) => ({
    kind: 'zero',
    model,
    batch: s.batch,
    stage,
    learningRate: ZERO_LEARNING_RATE,
    adam: manifest.utilities.adam,
  }),
  predict: (model, s) =>
    predictLabBytes(model, perDevice(s, s.devices), { dp: s.devices, zero: stage, optimizer: 'adamw' } satisfies LabParallelism),
});
/** What a reader sets where the batch splits into one shard per device (data parallel, ZeRO). */
const SHARDED_BATCH = {
  fields: ['hidden', 'layers', 'batch', 'devices'],
  splits: ['devices'],
  defaults: { devices: 2 },
} as const satisfies Pick<ClusterExperimentDefinition, 'fields' | 'splits' | 'defaults'>;
const pipelineSide = (label: string, stages: (s: LabSettings) => number): ClusterSideSpec => ({
  label,
  devices: stages,
  variant: (s) => `stages${stages(s)}.keep.fp32`,
  job: (model, s, manifest) => ({
    kind: 'pipeline',
    model,
    batch: s.batch,
    microBatches: s.microBatches,
    accumulate: manifest.utilities.accumulate,
  }),
  predict: (model, s) => predictLabBytes(model, { batch: s.batch, microBatches: s.microBatches }, { pp: stages(s) }),
});

/** Every cluster experiment, by id. */
export const CLUSTER_EXPERIMENTS: Readonly<Record<ClusterExperimentId, ClusterExperimentDefinition>> = {
  'data-parallel': {
    id: 'data-parallel',
    before: {
      label: WORDS.sides['data-parallel'].before,
      devices: () => 1,
      variant: segmented,
      job: (model, s) => ({ kind: 'data-parallel', model, batch: s.batch }),
      predict: (model, s) => predictLabBytes(model, perDevice(s, 1)),
    },
    after: {
      label: WORDS.sides['data-parallel'].after,
      devices: (s) => s.devices,
      variant: segmented,
      job: (model, s) => ({ kind: 'data-parallel', model, batch: s.batch }),
      predict: (model, s) => predictLabBytes(model, perDevice(s, s.devices), { dp: s.devices }),
    },
    compares: 'gradients',
    // The mean of per-device means equals the whole batch's mean, summed in another order.
    tolerance: 1e-5,
    ...SHARDED_BATCH,
  },
  'zero-sharding': {
    id: 'zero-sharding',
    before: zeroSide(WORDS.sides['zero-sharding'].before, 0),
    after: zeroSide(WORDS.sides['zero-sharding'].after, 2),
    compares: 'weights',
    // Identical averaged gradients and the same Adam arithmetic: the weights match to rounding.
    tolerance: 1e-5,
    ...SHARDED_BATCH,
  },
  'pipeline-parallel': {
    id: 'pipeline-parallel',
    before: pipelineSide(WORDS.sides['pipeline-parallel'].before, () => 1),
    after: pipelineSide(WORDS.sides['pipeline-parallel'].after, (s) => s.devices),
    compares: 'gradients',
    tolerance: 1e-5,
    fields: ['hidden', 'layers', 'batch', 'microBatches', 'devices'],
    splits: ['microBatches'],
    defaults: { devices: 2, microBatches: 4 },
  },
};

/** The manifest entry a side runs at the reader's sizes; throws if the factory made none. */
export function findClusterModel(manifest: Manifest, side: ClusterSideSpec, settings: LabSettings): ManifestModel {
  const id = `mlp-h${settings.hidden}-l${settings.layers}.${side.variant(settings)}`;
  const model = manifest.models.find((m) => m.id === id);
  if (!model) throw new Error(`No model ${id} in the manifest; run \`npm run models\`.`);
  return model as ManifestModel;
}
