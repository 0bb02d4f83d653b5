import { LabRunError } from '../../page/lab-run-error';
import { createRouter, type Delivery } from './collectives';
import type { DeliveryMessage, DeviceResult } from '../../measure/cluster-job';
import type { ClusterMessage, ClusterStart } from './protocol';
import type { RunStage } from '../../measure/run-stage';

/** What the page hears from a device while it runs. */
export interface DeviceProgress {
  readonly rank: number;
  readonly stage: RunStage;
  /** Bytes this device held after a step. */
  readonly sample?: { readonly step: number; readonly bytes: number };
}

/**
 * Starts `size` virtual GPUs, each a fresh worker, gives each the job, routes their messages
 * and collectives, and resolves with every device's result (by rank). A failure on any device
 * stops them all. Workers are always terminated, so the next run starts from fresh devices.
 */
export function runDevices(
  size: number,
  start: Omit<ClusterStart, 'type' | 'rank' | 'size'>,
  onProgress: (progress: DeviceProgress) => void,
): Promise<DeviceResult[]> {
  const workers = Array.from(
    { length: size },
    () => new Worker(new URL('./cluster.worker.ts', import.meta.url), { type: 'module' }),
  );
  const router = createRouter(size);
  const results: (DeviceResult | undefined)[] = new Array(size).fill(undefined);
  return new Promise<DeviceResult[]>((resolve, reject) => {
    const deliver = (deliveries: readonly Delivery[]): void => {
      for (const { to, key, tensors } of deliveries)
        workers[to]?.postMessage({ type: 'deliver', key, tensors } satisfies DeliveryMessage);
    };
    workers.forEach((worker, rank) => {
      worker.onmessage = (event: MessageEvent<ClusterMessage>) => {
        const message = event.data;
        try {
          switch (message.type) {
            case 'progress':
              onProgress({
                rank,
                stage: message.stage,
                ...(message.step !== undefined && message.bytes !== undefined
                  ? { sample: { step: message.step, bytes: message.bytes } }
                  : {}),
              });
              break;
            case 'collective': {
              const { type: _, rank: from, key, tensors, ...op } = message;
              deliver(router.collective(from, key, op, tensors));
              break;
            }
            case 'send':
              deliver(router.send(message.rank, message.to, message.key, message.tensors));
              break;
            case 'result':
              results[rank] = message.result;
              if (results.every(Boolean)) resolve(results as DeviceResult[]);
              break;
            case 'error':
              reject(new LabRunError(message.kind, `device ${message.rank}: ${message.message}`));
              break;
          }
        } catch (error) {
          reject(new LabRunError('error', error instanceof Error ? error.message : String(error)));
        }
      };
      worker.onerror = (event) => reject(new LabRunError('error', event.message || `device ${rank}'s worker crashed`));
      worker.postMessage({ type: 'start', rank, size, ...start } satisfies ClusterStart);
    });
  }).finally(() => {
    for (const worker of workers) worker.terminate();
  });
}
