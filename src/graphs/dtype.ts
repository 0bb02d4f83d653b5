/**
 * Element types used by the demo graphs, with their ONNX codes and sizes.
 * Kept free of onnx-proto so the browser runtime can import it.
 */

/** Element types the demo graphs use. */
export type DType = 'float32' | 'float16' | 'float64' | 'int64' | 'int8' | 'bool';

/** Floating element types (the ones that carry gradients); float64 is for tests only. */
export type FloatDType = 'float32' | 'float16' | 'float64';

/** ONNX `TensorProto.DataType` code per element type (onnx.proto). */
export const ONNX_DTYPE_CODE: Readonly<Record<DType, number>> = {
  float32: 1,
  bool: 9,
  float16: 10,
  float64: 11,
  int64: 7,
  int8: 3,
};

/** Bytes per element. */
export const DTYPE_BYTES: Readonly<Record<DType, number>> = {
  float32: 4,
  float16: 2,
  float64: 8,
  int64: 8,
  int8: 1,
  bool: 1,
};

/** True for element types that carry gradients. */
export function isFloat(dtype: DType): dtype is FloatDType {
  return dtype === 'float32' || dtype === 'float16' || dtype === 'float64';
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/**
 * IEEE 754 binary16 bits of a number, round-to-nearest-even, with overflow to ±Inf.
 * Needed because fp16 constants are stored as raw bytes in the model.
 */
export function toHalfBits(value: number): number {
  f32[0] = value;
  const x = u32[0] ?? 0;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant !== 0 ? 0x200 : 0); // Inf / NaN
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign; // underflows to ±0
    mant |= 0x800000;
    const shift = 14 - e;
    const half = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    return sign | (rest > mid || (rest === mid && (half & 1) === 1) ? half + 1 : half);
  }
  const half = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  // Rounding may carry into the exponent, which is exactly right (up to Inf).
  return sign | (rest > 0x1000 || (rest === 0x1000 && (half & 1) === 1) ? half + 1 : half);
}

/** The number that binary16 bits encode (for reading fp16 outputs in tests and demos). */
export function fromHalfBits(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >>> 10) & 0x1f;
  const mant = bits & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant === 0 ? sign * Infinity : NaN;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}
