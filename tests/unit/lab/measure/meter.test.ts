/** A measurement's figures from a tracker (WebGPU buffers) or from the WebAssembly heap. */
import { describe, expect, test } from 'vitest';
import { createMemoryTracker } from '../../../../src/lab/measure/memory-tracker.ts';
import { createMeter } from '../../../../src/lab/measure/meter.ts';

/** A clock that advances 1 ms per reading. */
const ticking = (): (() => number) => {
  let t = 0;
  return () => t++;
};

describe('createMeter over a tracker', () => {
  test('counts from the baseline: peak within the measurement, at rest, held, and a timeline relative to the start', () => {
    const tracker = createMemoryTracker({ now: ticking() });
    const before = {};
    tracker.allocated(before, 100);
    const meter = createMeter(tracker, undefined, ticking());
    expect(meter.kind).toBe('webgpu-buffers');
    const measurement = meter.start('step');
    expect(measurement.baselineBytes).toBe(100);
    const weights = {};
    const activation = {};
    tracker.allocated(weights, 400);
    const atRest = measurement.counted();
    tracker.allocated(activation, 1000);
    tracker.freed(activation);
    measurement.sample(); // no-op on WebGPU: the tracker has the events
    expect(measurement.aboveBaseline()).toBe(400);
    const memory = measurement.finish(atRest, measurement.counted());
    expect(memory).toMatchObject({
      kind: 'webgpu-buffers',
      baselineBytes: 100,
      peakBytes: 1500,
      atRestBytes: 500,
      heldBytes: 500,
    });
    expect(memory.timeline.map((p) => p.bytes)).toEqual([400, 1400, 400]);
    expect(memory.phases.map((p) => p.label)).toEqual(['step']);
  });
});

describe('createMeter over the WebAssembly heap', () => {
  test('reads the heap, samples its size on request, reports its high-water mark as the peak and its timeline above the baseline', () => {
    let heap = 16 << 20;
    const meter = createMeter(createMemoryTracker(), { bytes: () => heap }, ticking());
    expect(meter.kind).toBe('wasm-heap');
    const measurement = meter.start('variant');
    heap += 4 << 20;
    measurement.sample();
    const memory = measurement.finish(measurement.counted(), measurement.counted());
    expect(memory).toMatchObject({ kind: 'wasm-heap', baselineBytes: 16 << 20, peakBytes: 20 << 20, phases: [] });
    // Like the WebGPU timeline, and like the results table the chart sits beside: growth since the baseline.
    expect(memory.timeline.map((p) => p.bytes)).toEqual([0, 4 << 20]);
  });
});
