/**
 * The byte rules of the runtime model where 16-bit graphs differ from fp32 ones, on hand-derived
 * small cases. No trace checks them: SwiftShader has no shader-f16, so the mixed-precision
 * experiment cannot run here (scripts/record-lab-traces.ts), and its "this runtime" is shown as
 * not yet checked against a trace.
 */
import { describe, expect, it } from 'vitest';
import type { DType } from '../../../../src/graphs/browser-safe.ts';
import { predictSingleRun } from '../../../../src/lab/experiments/single/runtime-prediction.ts';
import { planAllocations } from '../../../../src/lab/runtime-model/allocation-plan.ts';
import { executionOrder } from '../../../../src/lab/runtime-model/execution-order.ts';
import { tensorBytes, type GraphSchedule, type ScheduledNode } from '../../../../src/lab/runtime-model/graph-schedule.ts';
import { initializerBytes } from '../../../../src/lab/runtime-model/initializers.ts';
import { bufferBytes } from '../../../../src/lab/runtime-model/size-classes.ts';
import { loadLabSchedule } from './lab-graphs.ts';
import { sideOf } from './single-sides.ts';

const cast = (input: string, output: string): ScheduledNode => ({
  opType: 'Cast',
  inputs: [input],
  outputs: [output],
  attributes: '[]',
});
const unary = (opType: string, input: string, output: string): ScheduledNode => ({ ...cast(input, output), opType });

/** A graph fed `x` (float32 [batch, 4]) returning `y`, whose [batch, 4] tensors have the dtypes `dtypes`. */
function graphOf(
  nodes: readonly ScheduledNode[],
  dtypes: Readonly<Record<string, DType>>,
  initializers: string[] = [],
): GraphSchedule {
  const tensor = (name: string) => ({ dtype: dtypes[name] ?? 'float32', shape: ['batch', 4] });
  return {
    file: 'test.onnx',
    role: 'inference',
    inputs: [{ name: 'x', ...tensor('x') }],
    outputs: [{ name: 'y', ...tensor('y') }],
    bytes: 0,
    initializers,
    nodes,
    tensors: new Map(Object.keys(dtypes).map((name) => [name, tensor(name)])),
  };
}

describe('the runtime model’s bytes for 2-byte (float16) tensors', () => {
  it('a float16 tensor takes 2 bytes an element, and its size class, which may be half the float32 one or the same', () => {
    const activation = (dtype: DType) => ({ dtype, shape: ['batch', 128] });
    // 8 × 128 × 2 = 2,048 B, exactly the 2 KiB class; in float32 4,096 B, the 4 KiB class.
    expect(tensorBytes(activation('float16'), 8)).toBe(2048);
    expect(bufferBytes(tensorBytes(activation('float16'), 8))).toBe(2048);
    expect(bufferBytes(tensorBytes(activation('float32'), 8))).toBe(4096);
    // 2 × 128 × 2 = 512 B (the 512 B class) against 1,024 B in float32, which no class is: 2 KiB, a quarter.
    expect(bufferBytes(tensorBytes(activation('float16'), 2))).toBe(512);
    expect(bufferBytes(tensorBytes(activation('float32'), 2))).toBe(2048);
    // 3 × 100 × 2 = 600 B and 1,200 B both take the 2 KiB class: no saving at all.
    const odd = (dtype: DType) => ({ dtype, shape: ['batch', 100] });
    expect(bufferBytes(tensorBytes(odd('float16'), 3))).toBe(bufferBytes(tensorBytes(odd('float32'), 3)));
  });

  it('a float16 initializer rounds up to 16 bytes like any other: a scalar takes 16 B, nine elements 32 B', () => {
    const graph: GraphSchedule = {
      ...graphOf([], { x: 'float32', y: 'float32' }),
      initializers: ['scale', 'table'],
      tensors: new Map([
        ['scale', { dtype: 'float16', shape: [] }],
        ['table', { dtype: 'float16', shape: [9] }],
      ]),
    };
    expect(initializerBytes(graph)).toBe(16 + 32);
  });

  it('a float16 tensor never takes a freed float32 buffer of the same shape (SameSize compares element sizes)', () => {
    // x → a (f32) → h (f16) → k (f16) → y (f32): a is free when k is made, but only y can take it.
    const graph = graphOf([unary('Relu', 'x', 'a'), cast('a', 'h'), unary('Neg', 'h', 'k'), cast('k', 'y')], {
      x: 'float32',
      a: 'float32',
      h: 'float16',
      k: 'float16',
      y: 'float32',
    });
    const plan = planAllocations(graph, executionOrder(graph), 2);
    expect(plan.buffers.map((buffer) => buffer.bytes)).toEqual([2 * 4 * 4, 2 * 4 * 2, 2 * 4 * 2]);
    expect(plan.outputBuffer.get('y')).toBe(0);
  });

  it('an int8 tensor takes a freed bool buffer of the same shape: the element size decides, not the type', () => {
    // x → m (bool) → n (bool) → q (int8) → y (f32): m is free when q is made, and both are 1-byte.
    const graph = graphOf([cast('x', 'm'), unary('Not', 'm', 'n'), cast('n', 'q'), cast('q', 'y')], {
      x: 'float32',
      m: 'bool',
      n: 'bool',
      q: 'int8',
      y: 'float32',
    });
    const plan = planAllocations(graph, executionOrder(graph), 2);
    expect(plan.buffers.map((buffer) => buffer.bytes)).toEqual([2 * 4, 2 * 4, 2 * 4 * 4]);
  });
});

describe('"this runtime" for the mixed-precision experiment (predicted, not yet checked against a trace)', () => {
  it.each([undefined, 256])('at width %s the 16-bit side is predicted below the fp32 one', async (hidden) => {
    const fp32 = await predictSingleRun(sideOf('mixed-precision', 'before', hidden).spec, loadLabSchedule);
    const fp16 = await predictSingleRun(sideOf('mixed-precision', 'after', hidden).spec, loadLabSchedule);
    expect(fp16).toBeGreaterThan(0);
    expect(fp16).toBeLessThan(fp32);
  });
});
