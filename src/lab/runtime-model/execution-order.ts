/**
 * The order onnxruntime-web 1.30 runs a graph's nodes in, and which nodes make no tensor of
 * their own. Pure: works on a `GraphSchedule`.
 *
 * Order: the session's default plan walks `GraphViewer::GetNodesInTopologicalOrder()`, which the
 * viewer fills with `Graph::ReverseDFSFrom(leaf_nodes, nullptr, leave, NodeCompare())`
 * (microsoft/onnxruntime `core/graph/graph_viewer.cc` and `core/graph/graph.cc`, 1.30 line): a
 * stack starts with the leaf nodes (those no node reads) in index order, so the last leaf is
 * walked first; each node pushes its producers sorted by index, so the highest-index producer
 * is walked first; a node is emitted when all its producers have been. For the lab's training
 * graphs this runs the whole forward pass, then the chain of activation gradients, and only
 * then each parameter's gradient, so every activation gradient is still alive when the first
 * parameter gradient is made (the gradient-accumulation trace shows the same order).
 *
 * Common subexpressions: onnxruntime's `CommonSubexpressionElimination` transformer (level 1,
 * on by default; core/optimizer/common_subexpression_elimination.cc) keeps one of several nodes
 * with the same op, attributes and inputs, unless an output is a graph output. The training
 * graphs build the one-hot labels three times over; the runtime builds them once.
 *
 * Views: `Identity` is removed by onnxruntime's `EliminateIdentity` graph transformer, and the
 * WebGPU kernels of `Reshape`, `Squeeze` and `Unsqueeze` write their output into their input's
 * buffer (`core/providers/webgpu/tensor/unsqueeze.h` copies only when the planner gave them a
 * different one). None of them gets a buffer in the recorded traces.
 */
import type { GraphSchedule, ScheduledNode } from './graph-schedule';

const VIEW_OPS: ReadonlySet<string> = new Set(['Identity', 'Reshape', 'Squeeze', 'Unsqueeze']);

/** A graph's nodes in execution order, views removed, and which tensor each view stands for. */
export interface ExecutionOrder {
  /** The nodes that run, in the order onnxruntime runs them, reading through views. */
  readonly nodes: readonly ScheduledNode[];
  /** The tensor whose buffer a name uses: itself, or the tensor a view (chain) reads. */
  readonly bufferOf: (name: string) => string;
}

/** The order onnxruntime runs `schedule`'s nodes in (see the module comment). */
export function executionOrder(schedule: GraphSchedule): ExecutionOrder {
  const viewSource = new Map<string, string>();
  const bufferOf = (name: string): string => viewSource.get(name) ?? name;
  for (const node of schedule.nodes) {
    const [input, output] = [node.inputs[0], node.outputs[0]];
    if (VIEW_OPS.has(node.opType) && input !== undefined && output !== undefined) viewSource.set(output, bufferOf(input));
  }
  const graphOutputs = new Set(schedule.outputs.map((output) => output.name));
  const firstWithKey = new Map<string, ScheduledNode>();
  const nodes: ScheduledNode[] = [];
  for (const node of schedule.nodes) {
    if (viewSource.has(node.outputs[0] ?? '')) continue;
    const resolved = { ...node, inputs: node.inputs.map(bufferOf) };
    const key = JSON.stringify([resolved.opType, resolved.attributes, resolved.inputs]);
    const same = firstWithKey.get(key);
    if (same && !node.outputs.some((name) => graphOutputs.has(name))) {
      node.outputs.forEach((name, index) => viewSource.set(name, same.outputs[index] ?? name));
      continue;
    }
    firstWithKey.set(key, resolved);
    nodes.push(resolved);
  }

  const producer = new Map<string, number>();
  nodes.forEach((node, index) => node.outputs.forEach((name) => producer.set(name, index)));
  const producersOf = (node: ScheduledNode): number[] =>
    [...new Set(node.inputs.flatMap((name) => producer.get(name) ?? []))].sort((a, b) => a - b);
  const read = new Set(nodes.flatMap(producersOf));

  const stack: { readonly index: number; readonly leave: boolean }[] = nodes
    .map((_, index) => ({ index, leave: false }))
    .filter(({ index }) => !read.has(index));
  const visited = new Set<number>();
  const order: ScheduledNode[] = [];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const node = nodes[entry.index];
    if (!node) continue;
    if (entry.leave) {
      order.push(node);
      continue;
    }
    if (visited.has(entry.index)) continue;
    visited.add(entry.index);
    stack.push({ index: entry.index, leave: true });
    for (const index of producersOf(node)) if (!visited.has(index)) stack.push({ index, leave: false });
  }
  return { nodes: order, bufferOf };
}
