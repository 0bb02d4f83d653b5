import type { LineCategory } from '../memory/index';

/** Plain words for each part of one GPU's memory, shared by every widget that names them (one place to translate). */
export const MEMORY_PART_LABELS: Readonly<Record<LineCategory, string>> = {
  weights: 'weights',
  gradients: 'gradients',
  optimizer: 'optimizer states',
  activations: 'activations',
  kvCache: 'KV cache',
  overhead: 'CUDA context & workspace',
};
