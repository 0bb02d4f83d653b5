/**
 * The device bytes of a graph's initializers (the constants stored in its file), which a session
 * uploads when it is created and keeps until it is released. Pure.
 * - They bypass the size classes: each gets a buffer of its own size rounded up to 16 bytes, as
 *   `NormalizeBufferSize` (microsoft/onnxruntime `core/providers/webgpu/buffer_manager.cc`)
 *   rounds sizes no class holds. Fitted from the traces, which show 16- and 48-byte buffers at
 *   session creation where the smallest class is 64 bytes.
 * - int64 initializers are axes and shapes, which the WebGPU kernels read on the CPU
 *   (`InputMemoryType(OrtMemTypeCPUInput, …)` in their kernel definitions), so they take no buffer.
 * Fitted, not settled by the source: the training-step graph has three float initializers
 * (80 bytes by this rule) where tests/fixtures/lab/traces/gradient-accumulation.json shows two
 * buffers (64 bytes); 16 bytes in a peak of over a megabyte.
 */
import { tensorBytes, type GraphSchedule } from './graph-schedule';

const ALIGNMENT = 16;

/** Bytes of `graph`'s initializers on the device. */
export function initializerBytes(graph: GraphSchedule): number {
  return graph.initializers.reduce((sum, name) => {
    const tensor = graph.tensors.get(name);
    if (!tensor || tensor.dtype === 'int64') return sum;
    return sum + Math.ceil(tensorBytes(tensor, 1) / ALIGNMENT) * ALIGNMENT;
  }, 0);
}
