import type { ParamSpec } from '../../graphs/browser-safe';

const sizeOf = (p: ParamSpec): number => p.shape.reduce((a, b) => a * b, 1);

/**
 * Which device owns each parameter's gradient and optimizer state under ZeRO sharding. Whole
 * tensors, largest first, each to the least-loaded device (ties to the lower rank), so shards
 * come out near-equal. DeepSpeed instead flattens all parameters and cuts the flat buffer into
 * equal slices (Rajbhandari et al. 2019, §5); whole tensors keep each update a plain graph run
 * at the cost of slightly uneven shards on tiny models.
 */
export function partitionParameters(parameters: readonly ParamSpec[], devices: number): Record<string, number> {
  if (!Number.isInteger(devices) || devices < 1) throw new Error(`cannot shard over ${devices} devices`);
  const load = new Array<number>(devices).fill(0);
  const owners: Record<string, number> = {};
  const bySize = [...parameters].sort((a, b) => sizeOf(b) - sizeOf(a));
  for (const p of bySize) {
    const rank = load.indexOf(Math.min(...load));
    owners[p.name] = rank;
    load[rank] = (load[rank] ?? 0) + sizeOf(p);
  }
  return owners;
}

/** Scalars each device holds under `owners`. */
export function shardSizes(
  parameters: readonly ParamSpec[],
  owners: Readonly<Record<string, number>>,
  devices: number,
): number[] {
  const sizes = new Array<number>(devices).fill(0);
  for (const p of parameters) {
    const rank = owners[p.name] ?? 0;
    sizes[rank] = (sizes[rank] ?? 0) + sizeOf(p);
  }
  return sizes;
}
