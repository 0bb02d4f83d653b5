import type { MemoryKind } from '../measure/measured-memory';

/**
 * How far a measurement may sit from the engine's prediction and still "agree", as a ratio
 * measured / predicted. The lessons explain the gaps; in short:
 * - WebGPU buffers: onnxruntime-web rounds buffers up into size buckets and keeps freed ones
 *   cached for reuse (like PyTorch's caching allocator), holds intermediate buffers
 *   (transposes, reductions) the formula has no line for, and within one graph run reuses
 *   freed buffers only partly. Measured on SwiftShader at the default sizes: 1.15–1.3× for the
 *   segmented checkpointing graphs, up to 1.76× for a whole training step in one graph; so
 *   0.8–2× agrees.
 * - WebAssembly heap: it only grows, in steps of about a fifth of its size, and the runtime's
 *   own arena lives in it, so it reads anywhere from about 0.6× to 1.5× of the bytes the
 *   model needs; 0.5–2× agrees.
 */
export const AGREEMENT_RATIO: Readonly<Record<MemoryKind, { readonly min: number; readonly max: number }>> = {
  'webgpu-buffers': { min: 0.8, max: 2 },
  'wasm-heap': { min: 0.5, max: 2 },
};

/** Whether `measured` agrees with `predicted` for this kind of measurement. */
export function agreesWithPrediction(kind: MemoryKind, measured: number, predicted: number): boolean {
  if (!(predicted > 0)) return false;
  const { min, max } = AGREEMENT_RATIO[kind];
  const ratio = measured / predicted;
  return ratio >= min && ratio <= max;
}
