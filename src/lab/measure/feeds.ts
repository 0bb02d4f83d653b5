import {
  FEATURES,
  initWeights,
  LABELS,
  syntheticBatch,
  TOKENS,
  type BatchShape,
  type ManifestModel,
} from '../../graphs/browser-safe';

/** A feed as plain typed data, before it becomes an onnxruntime tensor. */
export interface FeedData {
  readonly data: Float32Array | BigInt64Array;
  readonly dims: readonly number[];
}

/** The data and labels of examples [start, start + count) of a step's batch. */
export function batchSlice(
  model: ManifestModel,
  batch: number,
  seed: number,
  start: number,
  count: number,
): Record<string, FeedData> {
  const { shapes } = model;
  const shape: BatchShape =
    model.arch === 'mlp'
      ? { arch: 'mlp', hidden: shapes.hidden, classes: shapes.classes ?? 0 }
      : { arch: 'tiny-gpt', seq: shapes.seq ?? 0, vocab: shapes.vocab ?? 0 };
  const full = syntheticBatch(shape, batch, seed);
  const perExample = full.data.length / batch;
  const labelsPerExample = full.labels.length / batch;
  const inputName = model.arch === 'mlp' ? FEATURES : TOKENS;
  const rowDims = model.arch === 'mlp' ? [shapes.hidden] : [shapes.seq ?? 0];
  const labelDims = model.arch === 'mlp' ? [] : [shapes.seq ?? 0];
  return {
    [inputName]: { data: full.data.slice(start * perExample, (start + count) * perExample), dims: [count, ...rowDims] },
    [LABELS]: {
      data: full.labels.slice(start * labelsPerExample, (start + count) * labelsPerExample),
      dims: [count, ...labelDims],
    },
  };
}

/** Initial fp32 weights of the model, by parameter name, from the seed. */
export function weightFeeds(model: ManifestModel, seed: number): Record<string, FeedData> {
  const weights = initWeights(model.parameters, seed);
  const feeds: Record<string, FeedData> = {};
  for (const p of model.parameters) feeds[p.name] = { data: weights[p.name] ?? new Float32Array(), dims: p.shape };
  return feeds;
}
