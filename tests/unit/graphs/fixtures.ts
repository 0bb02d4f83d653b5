/** Small models and feeds shared by the graph tests. */
import { syntheticBatch } from '../../../src/graphs/data.ts';
import { initWeights } from '../../../src/graphs/init.ts';
import { createMlp } from '../../../src/graphs/mlp.ts';
import { allParameters, type LayeredModel } from '../../../src/graphs/model.ts';
import { createTinyGpt } from '../../../src/graphs/tiny-gpt.ts';
import type { Values } from './helpers.ts';

/** A model small enough for finite differences, with feeds for a given batch. */
export interface Case {
  readonly label: string;
  readonly model: LayeredModel;
  feeds(batch: number, seed?: number): { data: Values; labels: Float32Array | BigInt64Array };
  weights(seed?: number): Record<string, Float32Array>;
}

const mlpSpec = { hidden: 8, layers: 4, classes: 5 };
const gptSpec = { hidden: 8, layers: 3, heads: 2, seq: 5, vocab: 13 };

function perturbed(model: LayeredModel, seed: number): Record<string, Float32Array> {
  // Non-zero biases and non-trivial LayerNorm gains, so every gradient path is exercised.
  const weights = initWeights(allParameters(model), seed);
  let i = 0;
  for (const values of Object.values(weights))
    for (let j = 0; j < values.length; j++) values[j] = (values[j] ?? 0) + 0.05 * Math.sin(++i);
  return weights;
}

/** The MLP and tiny-GPT test cases. */
export const CASES: readonly Case[] = [
  {
    label: 'mlp',
    model: createMlp(mlpSpec),
    feeds: (batch, seed = 1) => {
      const { data, labels } = syntheticBatch({ arch: 'mlp', ...mlpSpec }, batch, seed);
      return { data, labels };
    },
    weights: (seed = 7) => perturbed(createMlp(mlpSpec), seed),
  },
  {
    label: 'tiny-gpt',
    model: createTinyGpt(gptSpec),
    feeds: (batch, seed = 1) => {
      const { data, labels } = syntheticBatch({ arch: 'tiny-gpt', ...gptSpec }, batch, seed);
      return { data, labels };
    },
    weights: (seed = 7) => {
      const w = perturbed(createTinyGpt(gptSpec), seed);
      // Scale the embeddings up so attention is far from uniform.
      for (const name of ['tok_emb', 'pos_emb']) w[name] = Float32Array.from(w[name] ?? [], (v) => v * 20);
      return w;
    },
  },
];
