/** The memory engine's predictions for the distillation experiment's three models. */
import type { MlpSpec } from '../../../graphs/browser-safe';
import { estimateMemory, type EstimateOptions } from '../../../memory/index';

/** How a model's weights are stored in the experiment's graphs: fp32, or int8 with one fp32 scale per output column. */
export type StoredWeights = 'fp32' | 'int8';

/** The engine's format for each: the graphs' int8 is LLM.int8's layout (int8 weights, an fp32 scale per output row). */
const ENGINE_FORMAT = { fp32: 'fp32', int8: 'llm-int8' } as const;

/** The `estimate` options (and CLI flags) for one forward pass of an MLP at `batch`. */
export function forwardEstimateOptions(spec: MlpSpec, weights: StoredWeights, batch: number): EstimateOptions {
  return {
    arch: 'mlp',
    hidden: spec.hidden,
    layers: spec.layers,
    vocab: spec.classes,
    ...(spec.inputs !== undefined ? { inputs: spec.inputs } : {}),
    mode: 'infer',
    weights: ENGINE_FORMAT[weights],
    microBatch: batch,
  };
}

/** The engine's weights line alone: the Linear weights in their format, scales included. */
export function predictWeightBytes(spec: MlpSpec, weights: StoredWeights): number {
  const outcome = estimateMemory(forwardEstimateOptions(spec, weights, 1));
  if (!outcome.ok) throw new Error(outcome.errors.map((e) => `${e.field}: ${e.message}`).join('; '));
  return outcome.result.lines.filter((line) => line.category === 'weights').reduce((sum, line) => sum + line.bytes, 0);
}

/**
 * Predicted bytes of one forward pass: weights at their storage width plus the forward working
 * set (`estimateMemory`, infer mode). The CUDA context and workspace lines are left out, since a
 * browser's WebGPU device has neither.
 */
export function predictForwardBytes(spec: MlpSpec, weights: StoredWeights, batch: number): number {
  const outcome = estimateMemory(forwardEstimateOptions(spec, weights, batch));
  if (!outcome.ok) throw new Error(outcome.errors.map((e) => `${e.field}: ${e.message}`).join('; '));
  return outcome.result.lines
    .filter((line) => line.device === 'gpu' && line.category !== 'overhead')
    .reduce((sum, line) => sum + line.bytes, 0);
}
