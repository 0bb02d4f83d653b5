/** Step-time cost of memory techniques. Every figure is an estimate, labelled as such. */
import type { Recompute } from './activations.ts';
import { GPUS_PER_SERVER, type GpuSpec } from './gpus.ts';
import type { OptimizerImpl, OptimizerKind } from './optimizer.ts';
import { memo } from './memo.ts';
import { BNB_4BIT_BLOCK } from './weight-formats.ts';
import { allReduceSeconds, allReduceShare, busBandwidth, exposedSeconds, gatherShare } from './step-time/collectives.ts';
import { computeEfficiency } from './step-time/compute-efficiency.ts';
import { stepTimeBand, type StepTimeBand } from './step-time/band.ts';
import { BATCHING_SOURCES } from './batching.ts';
import { FP8_RATE_FACTOR, FP8_SOURCES } from './fp8.ts';
import { cpuAdamSeconds, CPU_ADAM_MEASURED_PARAMS, CPU_ADAM_MEASURED_SECONDS } from './step-time/cpu-adam.ts';

/** One line of the step-time estimate. */
export interface StepTimeLine {
  /** Stable id, e.g. `compute`, `recompute`, `bubble`. */
  id: string;
  /** Human-readable label. */
  label: string;
  /** Seconds per optimizer step (training) or per unit named in the label (inference). */
  seconds: number;
  /** One-line source of the formula. */
  source: string;
}

/** Step-time estimate. */
export interface StepTimeEstimate {
  /** Always true: these are estimates, not measurements. */
  estimate: true;
  /** Lines, each a separate cost. */
  lines: StepTimeLine[];
  /** Sum of the lines, seconds (each line already counts only what does not overlap compute). */
  totalSeconds: number;
  /**
   * The total's measured error band (step-time/band.ts), for a training step; null for inference, which no published
   * run calibrates.
   */
  band: StepTimeBand | null;
  /** What the estimate assumes (shared between estimates: read-only). */
  assumptions: readonly string[];
  /** Training: the real tokens one GPU trains per step (padding excluded; batching.ts), else absent. */
  trainedTokens?: number;
}

/** Inputs of the training step-time estimate. */
export interface TrainingTimeInput {
  /** GPU the step runs on. */
  gpu: GpuSpec;
  /** Parameters a token uses (MoE: active). */
  activeParams: number;
  /** Layers L (0 when unknown). */
  layers: number;
  /** Hidden size h (0 when unknown). */
  hidden: number;
  /** Sequence length s (1 for mlp). */
  seq: number;
  /** Micro-batch size b. */
  microBatch: number;
  /** Micro-batches per step m (gradient accumulation). */
  microBatches: number;
  /** Token positions one micro-batch computes, padding included (batching.ts `batchTokens`). */
  computedPerMicroBatch: number;
  /** Real tokens one micro-batch trains: at most `computedPerMicroBatch`, the rest is padding. */
  trainedPerMicroBatch: number;
  /** Mean tokens each token attends over (s, or a packed document's length under FlashAttention's varlen kernel). */
  attentionSpan: number;
  /** Data-, tensor-, pipeline-parallel degrees. */
  dp: number;
  /** GPUs the states are sharded over: `dp`, or an HSDP shard group whose dp/shardGroup replicas all-reduce. */
  shardGroup: number;
  tp: number;
  pp: number;
  /** Model chunks per pipeline stage, v: interleaved 1F1B above 1. */
  ppVirtual: number;
  /** ZeRO stage. */
  zero: 0 | 1 | 2 | 3;
  /** Recompute policy. */
  recompute: Recompute;
  /** Parameters on this GPU before ZeRO sharding. */
  stageParams: number;
  /** Parameters on this GPU that have gradients to reduce and offload (all of them, or a LoRA's adapters). */
  gradientParams: number;
  /** Bytes per gradient element communicated. */
  gradientBytes: number;
  /** Bytes per weight element communicated. */
  weightBytes: number;
  /** Offload mode. */
  offload: 'none' | 'optimizer' | 'optimizer+params';
  /** ZeRO-3 keeps the gathered weights from forward to backward: no second all-gather in backward. */
  keepGatheredWeights: boolean;
  /** Bytes of saved activations one micro-batch sends to the host in forward and brings back in backward (else 0). */
  activationOffloadBytes: number;
  /** Optimizer and its PyTorch implementation. */
  optimizer: OptimizerKind;
  optimizerImpl: OptimizerImpl;
  /** Parameters whose optimizer states this GPU updates (its ZeRO shard). */
  optimizerParams: number;
  /** Bytes per element of the optimizer's states (4 fp32, 2 bf16, 1 for 8-bit Adam). */
  stateBytes: number;
  /** Whether the base weights are frozen (LoRA, QLoRA): backward computes input gradients but no weight gradients. */
  frozenBase: boolean;
  /** Base weights this GPU stores in 4 bits and dequantizes to 16 bits for every matmul (QLoRA), elements; else 0. */
  dequantizedParams: number;
  /** Whether the matrix multiplies run in fp32 (no autocast, no 16-bit weights): at the GPU's FP32 rate, not its tensor cores'. */
  fp32Matmuls: boolean;
  /** The compute efficiency the reader sets (`--mfu`, a fraction of dense peak), or null for the calibrated curve. */
  mfu: number | null;
  /** Whether the Linear layers' matmuls run in FP8 (fp8.ts): at FP8_RATE_FACTOR × the 16-bit tensor rate. */
  fp8Matmuls: boolean;
  /** Bytes per weight element ZeRO-3 all-gathers: `weightBytes`, or 1 with torchao's float8 all-gather. */
  gatheredWeightBytes: number;
}

/**
 * The gradient bucket DDP all-reduces at a time: `bucket_cap_mb` defaults to 25 MiB (PyTorch 2.x
 * torch/nn/parallel/distributed.py `_DEFAULT_BUCKET_CAP_MB = 25`, turned into bytes as × 1024 × 1024).
 */
const DDP_BUCKET_BYTES = 25 * 2 ** 20;

/** Kernel launch cost PyTorch pays per small op, seconds (CUDA launch overhead, ~5 µs). Assumption shown with the estimate. */
const KERNEL_LAUNCH_SECONDS = 5e-6;

/**
 * Element accesses (reads + writes) per parameter in one optimizer step, per implementation. Fused AdamW reads
 * param, grad, m, v and writes param, m, v once (7); foreach runs each step of the update as its own pass over
 * every tensor (lerp, mul, addcmul, sqrt, div, add, addcdiv, weight decay: about 20); the for-loop does the same
 * per tensor. SGD with momentum: about 5. PyTorch docs, torch.optim "Algorithms": for-loop, foreach, fused.
 * bitsandbytes' and torchao's low-bit AdamW and bitsandbytes' Lion run one fused kernel per tensor whatever the
 * implementation flag (7; Lion reads param, grad, m and writes param, m: 5); Adafactor is a Python loop of separate
 * ops per parameter (as the for-loop AdamW); the CPU-offload optimizer steps on the host (no GPU traffic).
 */
const ACCESSES: Readonly<Record<OptimizerKind, Readonly<Record<OptimizerImpl, number>>>> = {
  sgd: { fused: 3, foreach: 3, 'for-loop': 3 },
  'sgd-momentum': { fused: 5, foreach: 6, 'for-loop': 6 },
  adamw: { fused: 7, foreach: 20, 'for-loop': 20 },
  'adamw-8bit': { fused: 7, foreach: 7, 'for-loop': 7 },
  'paged-adamw': { fused: 7, foreach: 7, 'for-loop': 7 },
  'paged-adamw-8bit': { fused: 7, foreach: 7, 'for-loop': 7 },
  'adamw-8bit-torchao': { fused: 7, foreach: 7, 'for-loop': 7 },
  'adamw-4bit-torchao': { fused: 7, foreach: 7, 'for-loop': 7 },
  'adamw-cpu-offload': { fused: 0, foreach: 0, 'for-loop': 0 },
  adafactor: { fused: 20, foreach: 20, 'for-loop': 20 },
  lion: { fused: 5, foreach: 5, 'for-loop': 5 },
};

/**
 * Whether the tensor- and data-parallel groups span servers of GPUS_PER_SERVER GPUs, with ranks placed as Megatron-LM
 * places them, tensor parallel first, then data parallel, then pipeline stages (Narayanan et al. 2021, arXiv
 * 2104.04473 §3.3, takeaway #1: tensor parallelism within a server): a group that does not fit one server crosses the
 * network.
 */
function crossesServers(input: Pick<TrainingTimeInput, 'tp' | 'dp'>) {
  return {
    tensorAcrossServers: input.tp > GPUS_PER_SERVER,
    dataAcrossServers: input.dp > 1 && input.tp * input.dp > GPUS_PER_SERVER,
  };
}

/** Seconds of one optimizer step on the GPU (memory-bound) or, offloaded, on the host (CPU-Adam's measured rate). */
function optimizerStepSeconds(input: TrainingTimeInput, tensors: number): number {
  if (input.offload !== 'none') return cpuAdamSeconds(input.optimizerParams);
  const accesses = ACCESSES[input.optimizer][input.optimizerImpl];
  const bytes = accesses * input.stateBytes * input.optimizerParams;
  const launches = input.optimizerImpl === 'for-loop' ? tensors * accesses * KERNEL_LAUNCH_SECONDS : 0;
  return bytes / input.gpu.memoryBandwidthBytesPerSecond + launches;
}

const teraflops = 1e12;

/**
 * Bytes moved per weight each time bitsandbytes dequantizes a 4-bit weight for a matmul: the packed NF4 nibble (half a
 * byte) and its block's absmax (one byte per 64 weights with double quantization) read, the 16-bit weight written.
 * MatMul4Bit does it in every forward and every backward (bitsandbytes autograd/_functions.py: `dequantize_4bit` in
 * both), so a recomputed forward does it again; the matmul then reads the 16-bit weight as LoRA's would.
 */
const DEQUANTIZE_BYTES_PER_PARAM = 0.5 + 1 / BNB_4BIT_BLOCK + 2;

/**
 * Training step time. FLOPs per token forward 2N + 2·L·s·h (Kaplan et al. 2020, arXiv 2001.08361
 * Table 1), training 3× forward, at the 16-bit tensor-core rate or, for fp32 matmuls, the FP32 rate (gpus.ts); full recompute adds one forward, selective only the attention
 * term (Korthikanti et al. 2022 §5); pipeline bubble (p−1)/m of the compute, (p−1)/(v·m) interleaved
 * (Narayanan et al. 2021 §2.2); tensor parallelism all-reduces each layer's activations four times (Shoeybi et al. 2019 §3); ring
 * all-reduce moves 2(n−1)/n of the gradients per GPU (Patarasuk & Yuan 2009), ZeRO-3 1.5× that
 * (arXiv 1910.02054 §7.2); offload transfers cross the host link once per step (optimizer) or per pass (params), and CPU-Adam runs at
 * DeepSpeed's measured rate (step-time/cpu-adam.ts); a
 * QLoRA base is dequantized in every forward and backward (DEQUANTIZE_BYTES_PER_PARAM).
 */
export function trainingStepTime(input: TrainingTimeInput): StepTimeEstimate {
  const s = trainingStepSeconds(input);
  const words = sharedTimeWords({
    gpu: input.gpu,
    frozenBase: input.frozenBase,
    recompute: input.recompute,
    offloaded: input.offload !== 'none',
    optimizer: input.optimizer,
    optimizerImpl: input.optimizerImpl,
    fp32Matmuls: input.fp32Matmuls,
    dequantizes: input.dequantizedParams > 0,
    tensorParallel: input.tp > 1,
    pipelined: input.pp > 1,
    ppVirtual: input.ppVirtual,
    efficiencyPercent: Math.round(s.efficiency * 1000) / 10,
    efficiencyGiven: input.mfu !== null,
    padded: input.trainedPerMicroBatch < input.computedPerMicroBatch,
    fp8: input.fp8Matmuls,
    ...crossesServers(input),
  });
  // By id: the words list the dequantization and tensor-parallel lines only where there is a 4-bit base or tensor
  // parallelism (elsewhere each would be a zero about a technique not in use).
  const seconds: Readonly<Record<string, number>> = {
    compute: s.compute,
    recompute: s.recompute,
    padding: s.padding,
    dequantize: s.dequantize,
    bubble: s.bubble,
    'pipeline-sends': s.pipeline,
    offload: s.offload,
    'tensor-parallel': s.tensorParallel,
    'data-parallel': s.dataParallel,
    optimizer: s.optimizer,
  };
  const lines = words.lines.map((line) => ({ ...line, seconds: seconds[line.id] ?? 0 }));
  return {
    estimate: true,
    lines,
    totalSeconds: s.total,
    band: stepTimeBand(s.total),
    assumptions: words.assumptions,
    trainedTokens: input.trainedPerMicroBatch * input.microBatches,
  };
}

/** A training step's seconds by cost, in the order of trainingStepTime's lines, and their sum. */
export interface TrainingStepSeconds {
  /** The compute efficiency the compute lines assume, a fraction of the GPU's dense peak. */
  readonly efficiency: number;
  /** Forward and backward of the real tokens. */
  readonly compute: number;
  /** Recomputation for the real tokens. */
  readonly recompute: number;
  /** Forward, backward and recomputation spent on padding positions: computed, never trained. */
  readonly padding: number;
  /** Dequantizing a 4-bit base for its matmuls (QLoRA), memory-bound; else 0. */
  readonly dequantize: number;
  readonly bubble: number;
  /** Activations and their gradients sent between pipeline stages. */
  readonly pipeline: number;
  readonly offload: number;
  /** Tensor parallelism's all-reduces (or, with sequence parallelism, reduce-scatters and all-gathers) of activations. */
  readonly tensorParallel: number;
  readonly dataParallel: number;
  readonly optimizer: number;
  readonly total: number;
  /**
   * The seconds each micro-batch adds: the weights streamed from the host for its forward and backward and its offloaded
   * activations (of `offload`), and a 4-bit base dequantized for them (`dequantize`), 0 without these: the step is the rest plus
   * `bubble`, which scales as 1/m, plus m times this.
   */
  readonly perMicroBatch: number;
}

/** trainingStepTime's numbers without its words: what the planner's search ranks by (npm run bench -- planner). */
export function trainingStepSeconds(input: TrainingTimeInput): TrainingStepSeconds {
  const { gpu } = input;
  const m = input.microBatches;
  const attentionFlopsPerToken = 2 * input.layers * input.attentionSpan * input.hidden;
  const forwardFlopsPerToken = 2 * input.activeParams + attentionFlopsPerToken;
  const efficiency = computeEfficiencyOf(input, attentionFlopsPerToken / forwardFlopsPerToken);
  const peakTflops = input.fp32Matmuls ? gpu.fp32Tflops : gpu.tensorTflops16;
  const flopsPerSecond = peakTflops * teraflops * efficiency * input.tp;
  const tokens = input.computedPerMicroBatch * m;
  // Padding positions run every layer like real tokens (the attention mask only hides them from the scores).
  const trainedShare = input.trainedPerMicroBatch / input.computedPerMicroBatch;
  // FP8 runs the weight matmuls (2N per token) faster; attention's score matmuls stay in 16 bits (fp8.ts FP8_SOURCES.rate).
  const fp8Speedup = input.fp8Matmuls ? (gpu.tensorTflops16 * FP8_RATE_FACTOR) / peakTflops : 1;
  const effectiveForwardFlopsPerToken =
    fp8Speedup === 1 ? forwardFlopsPerToken : (2 * input.activeParams) / fp8Speedup + attentionFlopsPerToken;
  // A pipeline runs at its busiest stage: with L layers over p stages, ⌈L/p⌉ of them (Narayanan et al. 2021, arXiv
  // 2104.04473 §2.2: every stage waits for the slowest each micro-batch).
  const stageShare = stageShareOf(input);
  // Backward costs two forwards: one for the input gradients, one for the weight gradients, which a frozen base skips
  // (Hu et al. 2021, arXiv 2106.09685 §4: LoRA needs no gradients for most parameters).
  const passes = input.frozenBase ? 2 : 3;
  const computeAll = (passes * effectiveForwardFlopsPerToken * tokens * stageShare) / flopsPerSecond;
  // torchtitan's op-level policy saves every other matmul's output and the attention's, so backward reruns about half
  // the weight matmuls (activations.ts opSavedTerms).
  const recomputeFlopsPerToken =
    input.recompute === 'full'
      ? effectiveForwardFlopsPerToken
      : input.recompute === 'selective'
        ? attentionFlopsPerToken
        : input.recompute === 'op'
          ? input.activeParams / fp8Speedup
          : 0;
  const recomputeAll = (recomputeFlopsPerToken * tokens * stageShare) / flopsPerSecond;
  const compute = computeAll * trainedShare;
  const recompute = recomputeAll * trainedShare;
  const padding = (computeAll + recomputeAll) * (1 - trainedShare);
  // Each micro-batch dequantizes the base in its forward and backward, and again in a fully recomputed forward
  // (selective recompute redoes attention's score matmuls only, which read no weight).
  const dequantizePasses = input.recompute === 'full' ? 3 : 2;
  const dequantizePerMicroBatch =
    (input.dequantizedParams * DEQUANTIZE_BYTES_PER_PARAM * dequantizePasses) / gpu.memoryBandwidthBytesPerSecond;
  const dequantize = dequantizePerMicroBatch * m;
  // Interleaving v model chunks per stage shrinks the bubble to (p−1)/(v·m) (Narayanan et al. 2021 §2.2.2).
  const bubble = input.pp > 1 ? ((input.pp - 1) / (input.ppVirtual * m)) * (computeAll + recomputeAll) : 0;
  const shard = Math.ceil(input.stageParams / input.dp);
  const gradientShard = Math.ceil(input.gradientParams / input.dp);
  const host = gpu.hostLinkBytesPerSecond;
  // The gradients go down and the updated weights come up once per step, exposed: the next forward waits for the
  // weights, and DeepSpeed overlaps the gradients' copy with backward only under ZeRO-3 (0.19.6 runtime/zero/config.py
  // overlap_comm_valid), not modelled: the planner's lower bound holds this transfer fixed across micro-batch sizes.
  const offloadBytes =
    input.offload === 'none'
      ? 0
      : gradientShard * (input.gradientBytes + input.weightBytes) +
        (input.offload === 'optimizer+params' ? 2 * shard * input.weightBytes * m : 0);
  // Offloaded activations cross the host link twice per micro-batch: down in forward, up in backward.
  const activationsPerMicroBatch = (2 * input.activationOffloadBytes) / host;
  const offload = offloadBytes / host + activationsPerMicroBatch * m;
  const activationBytes = input.fp32Matmuls ? 4 : 2;
  const across = crossesServers(input);
  const stageLayers = input.layers * stageShare;
  const tensorParallel = tensorParallelSeconds(input, stageLayers, tokens, activationBytes, across.tensorAcrossServers);
  const pipeline = pipelineSendSeconds(input, activationBytes);
  // The compute each collective can hide behind: a micro-batch's forward, and its backward with any recompute.
  const forwardPerMicroBatch = computeAll / passes / m;
  const backwardPerMicroBatch = (computeAll * (passes - 1)) / passes / m + recomputeAll / m;
  const dataParallel = dataParallelSeconds(input, forwardPerMicroBatch, backwardPerMicroBatch);
  // About a dozen parameter tensors per transformer layer (projections, norms, biases) plus embeddings and head.
  const optimizer = optimizerStepSeconds(input, 12 * input.layers + 4);
  // Added in the lines' order, as a sum of the lines would be.
  const total =
    compute + recompute + padding + dequantize + bubble + pipeline + offload + tensorParallel + dataParallel + optimizer;
  const offloadPerMicroBatch = input.offload === 'optimizer+params' ? (2 * shard * input.weightBytes) / host : 0;
  const perMicroBatch = offloadPerMicroBatch + activationsPerMicroBatch + dequantizePerMicroBatch;
  return {
    efficiency,
    compute,
    recompute,
    padding,
    dequantize,
    bubble,
    pipeline,
    offload,
    tensorParallel,
    dataParallel,
    optimizer,
    total,
    perMicroBatch,
  };
}

/**
 * The compute efficiency the step assumes: the reader's, or the calibrated curve's for the step's matmuls, which run
 * over the positions a micro-batch computes (a padding-free row holds only its real tokens) and attend over its span.
 */
function computeEfficiencyOf(input: TrainingTimeInput, attentionShare: number): number {
  if (input.mfu !== null) return input.mfu;
  return computeEfficiency(input.gpu, {
    tokens: input.computedPerMicroBatch,
    hidden: input.hidden,
    tp: input.tp,
    fp32: input.fp32Matmuls,
    attentionShare: Number.isFinite(attentionShare) ? attentionShare : 0,
  });
}

/** The busiest pipeline stage's share of the model's compute: ⌈L/p⌉ of L layers, or 1/p when the layers are unknown. */
function stageShareOf(input: Pick<TrainingTimeInput, 'layers' | 'pp'>): number {
  if (input.pp <= 1) return 1;
  return input.layers > 0 ? Math.ceil(input.layers / input.pp) / input.layers : 1 / input.pp;
}

/**
 * Tensor parallelism's activation traffic: each layer all-reduces a b·s·h activation twice in the forward and twice in
 * the backward (Shoeybi et al. 2019, arXiv 1909.08053 §3, Fig. 4), twice more in a fully recomputed forward; sequence
 * parallelism turns each into a reduce-scatter and an all-gather of the same volume (Korthikanti et al. 2022, arXiv
 * 2205.05198 §4.2.2), over the busiest stage's `stageLayers`. On the critical path: each all-reduce's output feeds
 * the next matmul.
 */
function tensorParallelSeconds(
  input: TrainingTimeInput,
  stageLayers: number,
  tokens: number,
  activationBytes: number,
  acrossServers: boolean,
): number {
  if (input.tp <= 1) return 0;
  const collectives = 4 + (input.recompute === 'full' ? 2 : 0);
  const bytes = collectives * allReduceShare(input.tp) * stageLayers * tokens * input.hidden * activationBytes;
  return bytes / busBandwidth(input.gpu, acrossServers, GPUS_PER_SERVER);
}

/**
 * Pipeline stages send each micro-batch's b·s·h activations forward and their gradients back (Narayanan et al. 2021,
 * arXiv 2104.04473 §4.1), split over the t tensor-parallel ranks by its scatter/gather optimisation: 2m sends per step
 * on the critical path, v times as many under interleaving, where each micro-batch crosses every stage v times (§2.2.2:
 * "the amount of communication also increases by v"). Adjacent stages are t·d ranks apart (tensor, then data, then pipeline ranks), so they cross the
 * network once a pipeline does not fit one server; each send then goes through the sending GPU's own card.
 */
function pipelineSendSeconds(input: TrainingTimeInput, activationBytes: number): number {
  if (input.pp <= 1) return 0;
  const bytes = (input.microBatch * input.seq * input.hidden * activationBytes) / input.tp;
  const acrossServers = input.tp * input.dp * input.pp > GPUS_PER_SERVER;
  const link = acrossServers ? input.gpu.networkBytesPerSecond : input.gpu.peerLinkBytesPerSecond;
  return (2 * input.microBatches * input.ppVirtual * bytes) / link;
}

/**
 * Data parallelism's traffic, each collective priced at its group's bus bandwidth and overlapped with the compute it
 * can hide behind (collectives.ts exposedSeconds). ZeRO-0: the gradients all-reduced once per step, during the last
 * micro-batch's backward (DDP's no_sync accumulation). ZeRO-1/2: the gradients reduce-scattered (ZeRO-1 once per step,
 * ZeRO-2 each micro-batch, arXiv 1910.02054 §5) and the updated weights all-gathered after the optimizer step, exposed.
 * ZeRO-3/FSDP: every micro-batch all-gathers the weights for its forward (hidden behind the forward) and, unless they
 * are kept gathered (FSDP2 reshard_after_forward=False), again for its backward, and reduce-scatters its gradients
 * (hidden behind the backward): FSDP re-gathers in every micro-batch under accumulation. HSDP then all-reduces each
 * gradient shard across the dp/shardGroup replicas once per step, exposed.
 */
function dataParallelSeconds(input: TrainingTimeInput, forwardWindow: number, backwardWindow: number): number {
  const m = input.microBatches;
  const gradients = input.gradientParams * input.gradientBytes;
  const weights = input.stageParams * input.weightBytes;
  const units = Math.max(1, input.layers / input.pp);
  const replicas = input.dp / input.shardGroup;
  const membersPerServer = Math.max(1, Math.floor(GPUS_PER_SERVER / input.tp));
  const groupAcross = input.shardGroup > 1 && input.tp * input.shardGroup > GPUS_PER_SERVER;
  const across = replicas > 1 ? groupAcross : crossesServers(input).dataAcrossServers;
  const link = busBandwidth(input.gpu, across, membersPerServer);
  const n = input.shardGroup;
  let seconds: number;
  if (input.zero === 0) {
    // DDP all-reduces its gradient buckets as backward fills them, ring or tree between servers (allReduceSeconds).
    const allReduce = allReduceSeconds(gradients, DDP_BUCKET_BYTES, n, across ? membersPerServer : n, link);
    seconds = exposedSeconds(allReduce, backwardWindow, units);
  } else if (input.zero === 1 || input.zero === 2) {
    const reduceTimes = input.zero === 2 ? m : 1;
    const reduce = (gatherShare(n) * gradients) / link;
    seconds = reduceTimes * exposedSeconds(reduce, backwardWindow, units) + (gatherShare(n) * weights) / link;
  } else {
    // torchao's float8 all-gather sends 1 byte per weight (gatheredWeightBytes) in both gathers.
    const gather = (gatherShare(n) * input.stageParams * input.gatheredWeightBytes) / link;
    const backward = (input.keepGatheredWeights ? 0 : gather) + (gatherShare(n) * gradients) / link;
    seconds = m * (exposedSeconds(gather, forwardWindow, units) + exposedSeconds(backward, backwardWindow, units));
  }
  // Each GPU all-reduces its own shard with its counterparts in the other replicas, one per server, through its own card,
  // one FSDP unit (a layer) at a time: FSDP2 reduces each unit's gradients as its backward ends (Zhao et al. 2023 §3.3).
  const replicasAcross = crossesServers(input).dataAcrossServers;
  const replicaLink = busBandwidth(input.gpu, replicasAcross, 1);
  const shardGradients = gradients / input.shardGroup;
  const replicasPerServer = replicasAcross ? Math.max(1, Math.floor(membersPerServer / input.shardGroup)) : replicas;
  return seconds + allReduceSeconds(shardGradients, shardGradients / units, replicas, replicasPerServer, replicaLink);
}

/** The words, shared among the last estimates that had the same settings (the planner alternates a few). */
const sharedTimeWords = memo(trainingTimeWords, 32);

/**
 * The words of a training step-time estimate: its lines' ids, labels and sources, in the order they are shown, and its
 * assumptions. They depend on a few settings only, so estimates share them (memo.ts): the planner times thousands.
 */
function trainingTimeWords(w: {
  gpu: GpuSpec;
  frozenBase: boolean;
  recompute: Recompute;
  offloaded: boolean;
  optimizer: OptimizerKind;
  optimizerImpl: OptimizerImpl;
  fp32Matmuls: boolean;
  dequantizes: boolean;
  tensorParallel: boolean;
  pipelined: boolean;
  /** Model chunks per pipeline stage (interleaved 1F1B above 1). */
  ppVirtual: number;
  efficiencyPercent: number;
  efficiencyGiven: boolean;
  padded: boolean;
  fp8: boolean;
  tensorAcrossServers: boolean;
  dataAcrossServers: boolean;
}): { lines: readonly Omit<StepTimeLine, 'seconds'>[]; assumptions: readonly string[] } {
  const { gpu } = w;
  return {
    lines: [
      {
        id: 'compute',
        label: w.frozenBase ? 'Forward + backward compute (frozen base: no weight gradients)' : 'Forward + backward compute',
        source: 'Kaplan et al. 2020 (arXiv 2001.08361) Table 1: 6N + 6·L·s·h FLOPs/token (4N + 4·L·s·h with a frozen base)',
      },
      {
        id: 'recompute',
        label: `Recomputation (${w.recompute})`,
        source: 'Korthikanti et al. 2022 (arXiv 2205.05198) §5: full ≈ one extra forward',
      },
      ...(w.padded
        ? [
            {
              id: 'padding',
              label: 'Padding: positions computed and never trained',
              source: `(1 − real ÷ computed positions) of the compute and recomputation; ${BATCHING_SOURCES.mask}`,
            },
          ]
        : []),
      ...(w.dequantizes
        ? [
            {
              id: 'dequantize',
              label: 'Dequantizing the 4-bit base for every matmul (QLoRA), memory-bound',
              source:
                'bitsandbytes autograd/_functions.py MatMul4Bit: dequantize_4bit in every forward and backward; NF4 + absmax read, 16-bit written, at the GPU’s memory bandwidth',
            },
          ]
        : []),
      {
        id: 'bubble',
        label:
          w.ppVirtual > 1 ? `Pipeline bubble (p−1)/(v·m), interleaved 1F1B with v = ${w.ppVirtual}` : 'Pipeline bubble (p−1)/m',
        source:
          w.ppVirtual > 1 ? 'Narayanan et al. 2021 (arXiv 2104.04473) §2.2.2' : 'Narayanan et al. 2021 (arXiv 2104.04473) §2.2.1',
      },
      ...(w.pipelined
        ? [
            {
              id: 'pipeline-sends',
              label: `Activations sent between pipeline stages over ${w.dataAcrossServers || w.tensorAcrossServers ? gpu.network : gpu.peerLink}`,
              source: `Narayanan et al. 2021 (arXiv 2104.04473) §4.1: b·s·h forward and back per micro-batch, scattered over the t tensor-parallel ranks${w.ppVirtual > 1 ? `; ×${w.ppVirtual} sends under interleaving (§2.2.2)` : ''}`,
            },
          ]
        : []),
      {
        id: 'offload',
        label: `Offload transfers over ${gpu.hostLink}`,
        source:
          'ZeRO-Offload (arXiv 2101.06840) §4: gradients down, weights up; offloaded activations down in forward and up in backward',
      },
      ...(w.tensorParallel
        ? [
            {
              id: 'tensor-parallel',
              label: `Tensor-parallel activation traffic over ${w.tensorAcrossServers ? gpu.network : gpu.peerLink}`,
              source: `Megatron-LM (arXiv 1909.08053) §3: 2 all-reduces of b·s·h per layer forward, 2 backward (and 2 in a recomputed forward); ring 2(t−1)/t; sequence parallel: the same volume (arXiv 2205.05198 §4.2.2)${w.tensorAcrossServers ? `; ${gpu.networkSource}` : ''}`,
            },
          ]
        : []),
      {
        id: 'data-parallel',
        label: `Data-parallel traffic over ${w.dataAcrossServers ? `${gpu.network}, every card of a server at once` : gpu.peerLink}, exposed`,
        source: `Ring all-reduce 2(n−1)/n, all-gather and reduce-scatter (n−1)/n (nccl-tests doc/PERFORMANCE.md); ZeRO-3/FSDP gathers the weights in every micro-batch (arXiv 1910.02054 §5, arXiv 2304.11277 §3.3)${w.dataAcrossServers ? `; between servers each all-reduce runs as ring or tree, whichever NCCL 2.30.7's tuning model (src/graph/tuning.cc) makes faster for its message; ${gpu.networkSource}` : ''}`,
      },
      {
        id: 'optimizer',
        label: !w.offloaded
          ? // bitsandbytes' 8-bit AdamW is one kernel of its own: torch.optim's implementations do not apply.
            `Optimizer step (${w.optimizer === 'adamw-8bit' ? w.optimizer : `${w.optimizer}, ${w.optimizerImpl}`}), memory-bound`
          : `Optimizer step on the host (CPU Adam)`,
        source: !w.offloaded
          ? 'PyTorch docs, torch.optim "Algorithms": for-loop, foreach, fused; bytes / HBM bandwidth'
          : `DeepSpeed PR #735: DeepSpeedCPUAdam stepped ${CPU_ADAM_MEASURED_PARAMS / 1e9}B parameters in ${CPU_ADAM_MEASURED_SECONDS} s`,
      },
    ],
    assumptions: [
      `${w.efficiencyPercent} % of the ${gpu.name}'s dense ${w.fp32Matmuls ? `FP32 ${gpu.fp32Tflops}` : `16-bit ${gpu.tensorTflops16}`} TFLOP/s${w.efficiencyGiven ? ' (--mfu)' : ', calibrated to published runs for this matmul size'}${w.fp32Matmuls ? " (PyTorch's default keeps TF32 off for matmuls)" : ''}`,
      ...(w.fp8
        ? [
            `FP8 Linear matmuls at ${FP8_RATE_FACTOR}× the dense 16-bit rate, attention in 16 bits; the float8 casts and scales are not counted, so the speed-up is an upper bound (${FP8_SOURCES.rate})`,
          ]
        : []),
      'data-parallel collectives overlap compute but for one layer’s share (DDP buckets, FSDP prefetch); tensor-parallel and pipeline sends do not',
      `${GPUS_PER_SERVER} GPUs per server, tensor-parallel ranks together, then data-parallel ones`,
      !w.offloaded
        ? `optimizer step at the GPU's memory bandwidth${w.optimizerImpl === 'for-loop' ? ', plus 5 µs per kernel launch' : ''}`
        : `CPU-Adam at ${Math.round((CPU_ADAM_MEASURED_SECONDS / CPU_ADAM_MEASURED_PARAMS) * 1e11) / 100} s per billion parameters of this GPU's shard, as measured by DeepSpeed, after backward and before the next forward (no delayed update)`,
    ],
  };
}

/** Inputs of the inference time estimate. */
export interface InferenceTimeInput {
  /** GPU. */
  gpu: GpuSpec;
  /** Parameters a token uses. */
  activeParams: number;
  /** Prompt tokens per sequence. */
  promptTokens: number;
  /** Sequences in the batch. */
  batch: number;
  /** Weight bytes on this GPU. */
  weightBytes: number;
  /** KV-cache bytes on this GPU. */
  kvCacheBytes: number;
  /** Hidden size h (0 when unknown): the prefill's matmul width. */
  hidden: number;
  /** Tensor- and pipeline-parallel degrees. */
  tp: number;
  pp: number;
}

/**
 * Inference time: prefill is compute-bound (2N FLOPs per token, Kaplan et al. 2020); each decode step
 * is memory-bound, reading all weights and the KV cache once (EleutherAI "Transformer Math 101").
 */
export function inferenceTime(input: InferenceTimeInput): StepTimeEstimate {
  const { gpu } = input;
  const efficiency = computeEfficiency(gpu, {
    tokens: input.promptTokens * input.batch,
    hidden: input.hidden,
    tp: input.tp,
    fp32: false,
    attentionShare: 0,
  });
  const prefill =
    (2 * input.activeParams * input.promptTokens * input.batch) /
    (gpu.tensorTflops16 * teraflops * efficiency * input.tp * input.pp);
  const decode = (input.weightBytes + input.kvCacheBytes) / gpu.memoryBandwidthBytesPerSecond;
  const lines: StepTimeLine[] = [
    {
      id: 'prefill',
      label: 'Prefill of the prompt',
      seconds: prefill,
      source: 'Kaplan et al. 2020 (arXiv 2001.08361): 2N FLOPs per token',
    },
    {
      id: 'decode-token',
      label: 'Each decoded token (memory-bound)',
      seconds: decode,
      source: 'EleutherAI Transformer Math 101: bytes read / memory bandwidth',
    },
  ];
  return {
    estimate: true,
    lines,
    totalSeconds: prefill + decode,
    band: null,
    assumptions: [
      `${Math.round(efficiency * 1000) / 10} % of dense peak for prefill (calibrated to published training runs)`,
      `decode at the full ${gpu.memoryBandwidthBytesPerSecond / 1e9} GB/s memory bandwidth`,
    ],
  };
}
