/**
 * The runtime model's executor (src/lab/runtime-model/runtime-executor.ts) accounts the lab's
 * buffers as worker/webgpu-store.ts makes them and the runtime's as buffer-cache.ts does, here on
 * the lab's accumulate graph (`sum = a + b` over flat vectors, public/models/utilities/).
 */
import { describe, expect, test } from 'vitest';
import type { Executor, Tensor } from '../../../../src/lab/measure/executor.ts';
import { createRuntimeExecutor } from '../../../../src/lab/runtime-model/runtime-executor.ts';
import { ONNXRUNTIME_RULES } from '../../../../src/lab/runtime-model/runtime-rules.ts';
import { bufferBytes } from '../../../../src/lab/runtime-model/size-classes.ts';
import { labManifest, loadLabSchedule } from './lab-graphs.ts';

/** Floats per vector: 4,000 bytes, which the runtime rounds up to its 4 KiB class. */
const LENGTH = 1000;
const vector = (exec: Executor): Tensor => exec.store.place({ data: new Float32Array(LENGTH), dims: [LENGTH] });

describe('the runtime model as an executor', () => {
  test('the lab’s buffers count at their exact size (at least 4 bytes) until disposed; a flat view frees nothing', () => {
    const exec = createRuntimeExecutor({ loadSchedule: loadLabSchedule });
    const placed = vector(exec);
    const empty = exec.store.place({ data: new Float32Array(0), dims: [0] });
    expect(exec.meter.counted()).toBe(LENGTH * 4 + 4);
    exec.store.flatView(placed, LENGTH).dispose();
    expect(exec.meter.counted()).toBe(LENGTH * 4 + 4);
    placed.dispose();
    empty.dispose();
    expect(exec.meter.counted()).toBe(0);
  });

  test('an output kept on the device takes a size-class buffer, which stays cached when disposed and serves the next run', async () => {
    const exec = createRuntimeExecutor({ loadSchedule: loadLabSchedule });
    const session = await exec.open(labManifest.utilities.accumulate, () => true);
    const [a, b] = [vector(exec), vector(exec)];
    const labBytes = 2 * LENGTH * 4;
    const first = await exec.run(session, { a, b });
    expect(first['sum']?.location).toBe('gpu-buffer');
    expect(exec.meter.counted()).toBe(labBytes + bufferBytes(LENGTH * 4));
    first['sum']?.dispose();
    await exec.run(session, { a, b });
    expect(exec.meter.counted()).toBe(labBytes + bufferBytes(LENGTH * 4));
  });

  test('an output read back is downloaded to the host and its buffer given back', async () => {
    const exec = createRuntimeExecutor({ loadSchedule: loadLabSchedule });
    const session = await exec.open(labManifest.utilities.accumulate, () => false);
    const outputs = await exec.run(session, { a: vector(exec), b: vector(exec) });
    expect(outputs['sum']?.location).toBe('cpu');
    expect((outputs['sum']?.data as Float32Array).length).toBe(LENGTH);
    // Given back, it is reusable: a second run creates no buffer.
    const counted = exec.meter.counted();
    await exec.run(session, { a: vector(exec), b: vector(exec) });
    expect(exec.meter.counted()).toBe(counted + 2 * LENGTH * 4);
  });

  test('out of place, adding to an accumulated set holds two sets; in place (the rule off) the sum takes the old set’s buffer', async () => {
    const peakOfTwoAdds = async (outOfPlaceAccumulation: boolean): Promise<number> => {
      const exec = createRuntimeExecutor({
        loadSchedule: loadLabSchedule,
        rules: { ...ONNXRUNTIME_RULES, outOfPlaceAccumulation },
      });
      const measurement = exec.meter.start('two adds');
      const session = await exec.open(labManifest.utilities.accumulate, () => true);
      const g = vector(exec);
      const first = (await exec.run(session, { a: vector(exec), b: g }))['sum'] as Tensor;
      // As pipeline-stage.ts adds a micro-batch: the accumulated set read through a flat view, then disposed.
      await exec.run(session, { a: exec.store.flatView(first, LENGTH), b: g });
      first.dispose();
      return measurement.finish(0, 0).peakBytes;
    };
    expect((await peakOfTwoAdds(true)) - (await peakOfTwoAdds(false))).toBe(bufferBytes(LENGTH * 4));
  });
});
