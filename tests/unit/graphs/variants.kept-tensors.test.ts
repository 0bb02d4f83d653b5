/** What the train-step graph's backward keeps from the forward: the memory convention src/memory counts for the MLP. */
import { describe, expect, test } from 'vitest';
import type { GraphBuilder } from '../../../src/graphs/builder.ts';
import { createMlp } from '../../../src/graphs/mlp.ts';
import { segmentRanges } from '../../../src/graphs/segments.ts';
import { savedActivations } from '../../../src/graphs/stages.ts';
import { buildTrainStepGraph } from '../../../src/graphs/variants.ts';

/** Forward-computed tensors that backward nodes (`grad/` scope, recompute copies `rc…/`) read. */
function keptForBackward(b: GraphBuilder): string[] {
  const isBackward = (name: string): boolean =>
    name.split('/').includes('grad') || name.startsWith('grad.') || name.startsWith('rc');
  const forwardProduced = new Set(b.nodes.filter((n) => !isBackward(n.name)).flatMap((n) => n.outputs));
  const kept = new Set<string>();
  for (const n of b.nodes) if (isBackward(n.name)) for (const i of n.inputs) if (forwardProduced.has(i)) kept.add(i);
  return [...kept].sort();
}

const acts = (indices: number[]): string[] => indices.map((i) => `act${i}`);

describe('MLP memory convention (shared with src/memory)', () => {
  const model = createMlp({ hidden: 16, layers: 8, classes: 10 });

  test('keep: the backward reads one batch×h tensor per hidden layer, plus the log-probabilities', () => {
    expect(keptForBackward(buildTrainStepGraph(model))).toEqual([...acts([1, 2, 3, 4, 5, 6, 7, 8]), 'logprobs'].sort());
    expect([...savedActivations(model, [0, 8])].sort()).toEqual(acts([1, 2, 3, 4, 5, 6, 7, 8]).sort());
  });

  test('recompute(3): only segment inputs, the last activation and the log-probabilities survive the forward', () => {
    const graph = buildTrainStepGraph(model, { recompute: 3 });
    expect(keptForBackward(graph)).toEqual([...acts([3, 6, 8]), 'logprobs'].sort());
    // One gate per segment: checkpoint + 0·ReduceMax(incoming gradient), a scalar (the loss's
    // log-softmax also takes each row's max, keeping the row).
    const gates = graph.nodes.filter((n) => n.opType === 'ReduceMax' && graph.info(n.outputs[0] ?? '').shape.length === 0);
    expect(gates).toHaveLength(segmentRanges(8, 3).length);
  });

  test('fp16: the same tensors are kept, in float16', () => {
    const graph = buildTrainStepGraph(model, { precision: 'fp16' });
    const kept = keptForBackward(graph);
    expect(kept.filter((n) => n.startsWith('act')).map((n) => graph.info(n).dtype)).toEqual(Array(8).fill('float16'));
    // The loss runs in fp32, as under torch.autocast.
    expect(graph.info('logprobs').dtype).toBe('float32');
  });
});
