/**
 * Collectives as NCCL runs them: the bus bandwidth a ring gets per link class, the bytes each GPU sends per collective,
 * and how much of a collective that overlaps compute stays exposed.
 */
import { GPUS_PER_SERVER, type GpuSpec } from '../gpus.ts';

/**
 * Bus bandwidth of a collective over a group, bytes per second per GPU (nccl-tests doc/PERFORMANCE.md, NVIDIA/nccl-tests:
 * "busbw" is what each GPU's slowest link carries, the same for every ring collective). Within a server it is the peer
 * link. Across servers NCCL builds one ring per network card and runs them at once (NCCL's rail-aligned channels), so
 * a group with `membersPerServer` GPUs in each server drives that many cards: each card's share of the server's network
 * (gpus.ts `networkBytesPerSecond`, the server's cards × their speed ÷ GPUS_PER_SERVER) times the members, and never
 * more than the peer link the ring also crosses inside each server.
 */
export function busBandwidth(gpu: GpuSpec, acrossServers: boolean, membersPerServer: number): number {
  if (!acrossServers) return gpu.peerLinkBytesPerSecond;
  const cards = Math.max(1, Math.min(GPUS_PER_SERVER, membersPerServer));
  return Math.min(gpu.peerLinkBytesPerSecond, gpu.networkBytesPerSecond * cards);
}

/** Share of a tensor's bytes each GPU sends in a ring all-gather or reduce-scatter over `n` GPUs: (n−1)/n (Patarasuk & Yuan 2009). */
export function gatherShare(n: number): number {
  return n > 1 ? (n - 1) / n : 0;
}

/** Share each GPU sends in a ring all-reduce over `n` GPUs: a reduce-scatter then an all-gather, 2(n−1)/n. */
export function allReduceShare(n: number): number {
  return 2 * gatherShare(n);
}

/**
 * Seconds of a collective left on the step's critical path when it runs beside `windowSeconds` of compute, split into
 * `units` equal pieces issued as the compute reaches them. An assumption, shown with the estimate: PyTorch DDP launches
 * each gradient bucket's all-reduce as backward finishes it (Li et al. 2020, arXiv 2006.15704 §3.2.3), FSDP prefetches
 * the next unit's all-gather during the current unit's compute and reduce-scatters each unit as its backward ends (Zhao
 * et al. 2023, arXiv 2304.11277 §3.3), so all but one unit hides behind compute while the compute is the longer; the
 * rest of a longer collective is exposed.
 */
export function exposedSeconds(collectiveSeconds: number, windowSeconds: number, units: number): number {
  if (collectiveSeconds <= 0) return 0;
  return Math.max(collectiveSeconds - windowSeconds, collectiveSeconds / Math.max(1, units));
}
