/** Data, tensor and pipeline parallelism: how many parameters (and which shards) one GPU holds. */
import type { ParamCounts } from './params.ts';
import { ceilDiv } from './ceil-div.ts';

/** ZeRO stage: 0 = plain data parallel, 1 = optimizer states, 2 = + gradients, 3 = + weights (FSDP full-shard). */
export type ZeroStage = 0 | 1 | 2 | 3;

/** Every ZeRO stage. */
export const ZERO_STAGES: readonly ZeroStage[] = [0, 1, 2, 3];

/** Pipeline stage whose memory is computed. `only` when pp = 1. */
export type PipelineStage = 'only' | 'first' | 'last';

/** Parameters held by one GPU of a pipeline stage under tensor parallelism (before ZeRO). */
export interface StageParams {
  /** Parameters on this GPU. */
  params: number;
  /** Transformer layers (or mlp blocks) in this stage. */
  layers: number;
  /** Parameters of one layer on this GPU (tensor-parallel part split by t, norms and row biases replicated). */
  perLayer: number;
}

/**
 * Parameters one GPU holds in pipeline stage `stage` with tensor parallel t and pipeline parallel p.
 * Megatron-LM layout (Shoeybi et al. 2019, arXiv 1909.08053; Narayanan et al. 2021, arXiv 2104.04473):
 * weight matrices and the token embedding split by t; norms and row-parallel biases replicated;
 * ceil(L/p) layers per stage; embeddings on the first stage, final norm and head on the last, and
 * with tied embeddings and p > 1 the last stage keeps its own copy of the embedding matrix.
 */
export function stageParams(counts: ParamCounts, totalLayers: number, tp: number, pp: number, stage: PipelineStage): StageParams {
  const layers = ceilDiv(totalLayers, pp);
  const onGpu = (all: number, split: number) => ceilDiv(split, tp) + (all - split);
  const perLayer = onGpu(counts.perLayer, counts.perLayerTensorParallel);
  const embeddings = ceilDiv(counts.tokenEmbedding, tp) + (counts.embeddings - counts.tokenEmbedding);
  const tiedCopy = pp > 1 && counts.head === 0 && counts.tokenEmbedding > 0 ? ceilDiv(counts.tokenEmbedding, tp) : 0;
  const output = counts.finalNorm + ceilDiv(counts.head, tp) + counts.pooler;
  // A mixture-of-experts model's dense layers come first (DeepSeek first_k_dense_replace), so the first stage holds them;
  // the last stage is counted with routed layers only, the larger kind.
  const dense = stage === 'last' ? 0 : Math.min(counts.denseLayers, layers);
  const body = perLayer * (layers - dense) + onGpu(counts.denseLayer, counts.denseLayerTensorParallel) * dense;
  if (stage === 'only') return { params: embeddings + body + output, layers, perLayer };
  if (stage === 'first') return { params: embeddings + body, layers, perLayer };
  return { params: body + output + tiedCopy, layers, perLayer };
}

/** Parameters per GPU when only a total is known (`--params`): ceil(N / (t·p)). */
export function stageParamsFromTotal(total: number, tp: number, pp: number): StageParams {
  return { params: ceilDiv(total, tp * pp), layers: 0, perLayer: 0 };
}

/** How many of a stage's parameters each model state holds on one GPU under ZeRO. */
export interface ZeroShards {
  /** Parameters whose weights this GPU stores. */
  weights: number;
  /** Parameters whose gradients this GPU stores. */
  gradients: number;
  /** Parameters whose optimizer states this GPU stores. */
  optimizer: number;
}

/**
 * ZeRO partitioning (Rajbhandari et al. 2019, arXiv 1910.02054 §5.1–5.3): stage 1 splits optimizer
 * states, stage 2 also gradients, stage 3 also weights, each into ceil(N/Nd) per GPU.
 */
export function zeroShards(params: number, dp: number, zero: ZeroStage): ZeroShards {
  const shard = ceilDiv(params, dp);
  return {
    weights: zero >= 3 ? shard : params,
    gradients: zero >= 2 ? shard : params,
    optimizer: zero >= 1 ? shard : params,
  };
}

/**
 * Model chunks whose activations one pipeline stage holds at once: a chunk is one micro-batch through the stage's
 * layers, or under interleaved 1F1B with v chunks per stage through its L/(p·v) layers, 1/v of them. Plain 1F1B: the
 * first stage min(p, m) micro-batches (Narayanan et al. 2021, arXiv 2104.04473 §2.2.1; Korthikanti et al. 2022,
 * arXiv 2205.05198 §4.2.3), the last one. Interleaved: Megatron-LM core 0.20.0 schedules.py runs
 * 2(p − r − 1) + (v − 1)·p warm-up forwards on rank r before its first backward, so rank r holds that many plus one,
 * at most all m·v: on the first stage p·v + p − 1 chunks, that is L·(1 + (p − 1)/(p·v)) layers' activations, the
 * factor of Korthikanti et al. 2022 §4.2.3 (after eq. 5).
 */
export function chunksInFlight(pp: number, ppVirtual: number, microBatches: number, stage: PipelineStage): number {
  if (ppVirtual === 1) return stage === 'last' ? 1 : Math.min(pp, microBatches);
  const rank = stage === 'last' ? pp - 1 : 0;
  const warmup = 2 * (pp - rank - 1) + (ppVirtual - 1) * pp;
  return Math.min(warmup + 1, microBatches * ppVirtual);
}
