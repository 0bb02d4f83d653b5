/**
 * "This runtime": what onnxruntime-web 1.30's WebGPU provider and the lab hold on the device at
 * the peak of a single experiment's side whose model is one training-step graph, following the
 * lab's step loop (`measureSingleRun` in measure/single-run.ts) through the graph's own nodes.
 * Pure: it takes the graph schedule and the loop's settings, never a measurement.
 * - The lab places the weights, every micro-batch's examples and labels, and zeroed accumulators
 *   once, at their exact sizes (worker/webgpu-store.ts).
 * - The runtime's buffers come from its cache (buffer-cache.ts); it destroys none before the
 *   sessions are released, so the side's peak is the lab's bytes plus the most the cache held.
 * - Each micro-batch runs the graph with the accumulators so far (`acc_in`) and makes a new set
 *   (`acc_out`) before the old one is disposed: two gradient sets at once, where PyTorch's
 *   `.grad +=` adds in place.
 * - Outputs read back to the host (the loss; the gradients where they go to the host) are
 *   released after their download; the rest stay until the loop drops them (or, in a leaky loop,
 *   never).
 */
import { isAccOut } from '../../graphs/browser-safe';
import { planAllocations } from './allocation-plan';
import { createBufferCache, type CachedBuffer } from './buffer-cache';
import { executionOrder } from './execution-order';
import { runGraph } from './graph-run';
import { tensorBytes, type GraphSchedule } from './graph-schedule';
import { initializerBytes } from './initializers';

/** One side of a single experiment whose model is one training-step graph. */
export interface SingleStepLoop {
  readonly graph: GraphSchedule;
  /** Examples per step. */
  readonly batch: number;
  /** Micro-batches per step (1 unless the graph accumulates). */
  readonly microBatches: number;
  /** Steps run after the warm-up. */
  readonly steps: number;
  /** A leaky training loop: every step's non-loss results are kept to the end. */
  readonly retainsResults: boolean;
  /** Whether a graph output is read back to the host after each run. */
  readonly readBack: (output: string) => boolean;
  /** Graph inputs fed from the host on every run (the loss scale), uploaded by the runtime. */
  readonly hostInputs: ReadonlySet<string>;
}

/** The predicted device bytes of one side: the lab's, the runtime's, and their sum (the peak). */
export interface RuntimePrediction {
  readonly labBytes: number;
  readonly runtimeBytes: number;
  readonly peakBytes: number;
}

/** "This runtime"'s peak for one side run as `loop` describes. */
export function predictSingleStepLoop(loop: SingleStepLoop): RuntimePrediction {
  const { graph, microBatches } = loop;
  const microBatch = loop.batch / microBatches;
  const tensor = (name: string) => {
    const found = graph.tensors.get(name);
    if (!found) throw new Error(`graph input ${name} has no dtype and shape in the graph schedule`);
    return found;
  };
  const perMicroBatch = (name: string): boolean => tensor(name).shape.some((dim) => typeof dim === 'string');
  const labBytes = graph.inputs
    .filter((name) => !loop.hostInputs.has(name))
    .reduce((sum, name) => sum + tensorBytes(tensor(name), microBatch) * (perMicroBatch(name) ? microBatches : 1), 0);

  const order = executionOrder(graph);
  const plan = planAllocations(graph, order, microBatch);
  const cache = createBufferCache();
  let results: CachedBuffer[] = [];
  for (let step = 0; step < loop.steps; step++) {
    if (!loop.retainsResults) for (const buffer of results) cache.release(buffer);
    let accumulators: CachedBuffer[] = [];
    for (let micro = 0; micro < microBatches; micro++) {
      const uploads = [...loop.hostInputs].map((name) => cache.acquire(tensorBytes(tensor(name), microBatch)));
      const outputs = runGraph(cache, plan, order.nodes.length);
      for (const buffer of uploads) cache.release(buffer);
      const kept = [...outputs].filter(([name]) => !loop.readBack(name));
      for (const [name, buffer] of outputs) if (loop.readBack(name)) cache.release(buffer);
      for (const buffer of accumulators) cache.release(buffer);
      accumulators = kept.filter(([name]) => isAccOut(name)).map(([, buffer]) => buffer);
      results = kept.map(([, buffer]) => buffer);
    }
  }
  const runtimeBytes = initializerBytes(graph) + cache.peakBytes;
  return { labBytes, runtimeBytes, peakBytes: labBytes + runtimeBytes };
}
