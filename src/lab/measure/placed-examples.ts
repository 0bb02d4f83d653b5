/**
 * A step's examples made once and kept where the model runs, so that every step and every graph
 * of a run reads the same tensors instead of a fresh host copy that onnxruntime would upload on
 * each `session.run()`. Float data (the MLP's features and its float32 class labels) gets a device
 * buffer of its own; integer data (the tiny GPT's tokens and labels) stays one host tensor, which
 * onnxruntime copies for each run that reads it, because the tensor store places float32 only.
 */
import type { Executor, Tensors } from './executor';
import type { FeedData } from './feeds';

/** The feeds as tensors: float32 placed on the device, int64 on the host, each made once. */
export function placeExamples(exec: Executor, feeds: Readonly<Record<string, FeedData>>): Tensors {
  return Object.fromEntries(
    Object.entries(feeds).map(([name, feed]) => [
      name,
      feed.data instanceof Float32Array ? exec.store.place(feed) : exec.host(feed),
    ]),
  );
}

/** Disposes every tensor of each set (placed examples outlive the steps that read them). */
export function disposeAll(sets: Iterable<Tensors>): void {
  for (const set of sets) for (const tensor of Object.values(set)) tensor.dispose();
}
