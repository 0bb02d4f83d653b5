import type { MemoryKind } from '../measure/measured-memory';

/**
 * The range a measurement usually sits in around the engine's peak prediction (PyTorch on
 * CUDA), as a ratio measured / predicted: outside it the page says the gap is unusual. Inside
 * it is not agreement (see agreement-words.ts); the page "How the lab measures" names the causes. In short:
 * - WebGPU buffers: onnxruntime-web reuses a freed buffer only after its next flush (every 16
 *   kernel dispatches, at a download and at the end of a run), so what a step frees stays
 *   allocated beside what it allocates until then; it adds accumulated gradients out of place; it rounds
 *   buffers up to size classes. Against the engine's peak a whole step run as one graph read
 *   2.50× (gradient accumulation's "before" on SwiftShader, width 128, 4 layers, batch 256);
 *   so 0.8–3×.
 * - WebAssembly heap: it only grows, in steps of about a fifth of its size, and the runtime's
 *   own arena lives in it, so it reads anywhere from about 0.6× to 1.5× of the bytes the
 *   model needs; 0.5–2×.
 */
export const AGREEMENT_RATIO: Readonly<Record<MemoryKind, { readonly min: number; readonly max: number }>> = {
  'webgpu-buffers': { min: 0.8, max: 3 },
  'wasm-heap': { min: 0.5, max: 2 },
};

/** Whether `measured` agrees with `predicted` for this kind of measurement. */
export function agreesWithPrediction(kind: MemoryKind, measured: number, predicted: number): boolean {
  if (!(predicted > 0)) return false;
  const { min, max } = AGREEMENT_RATIO[kind];
  const ratio = measured / predicted;
  return ratio >= min && ratio <= max;
}
