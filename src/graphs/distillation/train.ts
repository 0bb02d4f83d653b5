/**
 * Build-time training of an MLP with the site's own SGD step graphs, run by onnxruntime-web's
 * WebAssembly backend in Node (onnxruntime-web 1.30 has no training API: see autodiff.ts).
 * Deterministic: seeded weights, examples taken in order, one thread.
 */
import type * as Ort from 'onnxruntime-web';
import { initWeights } from '../init.ts';
import type { LayeredModel } from '../model.ts';
import { allParameters } from '../model.ts';
import { serializeModel } from '../serialize.ts';
import { buildTrainStepGraph } from '../variants.ts';
import type { LabelledExamples } from './dataset.ts';
import type { SgdSchedule } from './spec.ts';
import { FEATURES, LABELS, LEARNING_RATE, LOSS, nextName } from '../tensor-names.ts';

type OrtModule = typeof Ort;

const tensor = (ort: OrtModule, data: Float32Array, dims: readonly number[]): Ort.Tensor => new ort.Tensor('float32', data, dims);

/** Trains `model` on `data` with plain SGD (cross-entropy); returns the trained fp32 weights. */
export async function trainWithSgd(
  ort: OrtModule,
  model: LayeredModel,
  data: LabelledExamples,
  schedule: SgdSchedule,
): Promise<Record<string, Float32Array>> {
  const params = allParameters(model);
  const session = await ort.InferenceSession.create(serializeModel(buildTrainStepGraph(model, { sgd: true })), {
    executionProviders: ['wasm'],
  });
  const width = data.x.length / data.count;
  let weights = initWeights(params, schedule.seed);
  try {
    for (let step = 0; step < schedule.steps; step++) {
      // Consecutive windows of the training set, wrapping around: epochs in a fixed order.
      const start = (step * schedule.batch) % data.count;
      const count = Math.min(schedule.batch, data.count - start);
      const feeds: Record<string, Ort.Tensor> = {
        [FEATURES]: tensor(ort, data.x.slice(start * width, (start + count) * width), [count, width]),
        [LABELS]: tensor(ort, data.labels.slice(start, start + count), [count]),
        [LEARNING_RATE]: tensor(ort, Float32Array.of(schedule.lr), []),
      };
      for (const p of params) feeds[p.name] = tensor(ort, weights[p.name] ?? new Float32Array(), p.shape);
      const out = await session.run(feeds);
      const loss = (out[LOSS]?.data as Float32Array | undefined)?.[0];
      if (loss === undefined || !Number.isFinite(loss))
        throw new Error(`teacher training diverged at step ${step} (loss ${loss})`);
      weights = Object.fromEntries(params.map((p) => [p.name, out[nextName(p.name)]?.data as Float32Array]));
    }
  } finally {
    await session.release();
  }
  return weights;
}
