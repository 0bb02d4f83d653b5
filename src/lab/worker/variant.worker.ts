/// <reference lib="webworker" />
/**
 * Runs variants of a model in a fresh worker, so memory is measured from a clean slate: a new
 * WebGPU device (or WebAssembly heap) and a new onnxruntime-web instance. Variants in one
 * request run one after another; each one's sessions are released before the next starts,
 * because onnxruntime-web frees a session's GPU buffers only when the last session goes.
 */
import type { VariantRequest } from '../experiments/single/protocol';
import type { StepBytes } from '../measure/executor';
import { measureVariant, type VariantResult } from '../measure/variant';
import { warmsUp, warmUpBatch } from '../measure/warm-up';
import { postProgress, serveRequests } from './channel';
import { startMeasuredRuntime } from './runtime';

serveRequests(runVariants, (results) => results.flatMap((r) => Object.values(r.gradients).map((g) => g.buffer as ArrayBuffer)));

async function runVariants(request: VariantRequest): Promise<VariantResult[]> {
  postProgress('Starting onnxruntime-web');
  // Progress samples carry the index of the variant that made them.
  let index = 0;
  const progress = (stage: string, sample?: StepBytes): void => postProgress(stage, sample && { variant: index, ...sample });
  const exec = await startMeasuredRuntime({ ...request, warmUpFile: request.variants[0]?.model.graphs[0]?.file, progress });
  const results: VariantResult[] = [];
  for (const [i, variant] of request.variants.entries()) {
    index = i;
    // The warm-up step (warm-up.ts): its buffers go with its sessions, before the baseline is taken.
    if (warmsUp(request.backend))
      await measureVariant(exec, { ...variant, batch: warmUpBatch(variant.microBatches), steps: 1 }, true);
    results.push(await measureVariant(exec, variant));
  }
  return results;
}
