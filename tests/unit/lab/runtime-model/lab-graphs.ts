/**
 * The lab's graphs as the runtime model reads them: each graph's manifest entry
 * (public/models/manifest.json) with the nodes (as serialize.ts writes them) and tensor shapes of
 * the builder that wrote it (src/graphs/factory.ts), so the tests follow the exact nodes the lab
 * runs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoCatalog } from '../../../../src/graphs/catalog.ts';
import { lowerMatrixProduct } from '../../../../src/graphs/einsum-lowering.ts';
import { planGraphs } from '../../../../src/graphs/factory.ts';
import type { Manifest, ManifestModel } from '../../../../src/graphs/manifest.ts';
import type { GraphSchedule } from '../../../../src/lab/runtime-model/graph-schedule.ts';

/** The manifest the lab reads (public/models/manifest.json). */
export const labManifest = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../../../public/models/manifest.json'), 'utf8'),
) as Manifest;

/** A model variant's manifest entry, by id (`mlp-h128-l4.train.keep.fp32`). */
export function manifestModel(id: string): ManifestModel {
  const model = labManifest.models.find((m) => m.id === id);
  if (!model) throw new Error(`no ${id} in public/models/manifest.json (npm run models)`);
  return model;
}

/** Every graph of the model variant `id`, in the manifest's order, with its nodes. */
export function labGraphs(id: string): GraphSchedule[] {
  const model = manifestModel(id);
  const demo = demoCatalog().find((d) => d.family === model.family);
  const variant = demo?.variants.find((v) => `${model.family}.${v.key}` === id);
  if (!demo || !variant) throw new Error(`no catalog entry builds ${id}`);
  return planGraphs(demo, variant).map((planned, index) => {
    const entry = model.graphs[index];
    if (!entry) throw new Error(`${id} lists fewer graphs than its catalog entry builds`);
    const builder = planned.build();
    return {
      ...entry,
      initializers: [...builder.constants.keys()],
      // As serialize.ts writes them: matrix products become Einsums.
      nodes: builder.nodes
        .map((built) => lowerMatrixProduct(builder, built))
        .map(({ opType, inputs, outputs, attributes }) => ({
          opType,
          inputs,
          outputs,
          attributes: JSON.stringify(Object.entries(attributes).sort(([a], [b]) => a.localeCompare(b))),
        })),
      tensors: builder.tensors,
    };
  });
}
