/** Training precisions and what each stores per parameter and per activation element. */

/** Training precision regime. */
export type Precision = 'fp32' | 'amp-fp16' | 'amp-bf16' | 'mixed-fp16' | 'mixed-bf16' | 'bf16';

/** Every training precision. */
export const PRECISIONS: readonly Precision[] = ['fp32', 'amp-fp16', 'amp-bf16', 'mixed-fp16', 'mixed-bf16', 'bf16'];

/** Bytes per parameter or element that a precision regime stores. */
export interface PrecisionBytes {
  /** Model weights the forward pass reads, bytes per parameter. */
  weights: number;
  /** Extra 16-bit weight copies made by autocast and kept for backward, bytes per parameter (AMP only). */
  castWeights: number;
  /** Gradients, bytes per parameter. */
  gradients: number;
  /** Whether the optimizer keeps its own fp32 master copy of the weights (4 bytes/param). */
  masterWeights: boolean;
  /** Bytes per element of optimizer moments (4 = fp32, 2 = bf16 for pure-bf16 training). */
  momentBytes: number;
  /** Bytes per element of stored activations. */
  activation: number;
}

/**
 * Bytes per parameter under each regime.
 * fp32: 4 + 4 (PyTorch default).
 * amp-*: fp32 weights and gradients plus autocast's 16-bit weight copies (HF "Model training anatomy": 6 bytes model, 4 bytes gradients).
 * mixed-*: ZeRO/Megatron: 16-bit weights and gradients, fp32 master + moments in the optimizer (arXiv 1910.02054 §3.1: 2Ψ + 2Ψ + KΨ).
 * bf16: everything 16-bit, moments included (pure-bf16 training).
 */
export const PRECISION_BYTES: Readonly<Record<Precision, PrecisionBytes>> = {
  fp32: { weights: 4, castWeights: 0, gradients: 4, masterWeights: false, momentBytes: 4, activation: 4 },
  'amp-fp16': { weights: 4, castWeights: 2, gradients: 4, masterWeights: false, momentBytes: 4, activation: 2 },
  'amp-bf16': { weights: 4, castWeights: 2, gradients: 4, masterWeights: false, momentBytes: 4, activation: 2 },
  'mixed-fp16': { weights: 2, castWeights: 0, gradients: 2, masterWeights: true, momentBytes: 4, activation: 2 },
  'mixed-bf16': { weights: 2, castWeights: 0, gradients: 2, masterWeights: true, momentBytes: 4, activation: 2 },
  bf16: { weights: 2, castWeights: 0, gradients: 2, masterWeights: false, momentBytes: 2, activation: 2 },
};

/**
 * Bytes per element of the residual stream: autocast leaves weights, embeddings and residual adds in fp32
 * (torch.amp op lists: only matmul-like ops run in 16 bits), so the stream between layers is fp32 (4);
 * otherwise it is the activation dtype. Measured with PyTorch 1.13 bf16 autocast (tools/pytorch-harness/README.md
 * § Per-block saved activations).
 */
export function residualBytes(precision: Precision): number {
  const regime = PRECISION_BYTES[precision];
  return regime.castWeights > 0 ? 4 : regime.activation;
}

/**
 * The dtype gradients are accumulated and reduced in: `param`, the dtype of the weights they belong to (PyTorch's
 * `.grad`, DeepSpeed and FSDP's 16-bit gradients); `fp32`, a 4-byte buffer beside 16-bit weights (Megatron's `main_grad`,
 * `accumulate_allreduce_grads_in_fp32`).
 */
export type GradDtype = 'param' | 'fp32';

/** Every gradient dtype. */
export const GRAD_DTYPES: readonly GradDtype[] = ['param', 'fp32'];

/**
 * Bytes per gradient element: the regime's own, or 4 with `fp32` (Megatron-Core 0.20.0
 * distributed/param_and_grad_buffer.py:924 `grad_dtype = torch.float if grad_reduce_in_fp32 else param.dtype`).
 */
export function gradientBytes(precision: Precision, gradDtype: GradDtype): number {
  return gradDtype === 'fp32' ? 4 : PRECISION_BYTES[precision].gradients;
}
