/**
 * One `session.run()` of a graph, simulated on the buffer cache: each planned buffer is acquired
 * when its first node runs and released after its last, the provider flushes (and so refreshes
 * the cache) every 16 kernel dispatches and at the end of the run, and the graph's outputs are
 * handed to the caller, who releases them when it disposes of the tensors. Pure.
 *
 * Fitted, not settled by the source: the cache is also refreshed when a run starts, so what the
 * lab disposed of between runs is reusable from the run's first node. The WebGPU provider's
 * `OnRunStart` (core/providers/webgpu/webgpu_execution_provider.cc) shows no such call, and the
 * traces do not all agree: with it, gradient-checkpointing.json's keep side goes from 0.93 to
 * 1.00 of measured (its second backward graph reuses the gradient buffers the previous one
 * handed back, before its first flush) and leak.json's fixed loop from 0.99 to 1.00; without it,
 * offload.json's resident side is 1.00 instead of 1.02 and the width-256 recompute side 1.00
 * instead of 1.03. The model keeps it for the larger gains.
 *
 * Fitted, not settled by the source: an Einsum with a transposed operand (`ik,jk->ij`,
 * `ki,kj->ij`: the backward's products, graphs/einsum-lowering.ts) counts as two dispatches, a
 * Transpose program and the product, every other node as one. With one dispatch each, the
 * flushes in the backward come later than tests/fixtures/lab/traces/gradient-accumulation.h256.json
 * shows them, and the weight gradients cannot take the activation gradients' freed buffers
 * (0.85 of measured instead of 0.95); leak.json's fixed loop moves from 0.991 to 1.000.
 */
import type { AllocationPlan } from './allocation-plan';
import type { BufferCache, CachedBuffer } from './buffer-cache';
import type { ScheduledNode } from './graph-schedule';

/**
 * Kernel dispatches between flushes: `max_num_pending_dispatches_` of `WebGpuContext`
 * (microsoft/onnxruntime `core/providers/webgpu/webgpu_context.h`, 16 in 1.30); `Flush` calls
 * `BufferManager::RefreshPendingBuffers`.
 */
export const DISPATCHES_PER_FLUSH = 16;

/** The equation of a plain product, which the Einsum kernel runs without a Transpose program. */
const UNTRANSPOSED_PRODUCT = '"ik,kj->ij"';

/** Kernel dispatches a node costs (see the module comment). */
export function kernelDispatches(node: ScheduledNode): number {
  return node.opType === 'Einsum' && !node.attributes.includes(UNTRANSPOSED_PRODUCT) ? 2 : 1;
}

/** Runs `plan` over `nodes` (in execution order) on `cache`; returns each graph output's buffer, still held. */
export function runGraph(
  cache: BufferCache,
  plan: AllocationPlan,
  nodes: readonly ScheduledNode[],
): ReadonlyMap<string, CachedBuffer> {
  const held = new Map<number, CachedBuffer>();
  cache.refresh();
  let dispatches = 0;
  nodes.forEach((scheduled, node) => {
    plan.buffers.forEach((buffer, index) => {
      if (buffer.first === node && !held.has(index)) held.set(index, cache.acquire(buffer.bytes));
    });
    for (let program = 0; program < kernelDispatches(scheduled); program++)
      if (++dispatches % DISPATCHES_PER_FLUSH === 0) cache.refresh();
    plan.buffers.forEach((buffer, index) => {
      const acquired = held.get(index);
      if (buffer.last === node && acquired) cache.release(acquired);
    });
  });
  cache.refresh();
  const outputs = new Map<string, CachedBuffer>();
  for (const [name, index] of plan.outputBuffer) {
    const acquired = held.get(index);
    if (acquired) outputs.set(name, acquired);
  }
  return outputs;
}
