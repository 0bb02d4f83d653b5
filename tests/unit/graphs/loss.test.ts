/**
 * The MLP's losses read their labels only through ops onnxruntime-web runs on the GPU: no shape
 * op (Size, Shape), which onnxruntime assigns to its CPU provider, so that labels placed on the
 * device are never copied back to the host on a run (loss.ts, `labelCount`).
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
