/**
 * onnxruntime's allocation plan for one run of a graph: which intermediate tensors share a
 * buffer. Its sequential planner (`PlannerImpl` in microsoft/onnxruntime
 * `core/framework/allocation_planner.cc`, 1.30 line) walks the nodes in execution order; after
 * each node, the tensors that node read for the last time join a free list, most recent first,
 * and each later output takes the first free tensor of the same shape and element size
 * (`FindReusableTensor`; `SameSize` compares `GetElementSize` of the two types, not the types, so
 * an int8 tensor can take a freed bool one, while a float16 tensor never takes a float32 one of
 * the same shape), except scalars (`dim_size() == 0`). Graph outputs are never freed: the caller
 * gets them. Pure.
 */
import { DTYPE_BYTES } from '../../graphs/browser-safe';
import type { ExecutionOrder } from './execution-order';
import type { GraphSchedule } from './graph-schedule';
import { tensorBytes } from './graph-schedule';

/** One buffer the plan asks for: made at node `first`, free again after node `last`. */
export interface PlannedBuffer {
  readonly bytes: number;
  /** Index (in execution order) of the node that first writes it. */
  readonly first: number;
  /** Index of the node after which it is freed; `Infinity` for a graph output's buffer. */
  readonly last: number;
}

/** The plan: its buffers, and which one each graph output is in. */
export interface AllocationPlan {
  readonly buffers: readonly PlannedBuffer[];
  /** Graph output name → index in `buffers`. */
  readonly outputBuffer: ReadonlyMap<string, number>;
}

/** The plan for one run of `schedule` in `order` with the dynamic batch set to `batch`. */
export function planAllocations(schedule: GraphSchedule, order: ExecutionOrder, batch: number): AllocationPlan {
  const external = new Set([...schedule.inputs.map((input) => input.name), ...schedule.initializers]);
  const outputs = new Set(schedule.outputs.map((output) => order.bufferOf(output.name)));
  const tensor = (name: string) => {
    const found = schedule.tensors.get(name);
    if (!found) throw new Error(`tensor ${name} has no dtype and shape in the graph schedule`);
    return found;
  };
  const shapeKey = (name: string): string => `${DTYPE_BYTES[tensor(name).dtype]}[${tensor(name).shape.join(',')}]`;
  const lastRead = new Map<string, number>();
  order.nodes.forEach((node, index) => node.inputs.forEach((name) => lastRead.set(name, index)));

  const buffers: { bytes: number; first: number; last: number }[] = [];
  const bufferOfTensor = new Map<string, number>();
  const free: { readonly key: string; readonly buffer: number }[] = [];
  order.nodes.forEach((node, index) => {
    for (const name of node.outputs) {
      const key = shapeKey(name);
      const reusable = tensor(name).shape.length > 0 ? free.findIndex((entry) => entry.key === key) : -1;
      const [reused] = reusable >= 0 ? free.splice(reusable, 1) : [];
      if (reused) bufferOfTensor.set(name, reused.buffer);
      else bufferOfTensor.set(name, buffers.push({ bytes: tensorBytes(tensor(name), batch), first: index, last: index }) - 1);
    }
    for (const name of new Set(node.inputs)) {
      const buffer = bufferOfTensor.get(name);
      if (buffer === undefined || external.has(name) || outputs.has(name) || lastRead.get(name) !== index) continue;
      const planned = buffers[buffer];
      if (planned) planned.last = index;
      free.unshift({ key: shapeKey(name), buffer });
    }
  });
  const outputBuffer = new Map<string, number>();
  for (const { name } of schedule.outputs) {
    const buffer = bufferOfTensor.get(order.bufferOf(name));
    const planned = buffer === undefined ? undefined : buffers[buffer];
    if (buffer === undefined || !planned) throw new Error(`graph output ${name} is made by no node`);
    planned.last = Infinity;
    outputBuffer.set(name, buffer);
  }
  return { buffers, outputBuffer };
}
