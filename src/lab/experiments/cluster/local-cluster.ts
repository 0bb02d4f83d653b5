/**
 * A cluster's devices in one thread: each with its own executor, linked by the page's router
 * (collectives.ts) the way run-devices.ts links its workers, without the workers. The runtime
 * model's predictions (runtime-prediction.ts) and the measuring core's tests run cluster jobs
 * this way. Pure.
 */
import type { DeviceRun } from '../../measure/cluster-device';
import type { DeliveryMessage } from '../../measure/cluster-job';
import { createComm, type Comm } from '../../measure/comm';
import type { Executor } from '../../measure/executor';
import { createRouter, type Delivery } from './collectives';

/** `size` devices, each running with an executor of its own from `executor()`, the same seed and step count. */
export function localCluster(size: number, seed: number, steps: number, executor: () => Executor): DeviceRun[] {
  const router = createRouter(size);
  const comms: Comm[] = [];
  const deliver = (deliveries: readonly Delivery[]): void => {
    for (const { to, key, tensors } of deliveries)
      comms[to]?.deliver({ type: 'deliver', key, tensors } satisfies DeliveryMessage);
  };
  for (let rank = 0; rank < size; rank++) {
    comms.push(
      createComm(rank, size, (message) => {
        if (message.type === 'send') deliver(router.send(message.rank, message.to, message.key, message.tensors));
        else {
          const { type: _, rank: from, key, tensors, ...op } = message;
          deliver(router.collective(from, key, op, tensors));
        }
      }),
    );
  }
  return comms.map((comm) => ({ exec: executor(), comm, seed, steps }));
}
