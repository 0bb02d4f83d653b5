/**
 * The size classes (src/lab/runtime-model/size-classes.ts) against onnxruntime's source rules
 * and against what onnxruntime-web 1.30 really created in the recorded traces.
 */
import { describe, expect, test } from 'vitest';
import { bufferBytes, keptOfSize, SIZE_CLASSES } from '../../../../src/lab/runtime-model/size-classes.ts';
import { isInitializerUpload, tensorCacheBuffers, traces } from './recorded-traces.ts';

describe('onnxruntime-web 1.30 WebGPU size classes (buffer_manager.cc BUCKET_DEFAULT_LIMIT_TABLE)', () => {
  test('a request takes the smallest class that holds it, and the classes are 1.14× to 4× apart', () => {
    expect(bufferBytes(1)).toBe(64);
    expect(bufferBytes(512)).toBe(512);
    // No 1 KiB class: a 1 KiB tensor (256 float32 labels) takes a 2 KiB buffer.
    expect(bufferBytes(1024)).toBe(2048);
    // 256 × 10 float32 logits (10 KiB) take a 16 KiB buffer.
    expect(bufferBytes(10_240)).toBe(16_384);
    const ratios = SIZE_CLASSES.slice(1).map(([bytes], i) => bytes / (SIZE_CLASSES[i]?.[0] ?? bytes));
    expect(Math.min(...ratios)).toBeCloseTo(67_108_864 / 58_982_400, 10);
    expect(Math.max(...ratios)).toBe(4);
  });

  test('initializers take buffers of their own size rounded up to 16 bytes, no class (initializers.ts)', () => {
    const initializers = traces.flatMap((trace) =>
      trace.workers.flatMap((events) => events.filter((_, i) => isInitializerUpload(events, i)).map(([, , bytes]) => bytes)),
    );
    // The distillation teacher's biases and scales are 1 KiB, which no class is.
    expect(initializers.some((bytes) => bufferBytes(bytes) !== bytes)).toBe(true);
    for (const bytes of initializers) expect(bytes % 16, `${bytes} bytes`).toBe(0);
  });

  test('above the largest class (160 MiB) sizes only round up to 16 bytes (NormalizeBufferSize)', () => {
    expect(bufferBytes(167_772_161)).toBe(167_772_176);
    expect(keptOfSize(167_772_176)).toBe(0);
  });

  test('every tensor-sized storage buffer onnxruntime-web created in the recorded traces has a class size', () => {
    // Below the smallest class (64 B) the traces also hold a few 16 B and 48 B storage buffers
    // (sizes rounded to 16 B only): the provider's own, outside the tensor cache, and too small to matter.
    // Initializers bypass the classes (initializers.ts): the distillation teacher's 1 KiB biases keep 1 KiB.
    const sizes = traces
      .flatMap((trace) => trace.workers.flatMap((events) => tensorCacheBuffers(events).map(({ bytes }) => bytes)))
      .filter((bytes) => bytes >= 64);
    expect(traces.every((trace) => trace.onnxruntimeWeb === '1.30.0')).toBe(true);
    expect(sizes.length).toBeGreaterThan(100);
    for (const bytes of sizes) expect(bufferBytes(bytes), `${bytes} bytes`).toBe(bytes);
    // And the lab's own buffers are exactly their tensors' bytes: 1 KiB of labels is no class.
    const labBuffers = traces.flatMap((trace) =>
      trace.workers.flatMap((events) => events.filter(([kind]) => kind === 'c').map(([, , bytes]) => bytes)),
    );
    expect(labBuffers.some((bytes) => bufferBytes(bytes) !== bytes)).toBe(true);
  });
});
