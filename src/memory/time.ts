/** Step-time cost of memory techniques. Every figure is an estimate, labelled as such. */
import type { Recompute } from './activations.ts';
import type { GpuSpec } from './gpus.ts';

/**
 * Assumed model-FLOPs utilisation: fraction of dense peak that training kernels reach.
 * Megatron-LM reports 44–52 % of A100 peak (Narayanan et al. 2021, arXiv 2104.04473 Table 1);
 * PaLM reports 46.2 % MFU (arXiv 2204.02311 Table 3). We assume 40 % to stay on the safe side.
 */
export const ASSUMED_MFU = 0.4;

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
  /** Sum of the lines, seconds (no overlap of communication with compute assumed). */
  totalSeconds: number;
  /** What the estimate assumes. */
  assumptions: string[];
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
  /** Data-, tensor-, pipeline-parallel degrees. */
  dp: number;
  tp: number;
  pp: number;
  /** ZeRO stage. */
  zero: 0 | 1 | 2 | 3;
  /** Recompute policy. */
  recompute: Recompute;
  /** Parameters on this GPU before ZeRO sharding. */
  stageParams: number;
  /** Bytes per gradient element communicated. */
  gradientBytes: number;
  /** Bytes per weight element communicated. */
  weightBytes: number;
  /** Offload mode. */
  offload: 'none' | 'optimizer' | 'optimizer+params';
}

const teraflops = 1e12;

/**
 * Training step time. FLOPs per token forward 2N + 2·L·s·h (Kaplan et al. 2020, arXiv 2001.08361
 * Table 1), training 3× forward; full recompute adds one forward, selective only the attention
 * term (Korthikanti et al. 2022 §5); pipeline bubble (p−1)/m of the compute (Narayanan et al. 2021
 * §2.2); ring all-reduce moves 2(n−1)/n of the gradients per GPU (Patarasuk & Yuan 2009), ZeRO-3 1.5× that
 * (arXiv 1910.02054 §7.2); offload transfers cross the host link once per step (optimizer) or per pass (params).
 */
export function trainingStepTime(input: TrainingTimeInput): StepTimeEstimate {
  const { gpu } = input;
  const flopsPerSecond = gpu.tensorTflops16 * teraflops * ASSUMED_MFU * input.tp * input.pp;
  const tokens = input.microBatch * input.seq * input.microBatches;
  const attentionFlopsPerToken = 2 * input.layers * input.seq * input.hidden;
  const forwardFlopsPerToken = 2 * input.activeParams + attentionFlopsPerToken;
  const compute = (3 * forwardFlopsPerToken * tokens) / flopsPerSecond;
  const recomputeFlopsPerToken =
    input.recompute === 'full' ? forwardFlopsPerToken : input.recompute === 'selective' ? attentionFlopsPerToken : 0;
  const recompute = (recomputeFlopsPerToken * tokens) / flopsPerSecond;
  const bubble = input.pp > 1 ? ((input.pp - 1) / input.microBatches) * (compute + recompute) : 0;
  const shard = Math.ceil(input.stageParams / input.dp);
  const host = gpu.hostLinkBytesPerSecond;
  const offloadBytes =
    input.offload === 'none'
      ? 0
      : shard * (input.gradientBytes + input.weightBytes) +
        (input.offload === 'optimizer+params' ? 2 * shard * input.weightBytes * input.microBatches : 0);
  const offload = offloadBytes / host;
  const ring = input.dp > 1 ? (2 * (input.dp - 1)) / input.dp : 0;
  const zeroFactor = input.zero === 3 ? 1.5 : 1;
  const dataParallel = (ring * zeroFactor * input.stageParams * input.gradientBytes) / gpu.peerLinkBytesPerSecond;
  const lines: StepTimeLine[] = [
    { id: 'compute', label: 'Forward + backward compute', seconds: compute, source: 'Kaplan et al. 2020 (arXiv 2001.08361) Table 1: 6N + 6·L·s·h FLOPs/token' },
    { id: 'recompute', label: `Recomputation (${input.recompute})`, seconds: recompute, source: 'Korthikanti et al. 2022 (arXiv 2205.05198) §5: full ≈ one extra forward' },
    { id: 'bubble', label: 'Pipeline bubble (p−1)/m', seconds: bubble, source: 'Narayanan et al. 2021 (arXiv 2104.04473) §2.2.1' },
    { id: 'offload', label: `Offload transfers over ${gpu.hostLink}`, seconds: offload, source: 'ZeRO-Offload (arXiv 2101.06840) §4: gradients down, weights up' },
    { id: 'data-parallel', label: `Data-parallel gradient traffic over ${gpu.peerLink}`, seconds: dataParallel, source: 'Ring all-reduce 2(n−1)/n; ZeRO-3 1.5× (arXiv 1910.02054 §7.2)' },
  ];
  return {
    estimate: true,
    lines,
    totalSeconds: lines.reduce((sum, line) => sum + line.seconds, 0),
    assumptions: [
      `${Math.round(ASSUMED_MFU * 100)} % of the ${gpu.name}'s dense ${gpu.tensorTflops16} TFLOP/s`,
      'no overlap of communication with compute',
      'all GPUs in one node on the peer link; tensor-parallel traffic not counted',
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
  const prefill = (2 * input.activeParams * input.promptTokens * input.batch) / (gpu.tensorTflops16 * teraflops * ASSUMED_MFU * input.tp * input.pp);
  const decode = (input.weightBytes + input.kvCacheBytes) / gpu.memoryBandwidthBytesPerSecond;
  const lines: StepTimeLine[] = [
    { id: 'prefill', label: 'Prefill of the prompt', seconds: prefill, source: 'Kaplan et al. 2020 (arXiv 2001.08361): 2N FLOPs per token' },
    { id: 'decode-token', label: 'Each decoded token (memory-bound)', seconds: decode, source: 'EleutherAI Transformer Math 101: bytes read / memory bandwidth' },
  ];
  return {
    estimate: true,
    lines,
    totalSeconds: prefill + decode,
    assumptions: [`${Math.round(ASSUMED_MFU * 100)} % of dense peak for prefill`, `decode at the full ${gpu.memoryBandwidthBytesPerSecond / 1e9} GB/s memory bandwidth`],
  };
}
