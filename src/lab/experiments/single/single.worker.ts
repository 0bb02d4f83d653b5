/**
 * Runs the sides of a single experiment in a fresh worker, so memory is measured from a clean
 * slate: a new WebGPU device (or WebAssembly heap) and a new onnxruntime-web instance. Sides in
 * one request run one after another; each one's sessions are released before the next starts,
 * because onnxruntime-web frees a session's GPU buffers only when the last session goes.
 */
import type { StepBytes } from '../../measure/executor';
import type { RunStage } from '../../measure/run-stage';
import { measureSingleRun, type SingleRunResult } from '../../measure/single-run';
import { postProgress, serveRequests } from '../../worker/channel';
import { startMeasuredRuntime } from '../../worker/measured-runtime';
import { warmsUp, warmUpBatch } from '../warm-up';
import type { SingleRequest, StepSample } from './protocol';

serveRequests(runSides, (results) => results.flatMap((r) => Object.values(r.gradients).map((g) => g.buffer as ArrayBuffer)));

async function runSides(request: SingleRequest): Promise<SingleRunResult[]> {
  postProgress({ kind: 'starting-runtime' });
  // Progress samples carry the index of the side that made them.
  let index = 0;
  const progress = (stage: RunStage, sample?: StepBytes): void =>
    postProgress<StepSample>(stage, sample && { side: index, ...sample });
  const exec = await startMeasuredRuntime({ ...request, warmUpFile: request.sides[0]?.model.graphs[0]?.file, progress });
  const results: SingleRunResult[] = [];
  for (const [i, side] of request.sides.entries()) {
    index = i;
    // The warm-up step (warm-up.ts): its buffers go with its sessions, before the baseline is taken.
    if (warmsUp(request.backend))
      await measureSingleRun(exec, { ...side, batch: warmUpBatch(side.microBatches), steps: 1 }, true);
    results.push(await measureSingleRun(exec, side));
  }
  return results;
}
