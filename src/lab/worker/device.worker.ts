/// <reference lib="webworker" />
/**
 * One virtual GPU of a multi-device experiment: a fresh WebGPU device (or WebAssembly heap) and
 * onnxruntime-web instance with its own memory count, running its part of a job and talking to
 * the other devices through the page.
 */
import { classifyFailure } from '../classify-failure';
import type { DeviceMessage, DeviceStart } from '../experiments/cluster/protocol';
import type { DeliveryMessage } from '../measure/cluster-jobs';
import { runClusterJob } from '../measure/cluster-job';
import { createComm, type Comm } from '../measure/comm';
import { startMeasuredRuntime } from './runtime';

const post = (message: DeviceMessage): void => self.postMessage(message);
let comm: Comm | undefined;

self.onmessage = (event: MessageEvent<DeviceStart | DeliveryMessage>) => {
  const message = event.data;
  if (message.type === 'deliver') {
    comm?.deliver(message);
    return;
  }
  const { rank } = message;
  const link = createComm(rank, message.size, post);
  comm = link;
  const progress = (stage: string, sample?: { step: number; bytes: number }): void =>
    post({ type: 'progress', rank, stage, ...sample });
  progress('starting onnxruntime-web');
  startMeasuredRuntime({ ...message, warmUpFile: message.job.model.graphs[0]?.file, progress })
    .then((exec) => runClusterJob({ exec, comm: link, seed: message.seed, steps: message.steps }, message.job))
    .then(
      (result) => post({ type: 'result', result }),
      (error: unknown) => {
        const text = error instanceof Error ? error.message : String(error);
        post({ type: 'error', rank, kind: classifyFailure(text), message: text });
      },
    );
};
