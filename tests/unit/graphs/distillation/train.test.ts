/** Build-time training (the distillation teacher's): plain SGD with the site's own step graphs. */
import * as ort from 'onnxruntime-web';
import { describe, expect, test } from 'vitest';
import { distillationExamples } from '../../../../src/graphs/distillation/dataset.ts';
import { DISTILLATION_TASK } from '../../../../src/graphs/distillation/spec.ts';
import { trainWithSgd } from '../../../../src/graphs/distillation/train.ts';
import { initWeights } from '../../../../src/graphs/init.ts';
import { createMlp } from '../../../../src/graphs/mlp.ts';
import { allParameters } from '../../../../src/graphs/model.ts';
import { buildTrainStepGraph } from '../../../../src/graphs/variants.ts';
import { createRunner } from '../helpers.ts';

const model = createMlp({ inputs: DISTILLATION_TASK.inputs, hidden: 16, layers: 1, classes: DISTILLATION_TASK.classes });
const data = distillationExamples(DISTILLATION_TASK, 'teacher-train', 256);
const schedule = { steps: 20, batch: 64, lr: 0.5, seed: 1 };

describe('trainWithSgd', () => {
  test('lowers the training loss from the seeded initial weights', async () => {
    const trained = await trainWithSgd(ort, model, data, schedule);
    const lossOf = async (weights: Readonly<Record<string, Float32Array>>): Promise<number> => {
      const run = await createRunner(buildTrainStepGraph(model, { sgd: true }), { batch: data.count });
      return (await run({ ...weights, x: data.x, labels: data.labels, lr: [0] })).values['loss']?.[0] ?? NaN;
    };
    const initial = initWeights(allParameters(model), schedule.seed);
    expect(await lossOf(trained)).toBeLessThan(0.9 * (await lossOf(initial)));
  });

  test('stops with the step when the loss diverges', async () => {
    await expect(trainWithSgd(ort, model, data, { ...schedule, lr: 1e30 })).rejects.toThrow(/diverged at step/);
  });
});
