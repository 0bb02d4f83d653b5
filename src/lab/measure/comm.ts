import type { CollectiveOp, CommMessage, DeliveryMessage, TensorSet } from './cluster-job';

/** A device's view of the others: collectives and point-to-point messages, through whoever hosts the devices. */
export interface Comm {
  readonly rank: number;
  readonly size: number;
  /** Joins collective `key`; resolves with this device's share once every device has joined. */
  collective(key: string, op: CollectiveOp, tensors: TensorSet): Promise<TensorSet>;
  /** Sends tensors to device `to` under `key` (it receives them with `recv(key)`). */
  send(to: number, key: string, tensors: TensorSet): void;
  /** Waits for what was sent (or delivered by a collective) under `key`. */
  recv(key: string): Promise<TensorSet>;
  /** Hands a delivered message to whoever waits for it (or keeps it until asked). */
  deliver(message: DeliveryMessage): void;
}

/** Device `rank`'s link: what it sends goes to `post`; what the host delivers comes in through `deliver`. */
export function createComm(rank: number, size: number, post: (message: CommMessage) => void): Comm {
  const inbox = new Map<string, TensorSet>();
  const waiting = new Map<string, (tensors: TensorSet) => void>();
  const recv = (key: string): Promise<TensorSet> => {
    const ready = inbox.get(key);
    if (ready) {
      inbox.delete(key);
      return Promise.resolve(ready);
    }
    if (waiting.has(key)) throw new Error(`device ${rank} already waits for ${key}`);
    return new Promise((resolve) => waiting.set(key, resolve));
  };
  return {
    rank,
    size,
    collective(key, op, tensors) {
      const received = recv(key);
      post({ type: 'collective', rank, key, tensors, ...op });
      return received;
    },
    send(to, key, tensors) {
      post({ type: 'send', rank, to, key, tensors });
    },
    recv,
    deliver({ key, tensors }) {
      const resolve = waiting.get(key);
      if (resolve) {
        waiting.delete(key);
        resolve(tensors);
      } else inbox.set(key, tensors);
    },
  };
}

/** The same link with every key prefixed: a separate namespace for a separate run. */
export function withKeyPrefix(comm: Comm, prefix: string): Comm {
  return {
    rank: comm.rank,
    size: comm.size,
    collective: (key, op, tensors) => comm.collective(prefix + key, op, tensors),
    send: (to, key, tensors) => comm.send(to, prefix + key, tensors),
    recv: (key) => comm.recv(prefix + key),
    deliver: (message) => comm.deliver(message),
  };
}
