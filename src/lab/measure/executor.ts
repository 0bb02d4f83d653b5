/**
 * The small interface every step loop of the measuring core is written against: open a graph,
 * place tensors, run, read, dispose, count bytes, report progress. The browser's workers build
 * one over a WebGPU device or the WebAssembly backend (worker/measured-runtime.ts); the unit tests build
 * one over onnxruntime's WASM backend in Node. Nothing here touches `self`, `navigator.gpu` or
 * WebAssembly.
 */
import type * as OrtModule from 'onnxruntime-web';
import type { ManifestGraph } from '../../graphs/browser-safe';
import type { FeedData } from './feeds';
import type { Meter } from './meter';
import type { RunStage } from './run-stage';

/** Where a run executes: onnxruntime-web's WebGPU backend, or its WebAssembly backend on the CPU. */
export type Backend = 'webgpu' | 'wasm';

/** The onnxruntime-web module (its WebGPU or WASM build). */
export type Ort = typeof OrtModule;
/** An onnxruntime tensor, on the host or in a GPU buffer. */
export type Tensor = OrtModule.Tensor;
/** An onnxruntime inference session. */
export type Session = OrtModule.InferenceSession;
/** Named tensors, as a session takes and returns them. */
export type Tensors = Record<string, Tensor>;

/** Bytes held after a step, for live plots. */
export interface StepBytes {
  readonly step: number;
  readonly bytes: number;
}

/**
 * Where tensors live: device memory (WebGPU, worker/webgpu-store.ts) or the host (hostStore).
 * Every method works on both; on the host "device" means host memory.
 */
export interface TensorStore {
  /** Adapter description (`swiftshader`, a vendor and architecture), null without a device. */
  readonly adapter: string | null;
  /** Whether tensors can live in device memory apart from the host (WebGPU). */
  readonly onDevice: boolean;
  /** Where session outputs meant to stay on the device go (`gpu-buffer` on WebGPU). */
  readonly keptOutputLocation: 'gpu-buffer' | 'cpu';
  /** The execution provider sessions are created on. */
  readonly executionProvider: OrtModule.InferenceSession.ExecutionProviderConfig;
  /** Races a promise against device errors (OOM, loss) that no promise carries. */
  guard<T>(promise: Promise<T>): Promise<T>;
  /** A float32 tensor resident where the model runs (a GPU buffer of its own on WebGPU). */
  place(feed: FeedData): Tensor;
  /** Uploads a feed into device memory of its own, freed on `dispose()`; throws without a device. */
  upload(feed: FeedData): Tensor;
  /** Replaces a tensor's values in place: an upload on WebGPU, a copy on the host. */
  overwrite(target: Tensor, values: Float32Array): void;
  /** Copies one tensor's values into another of the same size, where they live. */
  copyInto(target: Tensor, source: Tensor): void;
  /** The same data seen as a flat vector of `length` floats, without a copy. */
  flatView(tensor: Tensor, length: number): Tensor;
  /**
   * A copy of a float32 tensor's values on the host; the tensor stays where it is. (onnxruntime's
   * `Tensor.getData()` would turn a GPU tensor into a host one, so that every later run that
   * reads it uploads it again.)
   */
  download(tensor: Tensor): Promise<Float32Array>;
  /** Resolves once the device finished the work submitted so far (at once on the host). */
  settle(): Promise<void>;
}

/** What a measuring loop runs with. */
export interface Executor {
  readonly backend: Backend;
  readonly store: TensorStore;
  /** Counts bytes where the backend can: GPU buffers, or the WebAssembly heap. */
  readonly meter: Meter;
  /** Opens a graph as a session; outputs `keepOnDevice` names stay on the device (to feed the next graph). */
  open(graph: ManifestGraph, keepOnDevice?: (name: string) => boolean): Promise<Session>;
  /** Opens graphs one after another (onnxruntime-web refuses concurrent WebGPU session creation). */
  openAll(graphs: readonly ManifestGraph[], keepOnDevice?: (name: string) => boolean): Promise<Session[]>;
  /** Runs a session, guarded against device errors. */
  run(session: Session, feeds: Readonly<Tensors>): Promise<Tensors>;
  /** A host tensor for a feed (the tiny GPT's int64 tokens and labels, float32 data). */
  host(feed: FeedData): Tensor;
  /** A float32 scalar on the host. */
  scalar(value: number): Tensor;
  /** A tensor's float values on the host (a download on WebGPU); the tensor stays where it was. */
  read(tensor: Tensor): Promise<Float32Array>;
  /** Tells the page what this run is doing (and, after a step, the bytes it holds). */
  progress(stage: RunStage, sample?: StepBytes): void;
  /** Milliseconds from an arbitrary origin (performance.now in browsers and Node). */
  now(): number;
}

/** What `createExecutor` assembles. */
export interface ExecutorParts {
  readonly ort: Ort;
  readonly backend: Backend;
  readonly store: TensorStore;
  readonly meter: Meter;
  /** The bytes of a graph file named in a manifest. */
  readonly loadGraph: (file: string) => Promise<Uint8Array>;
  readonly progress?: (stage: RunStage, sample?: StepBytes) => void;
}

/** A host tensor for typed feed data. */
export function hostTensor(ort: Ort, feed: FeedData): Tensor {
  return feed.data instanceof BigInt64Array
    ? new ort.Tensor('int64', feed.data, feed.dims)
    : new ort.Tensor('float32', feed.data, feed.dims);
}

/** An executor over a tensor store, a meter and a graph loader. */
export function createExecutor({ ort, backend, store, meter, loadGraph, progress = () => {} }: ExecutorParts): Executor {
  const open = async (graph: ManifestGraph, keepOnDevice: (name: string) => boolean = () => false): Promise<Session> => {
    const bytes = await loadGraph(graph.file);
    const location = Object.fromEntries(
      graph.outputs.map(({ name }) => [name, keepOnDevice(name) ? store.keptOutputLocation : 'cpu'] as const),
    );
    return store.guard(
      ort.InferenceSession.create(bytes, {
        executionProviders: [store.executionProvider],
        preferredOutputLocation: location,
        logSeverityLevel: 3,
      }),
    );
  };
  return {
    backend,
    store,
    meter,
    open,
    async openAll(graphs, keepOnDevice) {
      const sessions: Session[] = [];
      for (const graph of graphs) sessions.push(await open(graph, keepOnDevice));
      return sessions;
    },
    run: (session, feeds) => store.guard(session.run(feeds)),
    host: (feed) => hostTensor(ort, feed),
    scalar: (value) => new ort.Tensor('float32', Float32Array.of(value), []),
    read: (tensor) => store.download(tensor),
    progress,
    now: () => performance.now(),
  };
}
