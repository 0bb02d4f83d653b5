/** The engine's description of the lab's plain MLP, for the tests that hold the two to the same parameter count. */
import type { MlpSpec } from '../../../src/graphs/mlp.ts';
import type { ModelConfig } from '../../../src/memory/index.ts';

/**
 * The ModelConfig of the MLP graph `spec` describes. An MLP has no attention, positions or experts: the engine reads one
 * head, no positions, one expert, and an FFN as wide as the hidden layer (one Linear per layer), as the demo-mlp preset
 * does.
 */
export function mlpModelConfig({ hidden, layers, classes, inputs }: MlpSpec): ModelConfig {
  return {
    arch: 'mlp',
    hidden,
    layers,
    heads: 1,
    kvHeads: 1,
    ffn: hidden,
    vocab: classes,
    positions: 0,
    tiedEmbeddings: false,
    experts: 1,
    topK: 1,
    contextLength: 1,
    slidingWindow: null,
    ...(inputs === undefined ? {} : { inputs }),
  };
}
