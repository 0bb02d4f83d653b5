/**
 * When each weight crosses to the GPU in a streamed (offloaded) step, and when it leaves. Pure:
 * the worker's streamed placement follows this plan, and tests check it without a browser.
 *
 * The schedule is the one ZeRO-3 / FSDP use for parameter offload (ZeRO-Infinity, arXiv
 * 2104.07857 §5; PyTorch FSDP `forward_prefetch` / `BackwardPrefetch.BACKWARD_PRE`): a graph's
 * weights are fetched before it runs, the next graph's weights are fetched while it runs, and
 * weights are freed as soon as no adjacent graph reads them. Forward weights are fetched again
 * for the backward, as FSDP re-gathers a unit it freed after its forward.
 */

/** A graph run of a step, as far as weight streaming cares: the names it reads. */
export interface StreamedRun {
  readonly inputs: readonly string[];
}

/** What happens to weights around one graph run. */
export interface WeightStreamStep {
  /** Weights this run reads. */
  readonly weights: readonly string[];
  /** Weights to upload before this run because no earlier prefetch brought them (the first run's). */
  readonly upload: readonly string[];
  /** The next run's weights that are not already on the GPU: uploaded while this run executes. */
  readonly prefetch: readonly string[];
  /** Weights to free once this run finishes: the next run does not read them. */
  readonly release: readonly string[];
}

/**
 * Plans a step's weight traffic over runs in execution order. At any moment at most two runs'
 * weights are on the GPU: the running graph's and the prefetched next graph's. Names that are
 * not weights (`isWeight` false) are ignored.
 */
export function planWeightStream(runs: readonly StreamedRun[], isWeight: (name: string) => boolean): WeightStreamStep[] {
  const needs = runs.map((run) => [...new Set(run.inputs.filter(isWeight))]);
  return needs.map((weights, index) => {
    const next = new Set(needs[index + 1] ?? []);
    const current = new Set(weights);
    return {
      weights,
      upload: index === 0 ? weights : [],
      prefetch: [...next].filter((name) => !current.has(name)),
      release: weights.filter((name) => !next.has(name)),
    };
  });
}

/**
 * Bytes the plan uploads per step, given each weight's size in bytes: every upload and
 * prefetch once. For a layer-wise MLP that is every layer's weights and bias for the forward,
 * the head's once (its loss graph runs forward and backward together), and for the backward the
 * weight matrices that propagate the gradient (dx = dy·Wᵀ; biases and layer 0's matrix are not read).
 */
export function streamedBytesPerStep(plan: readonly WeightStreamStep[], bytesOf: (name: string) => number): number {
  return plan.reduce((sum, step) => sum + [...step.upload, ...step.prefetch].reduce((s, name) => s + bytesOf(name), 0), 0);
}

/**
 * The largest set of weights the plan holds on the GPU at once, in bytes: a run's weights
 * plus the next run's, prefetched while it runs.
 */
export function streamedWindowBytes(plan: readonly WeightStreamStep[], bytesOf: (name: string) => number): number {
  return plan.reduce((most, step, index) => {
    const held = new Set([...step.weights, ...(plan[index + 1]?.weights ?? [])]);
    return Math.max(
      most,
      [...held].reduce((s, name) => s + bytesOf(name), 0),
    );
  }, 0);
}
