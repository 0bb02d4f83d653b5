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

/** The algorithm NCCL runs an all-reduce with. */
export type AllReduceAlgorithm = 'ring' | 'tree';

/**
 * NCCL's tuning model for the Simple protocol, the one that carries large messages (NCCL 2.30.7, NVIDIA/nccl 5067397c
 * src/graph/tuning.cc, `ncclTopoTuneModel`), in seconds: the base latency of a ring or tree all-reduce (`baseLatencies`,
 * 8.4 µs both), each step's latency inside a server over NVLink (`hwLatencies` NVLINK: ring 3.4 µs, tree 4.0 µs) and
 * between servers (NET: 14 µs both). The topology's own `latencyInter` is left out: it is measured at run time.
 */
const NCCL_SIMPLE_LATENCY = { base: 8.4e-6, ringStep: 3.4e-6, treeStep: 4.0e-6, networkStep: 14e-6 } as const;

/**
 * The tree's all-reduce bandwidth against the ring's bus bandwidth, in the same tuning model: NCCL multiplies the tree's
 * bus bandwidth by .92 for an all-reduce and converts it to algorithm bandwidth by .5 (its double binary tree sends
 * every byte up and down), where the ring's algorithm bandwidth is the bus bandwidth × n/(2(n−1)).
 */
const TREE_ALGORITHM_BANDWIDTH = 0.92 * 0.5;

/** How one all-reduce of a message runs: its algorithm and its seconds. */
export interface AllReduceMessage {
  readonly algorithm: AllReduceAlgorithm;
  readonly seconds: number;
}

/**
 * One all-reduce of `bytes` over `gpus` GPUs, `perServer` of them in each server, at `busBytesPerSecond` (busBandwidth),
 * run with the algorithm NCCL's tuner would pick: the faster of ring and tree in its model (latency + bytes ÷ algorithm
 * bandwidth), which is how NCCL chooses unless NCCL_ALGO forces one (NCCL docs, Environment Variables, NCCL_ALGO).
 * - Ring: 2(n−1) steps, of which 2(N−1) cross the network between the N servers (tuning.cc `nInterSteps`): its latency
 *   grows with the GPUs, its bandwidth term is 2(n−1)/n of the bytes at the bus bandwidth (nccl-tests
 *   doc/PERFORMANCE.md).
 * - Tree: up and down a tree of servers, ⌊log2 N⌋ network steps each way and the server's own GPUs in a chain (tuning.cc:
 *   2·((ppn−1)·intra + log2i(N)·inter)), at TREE_ALGORITHM_BANDWIDTH of the bus bandwidth.
 * So the ring wins for large messages on few servers and the tree for smaller messages or many servers. Inside one
 * server the engine keeps its bandwidth-only ring, as for every other collective there.
 */
export function allReduceMessage(bytes: number, gpus: number, perServer: number, busBytesPerSecond: number): AllReduceMessage {
  const ringBandwidthSeconds = (allReduceShare(gpus) * bytes) / busBytesPerSecond;
  const servers = Math.ceil(gpus / Math.max(1, perServer));
  if (servers <= 1 || gpus <= 1) return { algorithm: 'ring', seconds: ringBandwidthSeconds };
  const { base, ringStep, treeStep, networkStep } = NCCL_SIMPLE_LATENCY;
  const networkSteps = 2 * (servers - 1);
  const ring = base + (2 * (gpus - 1) - networkSteps) * ringStep + networkSteps * networkStep + ringBandwidthSeconds;
  const chain = Math.min(perServer, gpus) - 1;
  const tree =
    base +
    2 * (chain * treeStep + Math.floor(Math.log2(servers)) * networkStep) +
    bytes / (TREE_ALGORITHM_BANDWIDTH * busBytesPerSecond);
  return tree < ring ? { algorithm: 'tree', seconds: tree } : { algorithm: 'ring', seconds: ring };
}

/**
 * An all-reduce of `bytes` sent as messages of at most `messageBytes` (a DDP bucket, an FSDP unit's gradients), each
 * priced by allReduceMessage: seconds in all.
 */
export function allReduceSeconds(
  bytes: number,
  messageBytes: number,
  gpus: number,
  perServer: number,
  busBytesPerSecond: number,
): number {
  if (bytes <= 0 || gpus <= 1) return 0;
  // Inside one server the whole volume at the bus bandwidth, as allReduceMessage prices it there.
  if (gpus <= perServer) return (allReduceShare(gpus) * bytes) / busBytesPerSecond;
  const messages = Math.max(1, Math.ceil(bytes / Math.max(1, messageBytes)));
  return messages * allReduceMessage(bytes / messages, gpus, perServer, busBytesPerSecond).seconds;
}
