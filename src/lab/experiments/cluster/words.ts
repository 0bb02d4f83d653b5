/**
 * What the page calls each cluster experiment's sides, and why none runs without WebGPU, in English. The definitions
 * (experiments.ts, run.ts) read these words; a translated page reads its own, typed by `ClusterExperimentWords`, so the
 * lab itself never depends on the site's languages.
 */
import type { ClusterExperimentId } from './experiments';

/** The names of one experiment's two sides. */
export interface ClusterSideNames {
  readonly before: string;
  readonly after: string;
}

/** The words of the cluster experiments. */
export interface ClusterExperimentWords {
  readonly sides: Readonly<Record<ClusterExperimentId, ClusterSideNames>>;
  /** Why a cluster experiment cannot run without WebGPU. */
  readonly needsWebGpu: string;
}

export const CLUSTER_EXPERIMENT_WORDS: ClusterExperimentWords = {
  sides: {
    'data-parallel': { before: 'one GPU, whole batch', after: 'data parallel' },
    'zero-sharding': { before: 'DDP + Adam (ZeRO-0)', after: 'ZeRO-2' },
    'pipeline-parallel': { before: 'one GPU, all layers', after: 'pipeline (1F1B)' },
  },
  needsWebGpu:
    'This experiment needs WebGPU: each virtual GPU is a WebGPU device in a worker of its own, and its memory is the GPU buffers that device allocates. Without WebGPU the tensors would live in ordinary JavaScript memory, which a page cannot measure per worker. Open the page in a browser with WebGPU (Chrome, Edge, or Safari 26 and newer).',
};
