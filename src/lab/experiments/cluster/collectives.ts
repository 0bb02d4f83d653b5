/**
 * The page's side of the virtual GPUs' communication: it collects each device's part of a
 * collective and, once every device has joined, computes what each one receives. Pure, so the
 * arithmetic is unit-tested without workers.
 */
import type { CollectiveOp, TensorSet } from '../../measure/cluster-job';

/** A message for one device. */
export interface Delivery {
  readonly to: number;
  readonly key: string;
  readonly tensors: TensorSet;
}

interface Pending {
  readonly op: CollectiveOp;
  readonly parts: (TensorSet | undefined)[];
  joined: number;
}

/** Element-wise mean of one named tensor over every device's part, summed in rank order. */
function mean(parts: readonly TensorSet[], name: string): Float32Array {
  const first = parts[0]?.[name];
  if (!first) throw new Error(`no device contributed ${name}`);
  const sum = new Float64Array(first.length);
  for (const [rank, part] of parts.entries()) {
    const tensor = part[name];
    if (!tensor || tensor.length !== first.length)
      throw new Error(`device ${rank} contributed ${name} with ${tensor?.length ?? 0} values, device 0 with ${first.length}`);
    for (let i = 0; i < sum.length; i++) sum[i] = (sum[i] ?? 0) + (tensor[i] ?? 0);
  }
  return Float32Array.from(sum, (x) => x / parts.length);
}

function complete(op: CollectiveOp, parts: readonly TensorSet[], key: string): Delivery[] {
  const names = Object.keys(parts[0] ?? {});
  switch (op.op) {
    case 'all-reduce-mean': {
      const means = Object.fromEntries(names.map((name) => [name, mean(parts, name)]));
      return parts.map((_, to) => ({ to, key, tensors: means }));
    }
    case 'reduce-scatter-mean':
      return parts.map((_, to) => ({
        to,
        key,
        tensors: Object.fromEntries(names.filter((name) => op.owners[name] === to).map((name) => [name, mean(parts, name)])),
      }));
    case 'all-gather': {
      const union: Record<string, Float32Array> = {};
      for (const part of parts) Object.assign(union, part);
      return parts.map((_, to) => ({ to, key, tensors: union }));
    }
  }
}

/** Routes the devices' messages; each method returns what to deliver now. */
export interface Router {
  /** Device `rank` joins collective `key`; when the last device joins, everyone's result. */
  collective(rank: number, key: string, op: CollectiveOp, tensors: TensorSet): Delivery[];
  /** A point-to-point message (pipeline activations and their gradients). */
  send(from: number, to: number, key: string, tensors: TensorSet): Delivery[];
}

/** A router for `size` devices, holding each collective's parts until every device has joined. */
export function createRouter(size: number): Router {
  const pending = new Map<string, Pending>();
  return {
    collective(rank, key, op, tensors) {
      if (!Number.isInteger(rank) || rank < 0 || rank >= size) throw new Error(`no device ${rank} among ${size}`);
      const entry = pending.get(key) ?? { op, parts: Array<TensorSet | undefined>(size).fill(undefined), joined: 0 };
      if (entry.op.op !== op.op) throw new Error(`collective ${key}: device ${rank} called ${op.op}, others ${entry.op.op}`);
      if (entry.parts[rank]) throw new Error(`collective ${key}: device ${rank} joined twice`);
      entry.parts[rank] = tensors;
      entry.joined += 1;
      pending.set(key, entry);
      if (entry.joined < size) return [];
      pending.delete(key);
      return complete(entry.op, entry.parts as TensorSet[], key);
    },
    send(from, to, key, tensors) {
      if (!Number.isInteger(to) || to < 0 || to >= size || to === from)
        throw new Error(`device ${from} cannot send to device ${to}`);
      return [{ to, key, tensors }];
    },
  };
}
