/**
 * Symmetric per-output-channel int8 weight quantization (pure).
 *
 * For a weight W stored [in, out], each output column j gets one scale s_j = max_i |W_ij| / 127
 * and q_ij = clamp(round(W_ij / s_j), −127, 127), so W ≈ q · s. This is Jacob et al.'s affine
 * scheme r = S(q − Z) (arXiv 1712.05877, eq. 1) with zero point Z = 0, and exactly what ONNX
 * DequantizeLinear computes with a per-axis scale and no zero point
 * (https://onnx.ai/onnx/operators/onnx__DequantizeLinear.html). −128 is left unused so the
 * range is symmetric.
 */

/** Largest int8 magnitude used by the symmetric scheme. */
export const INT8_LEVELS = 127;

/** A quantized weight: int8 values in the weight's layout and one fp32 scale per output column. */
export interface QuantizedWeight {
  readonly quantized: Int8Array;
  readonly scales: Float32Array;
}

/** Quantizes a row-major [rows, cols] weight per column (output channel). */
export function quantizeSymmetricInt8(values: Float32Array, [rows, cols]: readonly [number, number]): QuantizedWeight {
  if (values.length !== rows * cols) throw new Error(`quantize: ${values.length} values for [${rows}, ${cols}]`);
  const scales = new Float32Array(cols);
  for (let j = 0; j < cols; j++) {
    let largest = 0;
    for (let i = 0; i < rows; i++) largest = Math.max(largest, Math.abs(values[i * cols + j] ?? 0));
    // An all-zero column would divide by zero; any positive scale represents it exactly.
    scales[j] = largest > 0 ? largest / INT8_LEVELS : 1;
  }
  const quantized = new Int8Array(values.length);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const q = Math.round((values[i * cols + j] ?? 0) / (scales[j] ?? 1));
      quantized[i * cols + j] = Math.max(-INT8_LEVELS, Math.min(INT8_LEVELS, q));
    }
  }
  return { quantized, scales };
}

/** q · s, back to fp32 (what DequantizeLinear computes; used by tests). */
export function dequantizeSymmetricInt8({ quantized, scales }: QuantizedWeight): Float32Array {
  const cols = scales.length;
  return Float32Array.from(quantized, (q, k) => q * (scales[k % cols] ?? 0));
}
