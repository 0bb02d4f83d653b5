/**
 * "This runtime": what onnxruntime-web 1.30's WebGPU provider and the lab hold on the device at
 * the peak of one side of a single experiment, following the lab's step loop
 * (`measureSingleRun` in measure/single-run.ts, with its run plan from measure/step-plan.ts)
 * through the nodes of every graph it runs. Pure: it takes the graph schedules and the loop's
 * settings, never a measurement.
 * - The lab places the weights, every micro-batch's examples and labels, and zeroed accumulators
 *   once, at their exact sizes (worker/webgpu-store.ts).
 * - The runtime's buffers come from its cache (buffer-cache.ts); it destroys none before the
 *   sessions are released, so the side's peak is the lab's bytes plus the most the cache held.
 * - Each micro-batch runs with the accumulators so far (`acc_in`) and makes a new set
 *   (`acc_out`) before the old one is disposed: two gradient sets at once, where PyTorch's
 *   `.grad +=` adds in place.
 * - A tensor one graph hands to the next stays until the last graph that reads it has run;
 *   outputs read back to the host (the loss; gradients where they go to the host) are released
 *   after their download; results stay until the loop drops them (or, in a leaky loop, never).
 */
import { isAccOut } from '../../graphs/browser-safe';
import { planStep } from '../measure/step-plan';
import { planAllocations } from './allocation-plan';
import { createBufferCache, ONNXRUNTIME_CACHE_RULES, type CacheRules, type CachedBuffer } from './buffer-cache';
import { executionOrder } from './execution-order';
import { runGraph } from './graph-run';
import { tensorBytes, type GraphSchedule, type ScheduledTensor } from './graph-schedule';
import { initializerBytes } from './initializers';

/** One side of a single experiment. */
export interface SingleStepLoop {
  /** The model's graphs in the order a step runs them (the manifest's order). */
  readonly graphs: readonly GraphSchedule[];
  /** Examples per step. */
  readonly batch: number;
  /** Micro-batches per step (1 unless the graphs accumulate). */
  readonly microBatches: number;
  /** Steps run after the warm-up. */
  readonly steps: number;
  /** A leaky training loop: every step's non-loss results are kept to the end. */
  readonly retainsResults: boolean;
  /** Whether an output is one of the step's results (loss, gradients, accumulators), kept to the step's end. */
  readonly isResult: (output: string) => boolean;
  /** Whether an output is read back to the host after its run. */
  readonly readBack: (output: string) => boolean;
  /** Graph inputs fed from the host on every run (the loss scale), uploaded by the runtime. */
  readonly hostInputs: ReadonlySet<string>;
}

/** The predicted device bytes of one side: the lab's, the runtime's, and their sum (the peak). */
export interface RuntimePrediction {
  readonly labBytes: number;
  /** Of the lab's bytes, the examples and labels: every micro-batch's, placed at once. */
  readonly examplesBytes: number;
  readonly runtimeBytes: number;
  readonly peakBytes: number;
}

/**
 * The rules the prediction follows: the cache's, and whether accumulation is out of place.
 * onnxruntime-web and the lab follow all of them; runtime-gap.ts switches them off one by one
 * to measure what each costs.
 */
export interface RuntimeRules extends CacheRules {
  /**
   * `acc_out = acc_in + g` makes a new set before the old one goes; off: the old set is freed
   * first, as PyTorch adds in place (`AccumulateGrad::accumulateGrad` runs
   * `variable_grad += new_grad` outside double backward: pytorch/pytorch
   * `torch/csrc/autograd/functions/accumulate_grad.h`, commit bc2c6edaf163b1a1330e37a6e34caf8c553e4755).
   */
  readonly outOfPlaceAccumulation: boolean;
}

/** The rules of onnxruntime-web 1.30 and the lab's step loop. */
export const ONNXRUNTIME_RULES: RuntimeRules = { ...ONNXRUNTIME_CACHE_RULES, outOfPlaceAccumulation: true };

/** The inputs no earlier graph makes: the lab's feeds, each with its dtype and shape. */
function feeds(graphs: readonly GraphSchedule[]): Map<string, ScheduledTensor> {
  const made = new Set<string>();
  const fed = new Map<string, ScheduledTensor>();
  for (const graph of graphs) {
    for (const input of graph.inputs) if (!made.has(input.name)) fed.set(input.name, input);
    for (const output of graph.outputs) made.add(output.name);
  }
  return fed;
}

/** "This runtime"'s peak for one side run as `loop` describes, following `rules`. */
export function predictSingleStepLoop(loop: SingleStepLoop, rules: RuntimeRules = ONNXRUNTIME_RULES): RuntimePrediction {
  const { graphs, microBatches } = loop;
  const microBatch = loop.batch / microBatches;
  const fed = feeds(graphs);
  const perMicroBatch = (tensor: ScheduledTensor): boolean => tensor.shape.some((dim) => typeof dim === 'string');
  const placed = [...fed].filter(([name]) => !loop.hostInputs.has(name)).map(([, tensor]) => tensor);
  const labBytes = placed.reduce(
    (sum, tensor) => sum + tensorBytes(tensor, microBatch) * (perMicroBatch(tensor) ? microBatches : 1),
    0,
  );
  const examplesBytes = placed
    .filter(perMicroBatch)
    .reduce((sum, tensor) => sum + tensorBytes(tensor, microBatch) * microBatches, 0);

  const runs = planStep(graphs, new Set(fed.keys()), loop.isResult).map((run, index) => {
    const graph = graphs[index];
    if (!graph) throw new Error(`no graph for ${run.file}`);
    const order = executionOrder(graph);
    return { run, graph, nodes: order.nodes, plan: planAllocations(graph, order, microBatch) };
  });
  const cache = createBufferCache(rules);
  let results: CachedBuffer[] = [];
  for (let step = 0; step < loop.steps; step++) {
    if (!loop.retainsResults) for (const buffer of results) cache.release(buffer);
    let accumulators: CachedBuffer[] = [];
    for (let micro = 0; micro < microBatches; micro++) {
      if (!rules.outOfPlaceAccumulation) {
        for (const buffer of accumulators) cache.release(buffer);
        accumulators = [];
      }
      const env = new Map<string, CachedBuffer>();
      for (const { run, graph, nodes, plan } of runs) {
        const uploads = graph.inputs
          .filter((input) => loop.hostInputs.has(input.name))
          .map((input) => cache.acquire(tensorBytes(input, microBatch)));
        const outputs = runGraph(cache, plan, nodes);
        for (const buffer of uploads) cache.release(buffer);
        for (const [name, buffer] of outputs) {
          if (!loop.readBack(name)) env.set(name, buffer);
          else {
            // A download flushes first, so what was released before it becomes reusable.
            cache.refresh();
            cache.release(buffer);
          }
        }
        for (const name of run.release) {
          const buffer = env.get(name);
          if (buffer) cache.release(buffer);
          env.delete(name);
        }
      }
      for (const buffer of accumulators) cache.release(buffer);
      accumulators = [...env].filter(([name]) => isAccOut(name)).map(([, buffer]) => buffer);
      results = [...env.values()];
    }
  }
  const runtimeBytes = graphs.reduce((sum, graph) => sum + initializerBytes(graph), 0) + cache.peakBytes;
  return { labBytes, examplesBytes, runtimeBytes, peakBytes: labBytes + runtimeBytes };
}
