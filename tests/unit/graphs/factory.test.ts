/** Static properties of the graphs: what the backward keeps, the recompute gate, determinism. */
import { describe, expect, test } from 'vitest';
import type { GraphBuilder } from '../../../src/graphs/builder.ts';
import { demoCatalog } from '../../../src/graphs/catalog.ts';
import { generateModel } from '../../../src/graphs/factory.ts';
import { createMlp } from '../../../src/graphs/mlp.ts';
import { segmentRanges } from '../../../src/graphs/segments.ts';
import { savedActivations } from '../../../src/graphs/stages.ts';
import { createTinyGpt } from '../../../src/graphs/tiny-gpt.ts';
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
    // One gate per segment: checkpoint + 0·ReduceMax(incoming gradient).
    expect(graph.nodes.filter((n) => n.opType === 'ReduceMax')).toHaveLength(segmentRanges(8, 3).length);
  });

  test('fp16: the same tensors are kept, in float16', () => {
    const graph = buildTrainStepGraph(model, { precision: 'fp16' });
    const kept = keptForBackward(graph);
    expect(kept.filter((n) => n.startsWith('act')).map((n) => graph.info(n).dtype)).toEqual(Array(8).fill('float16'));
    // The loss runs in fp32, as under torch.autocast.
    expect(graph.info('logprobs').dtype).toBe('float32');
  });
});

describe('generated files', () => {
  test('building twice gives the same bytes', () => {
    const model = createTinyGpt({ hidden: 16, layers: 2, heads: 2, seq: 8, vocab: 32 });
    const demo = { family: 'g', model, shapes: { hidden: 16, layers: 2, batch: 2 }, variants: [] };
    for (const variant of [
      { key: 'a', precision: 'fp16' as const, form: 'single' as const, activations: 'recompute' as const, segmentLayers: 1 },
      { key: 'b', precision: 'fp32' as const, form: 'segmented' as const, activations: 'keep' as const, segmentLayers: 1 },
    ]) {
      const first = generateModel(demo, variant);
      const second = generateModel(demo, variant);
      expect(second.files.map((f) => f.path)).toEqual(first.files.map((f) => f.path));
      second.files.forEach((f, i) => expect(Buffer.from(f.bytes).equals(Buffer.from(first.files[i]?.bytes ?? []))).toBe(true));
      expect(second.entry).toEqual(first.entry);
    }
  });

  test('the catalog is small, ids are unique, and every graph input is available when its turn comes', () => {
    const generated = demoCatalog().flatMap((demo) => demo.variants.map((v) => generateModel(demo, v)));
    const bytes = generated.reduce((n, g) => n + g.entry.bytes, 0);
    expect(bytes).toBeLessThan(40 * 2 ** 20);
    expect(new Set(generated.map((g) => g.entry.id)).size).toBe(generated.length);
    for (const { entry } of generated) {
      const available = new Set([
        entry.arch === 'mlp' ? 'x' : 'tokens',
        'labels',
        'lr',
        'loss_scale',
        ...entry.parameters.flatMap((p) => [p.name, `acc_in.${p.name}`]),
      ]);
      for (const graph of entry.graphs) {
        for (const input of graph.inputs) expect(available.has(input.name), `${graph.file} needs ${input.name}`).toBe(true);
        for (const output of graph.outputs) available.add(output.name);
      }
      if (entry.variant.training && !entry.variant.accumulate && !entry.variant.sgd)
        for (const p of entry.parameters) expect(available.has(`grad.${p.name}`), `${entry.id} grad.${p.name}`).toBe(true);
    }
  });
});
