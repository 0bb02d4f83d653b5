/// <reference lib="webworker" />
/**
 * One virtual GPU of a multi-device experiment: a fresh WebGPU device (or WebAssembly heap) and
 * onnxruntime-web instance with its own memory count, running its part of a job and talking to
 * the other devices through the page.
 */
import { classifyFailure } from '../classify-failure';
import { warmsUp, warmUpBatch } from '../warm-up';
import { startMeasuredRuntime } from '../worker-gpu';
import { createComm, withKeyPrefix, type Comm } from './comm';
import type { DeviceContext } from './device-context';
import { runPipelineStage } from './pipeline-stage';
import type { ClusterJob, DeliveryMessage, DeviceMessage, DeviceResult, DeviceStart } from './protocol';
import { runReplica } from './replica';

const post = (message: DeviceMessage): void => self.postMessage(message);
let comm: Comm | undefined;

self.onmessage = (event: MessageEvent<DeviceStart | DeliveryMessage>) => {
  const message = event.data;
  if (message.type === 'deliver') {
    comm?.deliver(message);
    return;
  }
  comm = createComm(message.rank, message.size, post);
  run(message, comm).then(
    (result) => post({ type: 'result', result }),
    (error: unknown) => {
      const text = error instanceof Error ? error.message : String(error);
      post({ type: 'error', rank: message.rank, kind: classifyFailure(text), message: text });
    },
  );
};

async function run(start: DeviceStart, link: Comm): Promise<DeviceResult> {
  const progress: DeviceContext['progress'] = (stage, sample) => post({ type: 'progress', rank: start.rank, stage, ...sample });
  progress('starting onnxruntime-web');
  const { ort, gpu, tracker, heap } = await startMeasuredRuntime(start.backend, start.runtime, start.modelsUrl, start.job.model.graphs[0]?.file);
  const ctx: DeviceContext = { ort, backend: start.backend, gpu, tracker, heap, comm: link, modelsUrl: start.modelsUrl, seed: start.seed, steps: start.steps, progress };
  // The warm-up's messages carry keys of their own, so a device that finishes it early cannot mix
  // them up with the measured step's.
  if (warmsUp(start.backend)) {
    const warmUp: DeviceContext = { ...ctx, comm: withKeyPrefix(link, 'warm-up/'), steps: 1, progress: (stage) => progress(`compiling shaders (${stage})`) };
    await runJob(warmUp, { ...start.job, batch: warmUpBatch(start.job.kind === 'pipeline' ? start.job.microBatches : start.size) });
  }
  return runJob(ctx, start.job);
}

function runJob(ctx: DeviceContext, job: ClusterJob): Promise<DeviceResult> {
  return job.kind === 'pipeline' ? runPipelineStage(ctx, job) : runReplica(ctx, job);
}
