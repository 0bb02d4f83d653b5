import { describe, expect, it } from 'vitest';
import { planAllocations } from '../../../../src/lab/runtime-model/allocation-plan.ts';
import { executionOrder } from '../../../../src/lab/runtime-model/execution-order.ts';
import type { GraphSchedule, ScheduledNode } from '../../../../src/lab/runtime-model/graph-schedule.ts';

const activation = { dtype: 'float32', shape: ['batch', 4] } as const;

/** A graph of `nodes` over [batch, 4] float32 tensors, fed `x`, returning `outputs`. */
function graphOf(nodes: readonly ScheduledNode[], outputs: readonly string[]): GraphSchedule {
  const names = new Set(nodes.flatMap((node) => [...node.inputs, ...node.outputs]));
  return {
    file: 'test.onnx',
    role: 'train-step',
    inputs: [{ name: 'x', ...activation }],
    outputs: outputs.map((name) => ({ name, ...activation })),
    bytes: 0,
    initializers: [],
    nodes,
    tensors: new Map([...names].map((name) => [name, activation])),
  };
}

const node = (opType: string, inputs: readonly string[], output: string): ScheduledNode => ({
  opType,
  inputs,
  outputs: [output],
  attributes: '[]',
});

describe('executionOrder (onnxruntime Graph::ReverseDFSFrom over the leaves)', () => {
  it('walks the highest-index producer first, so of two branches the later one runs first', () => {
    const graph = graphOf(
      [node('Relu', ['x'], 'a'), node('Neg', ['a'], 'b'), node('Exp', ['a'], 'c'), node('Add', ['b', 'c'], 'd')],
      ['d'],
    );
    expect(executionOrder(graph).nodes.map((n) => n.opType)).toEqual(['Relu', 'Exp', 'Neg', 'Add']);
  });

  it('keeps one of two nodes with the same op, attributes and inputs (common subexpressions)', () => {
    const graph = graphOf([node('Exp', ['x'], 'a'), node('Exp', ['x'], 'b'), node('Add', ['a', 'b'], 'y')], ['y']);
    const order = executionOrder(graph);
    expect(order.nodes.map((n) => n.inputs)).toEqual([['x'], ['a', 'a']]);
  });

  it('drops views and reads through them to the tensor whose buffer they share', () => {
    const graph = graphOf([node('Relu', ['x'], 'a'), node('Identity', ['a'], 'view'), node('Neg', ['view'], 'y')], ['y']);
    const order = executionOrder(graph);
    expect(order.nodes.map((n) => n.opType)).toEqual(['Relu', 'Neg']);
    expect(order.bufferOf('view')).toBe('a');
  });
});

describe('planAllocations (onnxruntime FindReusableTensor)', () => {
  it('gives a later output of the same shape the buffer of a tensor already read for the last time', () => {
    const graph = graphOf([node('Relu', ['x'], 'a'), node('Neg', ['a'], 'b'), node('Exp', ['b'], 'y')], ['y']);
    const plan = planAllocations(graph, executionOrder(graph), 8);
    // `b` is made while `a` is still being read; `y` takes `a`'s buffer, freed after `Neg`.
    expect(plan.buffers).toHaveLength(2);
    expect(plan.outputBuffer.get('y')).toBe(0);
    expect(plan.buffers[0]).toEqual({ bytes: 8 * 4 * 4, first: 0, last: Infinity });
  });
});
