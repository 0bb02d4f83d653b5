/**
 * "This runtime" as an executor: the measuring core's `Executor` (measure/executor.ts) over the
 * runtime model instead of a WebGPU device, so the lab's own step loops (measure/single-run.ts,
 * replica.ts, pipeline-stage.ts) run unchanged and their meter reports the modelled peak. Pure:
 * no WebGPU and no onnxruntime, only byte counts; values are not computed (reads give zeros).
 * - `open` takes the graph's schedule (`<graph>.schedule.json`, the page's schedule-loader.ts)
 *   and uploads its initializers (initializers.ts), kept until the session is released.
 * - A session's `run` plays the graph's nodes in onnxruntime's order (execution-order.ts) with
 *   its allocation plan (allocation-plan.ts) on the buffer cache (graph-run.ts, buffer-cache.ts).
 *   Host tensors it reads are uploaded into cache buffers for that run. Outputs kept on the
 *   device hold their buffer until the loop disposes of them; the others are downloaded, which
 *   flushes first (`BufferManager::Download` calls `context_.Flush()` before mapping its staging
 *   buffer: microsoft/onnxruntime `core/providers/webgpu/buffer_manager.cc` at 0568e2b), and
 *   their buffer is given back at once.
 * - The store accounts the lab's buffers as worker/webgpu-store.ts makes them: `place` and
 *   `upload` create a buffer of the tensor's exact size (at least 4 bytes), destroyed on
 *   `dispose`; `overwrite` and `copyInto` write into an existing buffer; a flat view shares its
 *   tensor's buffer; `download` copies through a staging buffer the tracker does not count
 *   (webgpu-store.ts creates it without STORAGE usage) and goes through no onnxruntime flush.
 * - The meter counts every buffer as the WebGPU hooks do (measure/memory-tracker.ts).
 */
import type { ManifestGraph } from '../../graphs/browser-safe';
import { ACCUMULATE_TENSORS, isAccIn } from '../../graphs/browser-safe';
import type { Executor, Session, Tensor, Tensors, TensorStore } from '../measure/executor';
import type { FeedData } from '../measure/feeds';
import { createMemoryTracker } from '../measure/memory-tracker';
import { createMeter } from '../measure/meter';
import { planAllocations, type AllocationPlan } from './allocation-plan';
import { createBufferCache, type CachedBuffer } from './buffer-cache';
import { executionOrder, type ExecutionOrder } from './execution-order';
import { runGraph } from './graph-run';
import type { GraphSchedule, ScheduledTensor } from './graph-schedule';
import { initializerBytes } from './initializers';
import { allocationOf, modelledTensor, type DeviceAllocation } from './modelled-tensor';
import { ONNXRUNTIME_RULES, type RuntimeRules } from './runtime-rules';

/** Loads a graph's schedule, as the page does (page/schedule-loader.ts) or a test reads it. */
export type ScheduleLoader = (graph: ManifestGraph) => Promise<GraphSchedule>;

/** What a modelled executor runs with. */
export interface RuntimeExecutorOptions {
  readonly loadSchedule: ScheduleLoader;
  /** The rules the model follows; all of onnxruntime-web's unless runtime-gap.ts switches one off. */
  readonly rules?: RuntimeRules;
}

/** An opened graph: its schedule, its nodes in execution order, and its plan per batch. */
interface ModelledSession {
  readonly schedule: GraphSchedule;
  readonly order: ExecutionOrder;
  readonly keepOnDevice: (name: string) => boolean;
  readonly plans: Map<number, AllocationPlan>;
}

/** WebGPU buffer sizes must be multiples of 4 bytes (webgpu-store.ts makes at least 4). */
const MIN_LAB_BUFFER_BYTES = 4;

/**
 * The accumulated gradients a run adds to: `acc_in.*` of an accumulating graph, and `a` of the
 * pipeline's accumulate graph (`sum = a + b`, graphs/optimizer.ts).
 */
const isAccumulatorInput = (name: string): boolean => isAccIn(name) || name === ACCUMULATE_TENSORS.a;

/** The dynamic batch a run is fed with: the fed size of the first input dimension that is not fixed. */
function fedBatch(schedule: GraphSchedule, feeds: Readonly<Tensors>): number {
  for (const input of schedule.inputs) {
    const axis = input.shape.findIndex((dim) => typeof dim === 'string');
    const fed = feeds[input.name]?.dims[axis];
    if (axis >= 0 && fed !== undefined) return fed;
  }
  return 1;
}

/** A tensor's dimensions with the dynamic batch set to `batch`. */
const concreteDims = (tensor: ScheduledTensor, batch: number): number[] =>
  tensor.shape.map((dim) => (typeof dim === 'number' ? dim : batch));

/** The bytes of a host tensor's data. */
const hostBytes = (tensor: Tensor): number => (tensor.data as Float32Array | BigInt64Array).byteLength;

/** An executor whose device is the runtime model (see the module comment). */
export function createRuntimeExecutor({ loadSchedule, rules = ONNXRUNTIME_RULES }: RuntimeExecutorOptions): Executor {
  // The model has no clock: every event happens at time 0, and step times read 0.
  const now = (): number => 0;
  const tracker = createMemoryTracker({ now });
  const cache = createBufferCache(rules, {
    created: (buffer) => tracker.allocated(buffer, buffer.bytes),
    destroyed: (buffer) => tracker.freed(buffer),
  });
  const sessions = new WeakMap<Session, ModelledSession>();

  /** A buffer (the runtime's, or the lab's) given back once, by `free`. */
  const allocation = (runtime: boolean, free: () => void): DeviceAllocation => {
    let held = true;
    return {
      runtime,
      release() {
        if (held) free();
        held = false;
      },
    };
  };
  const runtimeTensor = (buffer: CachedBuffer, dims: readonly number[]): Tensor =>
    modelledTensor({ location: 'gpu-buffer', dims, allocation: allocation(true, () => cache.release(buffer)), owner: true });
  const labTensor = (feed: FeedData): Tensor => {
    const buffer = {};
    tracker.allocated(buffer, Math.max(MIN_LAB_BUFFER_BYTES, feed.data.byteLength));
    return modelledTensor({
      location: 'gpu-buffer',
      dims: feed.dims,
      allocation: allocation(false, () => tracker.freed(buffer)),
      owner: true,
    });
  };
  const hostTensor = (feed: FeedData): Tensor =>
    modelledTensor({
      location: 'cpu',
      type: feed.data instanceof BigInt64Array ? 'int64' : 'float32',
      dims: feed.dims,
      data: feed.data,
    });

  const store: TensorStore = {
    adapter: 'onnxruntime-web 1.30 runtime model',
    onDevice: true,
    keptOutputLocation: 'gpu-buffer',
    executionProvider: 'webgpu',
    guard: (promise) => promise,
    place: labTensor,
    upload: labTensor,
    overwrite: () => {},
    copyInto: () => {},
    flatView(tensor, length) {
      const shared = allocationOf(tensor);
      if (!shared) return hostTensor({ data: tensor.data as Float32Array, dims: [length] });
      return modelledTensor({ location: 'gpu-buffer', dims: [length], allocation: shared, owner: false });
    },
    download: (tensor) =>
      Promise.resolve(allocationOf(tensor) ? new Float32Array(tensor.size) : Float32Array.from(tensor.data as Float32Array)),
    settle: () => Promise.resolve(),
  };

  const open = async (graph: ManifestGraph, keepOnDevice: (name: string) => boolean = () => false): Promise<Session> => {
    const schedule = await loadSchedule(graph);
    const initializers = {};
    tracker.allocated(initializers, initializerBytes(schedule));
    // The measuring core only runs a session through the executor and releases it.
    const session = { release: () => Promise.resolve(tracker.freed(initializers)) } as unknown as Session;
    sessions.set(session, { schedule, order: executionOrder(schedule), keepOnDevice, plans: new Map() });
    return session;
  };

  const run = (session: Session, feeds: Readonly<Tensors>): Promise<Tensors> => {
    const opened = sessions.get(session);
    if (!opened) throw new Error('a session the runtime model did not open');
    const { schedule, order, keepOnDevice, plans } = opened;
    const batch = fedBatch(schedule, feeds);
    const plan = plans.get(batch) ?? planAllocations(schedule, order, batch);
    plans.set(batch, plan);
    // In place (the rule switched off), the sum is written over the accumulated set; the lab's
    // zeros, which start every step's accumulation, stay.
    if (!rules.outOfPlaceAccumulation)
      for (const [name, tensor] of Object.entries(feeds)) {
        const accumulated = allocationOf(tensor);
        if (isAccumulatorInput(name) && accumulated?.runtime) accumulated.release();
      }
    const uploads = Object.values(feeds)
      .filter((tensor) => !allocationOf(tensor))
      .map((tensor) => cache.acquire(hostBytes(tensor)));
    const outputs = runGraph(cache, plan, order.nodes);
    for (const buffer of uploads) cache.release(buffer);
    const results: Tensors = {};
    for (const output of schedule.outputs) {
      const buffer = outputs.get(output.name);
      if (!buffer) continue;
      const dims = concreteDims(output, batch);
      if (keepOnDevice(output.name)) results[output.name] = runtimeTensor(buffer, dims);
      else {
        cache.refresh();
        cache.release(buffer);
        const elements = dims.reduce((product, dim) => product * dim, 1);
        results[output.name] = hostTensor({
          data: output.dtype === 'int64' ? new BigInt64Array(elements) : new Float32Array(elements),
          dims,
        });
      }
    }
    return Promise.resolve(results);
  };

  return {
    backend: 'webgpu',
    store,
    meter: createMeter(tracker, undefined, now),
    open,
    async openAll(graphs, keepOnDevice) {
      const opened: Session[] = [];
      for (const graph of graphs) opened.push(await open(graph, keepOnDevice));
      return opened;
    },
    run,
    host: hostTensor,
    scalar: (value) => hostTensor({ data: Float32Array.of(value), dims: [] }),
    read: (tensor) => store.download(tensor),
    progress: () => {},
    now,
  };
}
