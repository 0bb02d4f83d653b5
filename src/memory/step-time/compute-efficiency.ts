/**
 * The fraction of a GPU's dense peak that training matmuls reach: a function of the work per matmul, calibrated to
 * published runs (published-runs.ts), in place of a constant.
 */
import type { GpuSpec } from '../gpus.ts';

/** The shape of a transformer layer's matmuls on one GPU. */
export interface MatmulShape {
  /** Tokens per micro-batch, b·s: the matmuls' M. */
  readonly tokens: number;
  /** Hidden size h (0 when unknown). */
  readonly hidden: number;
  /** Tensor-parallel degree t: each GPU's share of a projection is h/t wide. */
  readonly tp: number;
  /** Whether the matmuls run in fp32 on the CUDA cores instead of the 16-bit tensor cores. */
  readonly fp32: boolean;
  /** Share of the step's FLOPs in attention's score and value matmuls (2·L·s·h of 2N + 2·L·s·h per token). */
  readonly attentionShare: number;
}

/**
 * Fitted constants: efficiency = CEILING × I / (I + RIDGE_MULTIPLE × R), with I the arithmetic intensity of the layer's
 * matmul and R the GPU's ridge point. Fitted by least squares on log(predicted ÷ measured) over the `fit` runs of
 * published-runs.ts (llm-foundry's MPT tables, torchtitan Table 1, BLOOM-176B); the `held-out` runs are reported, not
 * fitted.
 */
export const EFFICIENCY_CEILING = 0.695;
/** See EFFICIENCY_CEILING. */
export const RIDGE_MULTIPLE = 2.55;

/**
 * Arithmetic intensity, FLOPs per byte, of a matmul M×K by K×N with 2-byte elements: 2MNK ÷ 2(MK + KN + MN) (NVIDIA,
 * "Matrix Multiplication Background User's Guide", Arithmetic Intensity), for the layer's column-parallel projection:
 * M = b·s tokens, K = h, N = h/t. A dimension that is unknown (0) drops out.
 */
export function matmulIntensity(shape: Pick<MatmulShape, 'tokens' | 'hidden' | 'tp'>): number {
  const dims = [shape.tokens, shape.hidden, shape.hidden / Math.max(1, shape.tp)].filter((d) => d > 0);
  return 1 / dims.reduce((sum, d) => sum + 1 / d, 0);
}

/** A GPU's ridge point, FLOPs per byte: its dense peak over its memory bandwidth (16-bit tensor cores, or FP32). */
export function ridgePoint(gpu: GpuSpec, fp32: boolean): number {
  return ((fp32 ? gpu.fp32Tflops : gpu.tensorTflops16) * 1e12) / gpu.memoryBandwidthBytesPerSecond;
}

/**
 * Fraction of dense peak fused attention reaches, forward and backward: FlashAttention-2 runs at 50–73 % of an A100's
 * peak (Dao 2023, arXiv 2307.08691, abstract) and 35 % of an H100's (Shah et al. 2024, FlashAttention-3, arXiv
 * 2407.08608, abstract); PyTorch's SDPA runs FlashAttention-2 on both. Hopper and later (compute capability 9+) and GPUs
 * without one (AMD) take the H100 figure, older ones the middle of the A100 range. Those rates count the backward as
 * 2.5 forwards (flash-attention c082294 benchmarks/benchmark_flash_attention.py `flops`: fwd_bwd 3.5 × fwd), the step's
 * FLOPs as 2 (Kaplan et al. 2020), so per step FLOP attention runs at 3/3.5 of the kernel's rate.
 */
export function attentionEfficiency(gpu: GpuSpec): number {
  const kernel = gpu.computeCapability !== null && gpu.computeCapability < 9 ? 0.6 : 0.35;
  return (kernel * 3) / 3.5;
}

/** The efficiency of the layer's weight matmuls alone: the fitted roofline curve. */
export function weightMatmulEfficiency(gpu: GpuSpec, shape: Omit<MatmulShape, 'attentionShare'>): number {
  const intensity = matmulIntensity(shape);
  return (EFFICIENCY_CEILING * intensity) / (intensity + RIDGE_MULTIPLE * ridgePoint(gpu, shape.fp32));
}

/**
 * Model-FLOPs utilisation of `gpu` for a step of `shape`: its weight matmuls at weightMatmulEfficiency and its attention
 * at attentionEfficiency, blended by their FLOPs (time = FLOPs ÷ rate for each part). A roofline (Williams et al. 2009, CACM 52(4)): a matmul
 * whose intensity is well above the GPU's ridge point (peak FLOP/s ÷ memory bandwidth) runs near the ceiling, one near
 * or below it is bandwidth-bound; the smooth saturating form I/(I + k·R) is the fitted curve. It rises with the tokens
 * per micro-batch and the width per tensor-parallel rank, as the published MFU tables do (llm-foundry: 44 % at width
 * 768 to 64 % at 4096 on A100), and is lower on GPUs whose peak outruns their memory (H100's ridge is twice A100's).
 */
export function computeEfficiency(gpu: GpuSpec, shape: MatmulShape): number {
  const matmuls = weightMatmulEfficiency(gpu, shape);
  const attention = shape.fp32 ? matmuls : attentionEfficiency(gpu);
  return 1 / ((1 - shape.attentionShare) / matmuls + shape.attentionShare / attention);
}
