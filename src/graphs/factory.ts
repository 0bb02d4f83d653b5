/** Turns a catalog entry into .onnx files and its manifest entry (build time). */
import type { GraphBuilder } from './builder.ts';
import type { DemoModel, VariantSpec } from './catalog.ts';
import { computeDtype } from './context.ts';
import { lowerMatrixProduct } from './einsum-lowering.ts';
import type { ManifestGraph, ManifestModel, GraphRole } from './manifest.ts';
import { allParameters } from './model.ts';
import { parameterCount } from './params.ts';
import { schedulePath, type ScheduleFile } from './schedule-file.ts';
import { segmentRanges, type LayerRange } from './segments.ts';
import { serializeModel } from './serialize.ts';
import { buildLossGraph, buildStageBackwardGraph, buildStageForwardGraph } from './stages.ts';
import { buildInferenceGraph, buildTrainStepGraph } from './variants.ts';

/** A generated file. */
export interface GeneratedFile {
  /** Path relative to `public/models/`. */
  readonly path: string;
  /** The serialised model, or its schedule file's JSON. */
  readonly bytes: Uint8Array;
}

/** A manifest entry and the files it names, each graph's `.onnx` and its schedule file. */
export interface GeneratedModel {
  readonly entry: ManifestModel;
  readonly files: readonly GeneratedFile[];
}

/** One graph of a variant, not yet built: its name, its role and how to build it. */
interface PlannedGraph {
  readonly name: string;
  readonly role: GraphRole;
  readonly layers?: LayerRange;
  readonly build: () => GraphBuilder;
}

/** The graphs of one variant in the order a step runs them (the manifest's order). */
function planGraphs(demo: DemoModel, v: VariantSpec): PlannedGraph[] {
  const { model } = demo;
  const precision = v.precision;
  if (v.form === 'inference')
    return [{ name: 'model', role: 'inference', build: () => buildInferenceGraph(model, { precision }) }];
  if (v.form === 'single') {
    const recompute = v.activations === 'recompute' ? v.segmentLayers : undefined;
    return [
      {
        name: 'step',
        role: 'train-step',
        build: () => buildTrainStepGraph(model, { precision, recompute, accumulate: v.accumulate ?? false, sgd: v.sgd ?? false }),
      },
    ];
  }
  const ranges = v.ranges ?? segmentRanges(model.layers, v.segmentLayers ?? 1);
  const options = { precision, activations: v.activations };
  return [
    ...ranges.map((r): PlannedGraph => ({
      name: `forward-${r[0]}-${r[1]}`,
      role: 'stage-forward',
      layers: r,
      build: () => buildStageForwardGraph(model, r, options),
    })),
    { name: 'loss', role: 'loss', build: () => buildLossGraph(model, { precision }) },
    ...[...ranges].reverse().map((r): PlannedGraph => ({
      name: `backward-${r[0]}-${r[1]}`,
      role: 'stage-backward',
      layers: r,
      build: () => buildStageBackwardGraph(model, r, options),
    })),
  ];
}

/** The schedule of the graph `builder` holds, with its nodes as serialize.ts writes them. */
export function scheduleOf(builder: GraphBuilder): ScheduleFile {
  return {
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
    tensors: Object.fromEntries(builder.tensors),
  };
}

/** A graph's schedule file, compact (the page fetches it). */
export function scheduleBytes(b: GraphBuilder): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(scheduleOf(b))}\n`);
}

function tensorsOf(b: GraphBuilder, names: readonly string[]): ManifestGraph['inputs'] {
  return names.map((name) => ({ name, ...b.info(name) }));
}

/**
 * A shared utility graph (optimizer.ts) as a file under `utilities/`, its schedule file (the
 * runtime model runs the cluster experiments' Adam and accumulate graphs too) and its manifest entry.
 */
export function generateUtility(
  name: string,
  b: GraphBuilder,
): { graph: ManifestGraph; file: GeneratedFile; schedule: GeneratedFile } {
  const path = `utilities/${name}.onnx`;
  const bytes = serializeModel(b, name);
  return {
    graph: { file: path, role: 'utility', inputs: tensorsOf(b, b.inputs), outputs: tensorsOf(b, b.outputs), bytes: bytes.length },
    file: { path, bytes },
    schedule: { path: schedulePath(path), bytes: scheduleBytes(b) },
  };
}

/** Builds every graph of one variant. Deterministic: same inputs, same bytes. */
export function generateModel(demo: DemoModel, v: VariantSpec): GeneratedModel {
  const id = `${demo.family}.${v.key}`;
  const files: GeneratedFile[] = [];
  const schedules: GeneratedFile[] = [];
  const graphs: ManifestGraph[] = planGraphs(demo, v).map((g) => {
    const b = g.build();
    const bytes = serializeModel(b, `${id} ${g.name}`);
    const path = `${demo.family}/${v.key}${g.name === 'model' || g.name === 'step' ? '' : `/${g.name}`}.onnx`;
    files.push({ path, bytes });
    schedules.push({ path: schedulePath(path), bytes: scheduleBytes(b) });
    return {
      file: path,
      role: g.role,
      ...(g.layers ? { layers: g.layers } : {}),
      inputs: tensorsOf(b, b.inputs),
      outputs: tensorsOf(b, b.outputs),
      bytes: bytes.length,
    };
  });
  const parameters = allParameters(demo.model);
  const segmentLayers = v.segmentLayers ?? 1;
  const ranges = v.form === 'segmented' ? (v.ranges ?? segmentRanges(demo.model.layers, segmentLayers)) : undefined;
  const entry: ManifestModel = {
    id,
    family: demo.family,
    arch: demo.model.arch,
    shapes: demo.shapes,
    parameterCount: parameterCount(parameters),
    parameters,
    dtype: computeDtype(v.precision) === 'float16' ? 'float16' : 'float32',
    variant: {
      precision: v.precision,
      training: v.form !== 'inference',
      activations:
        v.activations === 'recompute'
          ? { kind: 'recompute', segmentLayers: v.segmentLayers ?? ranges?.[0]?.[1] ?? 1 }
          : { kind: 'keep' },
      form: v.form === 'segmented' ? 'segmented' : 'single',
      ...(ranges ? { ranges } : {}),
      accumulate: v.accumulate ?? false,
      sgd: v.sgd ?? false,
    },
    graphs,
    bytes: graphs.reduce((n, g) => n + g.bytes, 0),
  };
  // The graph files first, in the manifest's order, then their schedule files.
  return { entry, files: [...files, ...schedules] };
}
