/** The generated model files: deterministic bytes, a small catalog, every graph input available when its turn comes. */
import { describe, expect, test } from 'vitest';
import { demoCatalog } from '../../../src/graphs/catalog.ts';
import { generateModel } from '../../../src/graphs/factory.ts';
import { createTinyGpt } from '../../../src/graphs/tiny-gpt.ts';

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
