import type { ManifestGraph } from '../../graphs/browser-safe';

/** One graph run of a step: which names it reads, and which names are dead after it. */
export interface PlannedRun {
  readonly file: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  /** Intermediate tensors no later run reads: dispose them right after this run. */
  readonly release: readonly string[];
}

/**
 * Orders a model's graphs into runs and works out when each intermediate tensor can be
 * freed, the way a framework frees an activation once the backward has used it. Names fed from
 * outside (`external`: data, labels, weights) and names in `keep` (the results: loss,
 * gradients) are never released. Throws if a graph reads a name nothing provides.
 */
export function planStep(
  graphs: readonly ManifestGraph[],
  external: ReadonlySet<string>,
  keep: (name: string) => boolean,
): PlannedRun[] {
  const lastRead = new Map<string, number>();
  const produced = new Set<string>();
  graphs.forEach((graph, index) => {
    for (const input of graph.inputs) {
      if (!external.has(input.name) && !produced.has(input.name)) {
        throw new Error(`${graph.file} reads ${input.name}, which no earlier graph produces and no feed provides`);
      }
      lastRead.set(input.name, index);
    }
    for (const output of graph.outputs) produced.add(output.name);
  });
  return graphs.map((graph, index) => ({
    file: graph.file,
    inputs: graph.inputs.map((i) => i.name),
    outputs: graph.outputs.map((o) => o.name),
    release: [...produced].filter(
      (name) => !keep(name) && !external.has(name) && (lastRead.get(name) ?? producedAt(graphs, name)) === index,
    ),
  }));
}

function producedAt(graphs: readonly ManifestGraph[], name: string): number {
  return graphs.findIndex((g) => g.outputs.some((o) => o.name === name));
}
