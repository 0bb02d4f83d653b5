/**
 * The MLP's losses use only ops onnxruntime-web runs on the GPU where it matters: labels are read
 * through no shape op (Size, Shape: onnxruntime assigns those to its CPU provider), and the
 * cross-entropy has no LogSoftmax (its WebGPU provider has no such kernel), so that neither labels
 * nor logits are copied back to the host on a run (loss.ts, `labelCount`, `logSoftmaxOnGpu`).
 */
import { describe, expect, test } from 'vitest';
import type { GraphBuilder } from '../../../src/graphs/builder.ts';
import { createMlp } from '../../../src/graphs/mlp.ts';
import { buildLossGraph } from '../../../src/graphs/stages.ts';
import { LABELS } from '../../../src/graphs/tensor-names.ts';
import { buildTrainStepGraph } from '../../../src/graphs/variants.ts';

const mlp = createMlp({ hidden: 8, layers: 2, classes: 5 });
const GRAPHS: readonly (readonly [string, () => GraphBuilder])[] = [
  ['fp32 training step', () => buildTrainStepGraph(mlp, { precision: 'fp32' })],
  ['fp16 training step', () => buildTrainStepGraph(mlp, { precision: 'fp16' })],
  ['accumulating step', () => buildTrainStepGraph(mlp, { precision: 'fp32', accumulate: true })],
  ['distillation step', () => buildTrainStepGraph(mlp, { sgd: true, distillation: true })],
  ['loss stage', () => buildLossGraph(mlp, { precision: 'fp32' })],
];

describe.each(GRAPHS)('the %s', (_, build) => {
  test('takes float32 labels and reads them through Unsqueeze only (then Equal), never through a shape op', () => {
    const b = build();
    expect(b.info(LABELS).dtype).toBe('float32');
    const readers = b.nodes.filter((node) => node.inputs.includes(LABELS)).map((node) => node.opType);
    expect(readers.length).toBeGreaterThan(0);
    expect(new Set(readers)).toEqual(new Set(['Unsqueeze']));
  });
});

test.each(GRAPHS.filter(([label]) => label !== 'distillation step'))(
  'the %s computes its cross-entropy without a LogSoftmax node',
  (_, build) => {
    const opTypes = build().nodes.map((node) => node.opType);
    expect(opTypes).toContain('ReduceMax');
    expect(opTypes).not.toContain('LogSoftmax');
  },
);
