/**
 * Where a single run's weights live during its steps, as a strategy the worker asks around each
 * graph run: resident (uploaded once, shared by every graph, as a framework keeps a model on the
 * GPU) or streamed (kept in host memory as JavaScript arrays and uploaded graph by graph,
 * the next graph's weights while the current one runs: parameter offload).
 */
import type { Tensor, TensorStore } from './executor';
import type { FeedData } from './feeds';
import { NO_DEVICE_TO_STREAM } from './host-store';
import type { StepTransfer } from './single-run';
import { planWeightStream, type StreamedRun } from './weight-stream-plan';

/** A weight placement, asked around each graph run of a step (runs in plan order). */
export interface WeightPlacement {
  /** The weight tensors run `run` reads; uploads any that are not on the GPU yet. */
  feeds(run: number): Record<string, Tensor>;
  /** Called once run `run` has been issued and before it is awaited: prefetch the next run's weights. */
  prefetch(run: number): void;
  /** Called once run `run` has finished: free weights the next run does not read. */
  release(run: number): void;
  /** Host↔GPU weight traffic since the last call, which starts a new count (call it once per step). */
  takeTransfer(): Pick<StepTransfer, 'uploadedBytes' | 'uploadMs'>;
  /** Frees every weight still on the GPU. */
  dispose(): void;
}

/** Weights uploaded once and kept (on WASM: CPU tensors, fed as they are). */
export function residentWeights(store: TensorStore, feeds: Readonly<Record<string, FeedData>>): WeightPlacement {
  const tensors = Object.fromEntries(Object.entries(feeds).map(([name, feed]) => [name, store.place(feed)]));
  return {
    feeds: () => tensors,
    prefetch: () => {},
    release: () => {},
    // Uploaded once before the first step; no step moves a weight.
    takeTransfer: () => ({ uploadedBytes: 0, uploadMs: 0 }),
    dispose: () => {
      for (const tensor of Object.values(tensors)) tensor.dispose();
    },
  };
}

/**
 * Weights kept as host arrays and streamed in: before each run the weights it reads are on the
 * GPU (the first run's uploaded then, later ones prefetched while the previous run executed),
 * and after it those the next run does not read are destroyed. Each upload is a fresh storage
 * buffer, so the memory tracker sees it come and go.
 */
export function streamedWeights(
  store: TensorStore,
  feeds: Readonly<Record<string, FeedData>>,
  runs: readonly StreamedRun[],
  now: () => number = () => performance.now(),
): WeightPlacement {
  if (!store.onDevice) throw new Error(NO_DEVICE_TO_STREAM);
  const plan = planWeightStream(runs, (name) => name in feeds);
  const live = new Map<string, Tensor>();
  let uploadedBytes = 0;
  let uploadMs = 0;

  const upload = (names: readonly string[]): void => {
    for (const name of names) {
      const feed = feeds[name];
      if (live.has(name) || !feed) continue;
      // Time to create the buffer and hand the bytes to the queue; the copy itself completes
      // on the device's queue, ordered before the kernels that read it, so the rest of the
      // cost shows in the step time.
      const start = now();
      live.set(name, store.upload(feed));
      uploadMs += now() - start;
      uploadedBytes += feed.data.byteLength;
    }
  };
  const free = (names: readonly string[]): void => {
    for (const name of names) {
      live.get(name)?.dispose();
      live.delete(name);
    }
  };

  return {
    feeds(run) {
      const step = plan[run];
      if (!step) return {};
      // Normally prefetched by the previous run; the first run's are uploaded here.
      upload(step.weights);
      return Object.fromEntries(step.weights.map((name) => [name, live.get(name) as Tensor]));
    },
    prefetch: (run) => upload(plan[run]?.prefetch ?? []),
    release: (run) => free(plan[run]?.release ?? []),
    takeTransfer() {
      const transfer = { uploadedBytes, uploadMs };
      uploadedBytes = 0;
      uploadMs = 0;
      return transfer;
    },
    dispose: () => free([...live.keys()]),
  };
}
