/**
 * The measuring core's executor in Node: onnxruntime-web's WASM backend, graphs built in memory
 * from the same catalog code the site's build uses, and small models so each test runs in seconds.
 */
import * as ort from 'onnxruntime-web';
import type { DemoModel, VariantSpec as CatalogVariant } from '../../../../src/graphs/catalog.ts';
import { generateModel, generateUtility } from '../../../../src/graphs/factory.ts';
import type { ManifestGraph, ManifestModel } from '../../../../src/graphs/manifest.ts';
import { createMlp } from '../../../../src/graphs/mlp.ts';
import { buildAccumulateGraph, buildAdamGraph } from '../../../../src/graphs/optimizer.ts';
import { segmentRanges, stageRanges } from '../../../../src/graphs/segments.ts';
import type { DeviceRun } from '../../../../src/lab/measure/cluster-device.ts';
import { createExecutor, type Executor, type TensorStore } from '../../../../src/lab/measure/executor.ts';
import { hostStore } from '../../../../src/lab/measure/host-store.ts';
import { createMemoryTracker, type MemoryTracker } from '../../../../src/lab/measure/memory-tracker.ts';
import { createMeter } from '../../../../src/lab/measure/meter.ts';
import { localCluster } from '../../../../src/lab/experiments/cluster/local-cluster.ts';

ort.env.wasm.numThreads = 1;
ort.env.logLevel = 'error';

/** Graph files by path, as the site serves them. */
export type GraphFiles = Map<string, Uint8Array>;

/** A small MLP family: width 16, 4 layers, 4 classes. */
export const SMALL_MLP: DemoModel = {
  family: 'mlp-h16-l4',
  model: createMlp({ hidden: 16, layers: 4, classes: 4 }),
  shapes: { hidden: 16, layers: 4, classes: 4, batch: 8 },
  variants: [],
};

/** The catalog's variants of the small MLP that the tests run, by key. */
export const SMALL_VARIANTS = {
  keep: { key: 'train.keep.fp32', precision: 'fp32', form: 'single', activations: 'keep' },
  recompute: { key: 'train.rc2.fp32', precision: 'fp32', form: 'single', activations: 'recompute', segmentLayers: 2 },
  accumulate: { key: 'train.acc.keep.fp32', precision: 'fp32', form: 'single', activations: 'keep', accumulate: true },
  segmentedKeep: { key: 'seg2.keep.fp32', precision: 'fp32', form: 'segmented', activations: 'keep', segmentLayers: 2 },
  segmentedRecompute: { key: 'seg2.rc.fp32', precision: 'fp32', form: 'segmented', activations: 'recompute', segmentLayers: 2 },
  layerwise: {
    key: 'layerwise.keep.fp32',
    precision: 'fp32',
    form: 'segmented',
    activations: 'keep',
    ranges: segmentRanges(4, 1),
  },
  stages2: { key: 'stages2.keep.fp32', precision: 'fp32', form: 'segmented', activations: 'keep', ranges: stageRanges(4, 2) },
} as const satisfies Record<string, CatalogVariant>;

/** Builds a variant of the small MLP, adding its files to `files`. */
export function smallModel(files: GraphFiles, variant: CatalogVariant): ManifestModel {
  const { entry, files: generated } = generateModel(SMALL_MLP, variant);
  for (const file of generated) files.set(file.path, file.bytes);
  return entry;
}

/** The shared utility graphs (Adam, accumulate), adding their files to `files`. */
export function utilities(files: GraphFiles): { adam: ManifestGraph; accumulate: ManifestGraph } {
  const adam = generateUtility('adam', buildAdamGraph());
  const accumulate = generateUtility('accumulate', buildAccumulateGraph());
  for (const { file } of [adam, accumulate]) files.set(file.path, file.bytes);
  return { adam: adam.graph, accumulate: accumulate.graph };
}

/**
 * Session work of every executor in this process, one call at a time: the browser gives each
 * device a worker and a runtime of its own, while here all devices share one WebAssembly instance,
 * which does not take interleaved runs.
 */
let queue: Promise<unknown> = Promise.resolve();
function serialized<T>(work: () => Promise<T>): Promise<T> {
  const next = queue.then(work);
  queue = next.catch(() => undefined);
  return next;
}

/** An executor over onnxruntime-web's WASM backend that reads graphs from `files`. */
export function nodeExecutor(
  files: GraphFiles,
  store: TensorStore = hostStore(ort),
  tracker: MemoryTracker = createMemoryTracker(),
): Executor {
  const exec = createExecutor({
    ort,
    backend: 'wasm',
    store,
    meter: createMeter(tracker),
    loadGraph: async (file) => {
      const bytes = files.get(file);
      if (!bytes) throw new Error(`no graph file ${file}`);
      return bytes;
    },
  });
  return {
    ...exec,
    open: (graph, keep) => serialized(() => exec.open(graph, keep)),
    async openAll(graphs, keep) {
      const sessions = [];
      for (const graph of graphs) sessions.push(await serialized(() => exec.open(graph, keep)));
      return sessions;
    },
    run: (session, feeds) => serialized(() => exec.run(session, feeds)),
  };
}

/**
 * A host store whose uploads count as device memory in `tracker`: each upload is a tensor of its
 * own, allocated when made and freed on dispose, as a WebGPU storage buffer would be. It lets the
 * weight stream run (and be counted) without a GPU.
 */
export function countingUploadStore(tracker: MemoryTracker): TensorStore & { readonly uploads: number[] } {
  const host = hostStore(ort);
  const uploads: number[] = [];
  return {
    ...host,
    onDevice: true,
    uploads,
    upload(feed) {
      const data = Float32Array.from(feed.data as Float32Array);
      const token = {};
      tracker.allocated(token, data.byteLength);
      uploads.push(data.byteLength);
      const tensor = new ort.Tensor('float32', data, feed.dims);
      const release = tensor.dispose.bind(tensor);
      tensor.dispose = () => {
        tracker.freed(token);
        release();
      };
      return tensor;
    },
  };
}

/**
 * `size` devices in one process, linked by the page's router (local-cluster.ts), each with its
 * own executor (`executor()`, by default one over `files`): the cluster experiments' workers without the workers.
 */
export function localNodeCluster(
  files: GraphFiles,
  size: number,
  seed: number,
  steps: number,
  executor: () => Executor = () => nodeExecutor(files),
): DeviceRun[] {
  return localCluster(size, seed, steps, executor);
}
