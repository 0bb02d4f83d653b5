/**
 * A graph as the runtime model reads it: its manifest entry plus every node and the dtype and
 * shape of every tensor, so the model can follow each intermediate tensor from the node that
 * makes it to the last one that reads it. The manifest lists only a graph's inputs and outputs;
 * this is the rest, read from the graph's schedule file (graphs/schedule-file.ts). Pure data.
 */
import { DTYPE_BYTES, type DType, type ManifestGraph, type ScheduleFile, type ScheduleNode } from '../../graphs/browser-safe';

/** A tensor's element type and shape; a string dimension is the dynamic batch. */
export interface ScheduledTensor {
  readonly dtype: DType;
  readonly shape: readonly (number | string)[];
}

/** One node: its op, the names of the tensors it reads and writes, and its attributes. */
export type ScheduledNode = ScheduleNode;

/**
 * One graph: its manifest entry (inputs are fed by the lab; outputs are made by the runtime and
 * handed to the lab, which decides when they go), its nodes in file order and every tensor
 * they touch.
 */
export interface GraphSchedule extends ManifestGraph {
  /** Initializers (constants stored in the file). */
  readonly initializers: readonly string[];
  /** Nodes in the order the file lists them (onnxruntime's node indices). */
  readonly nodes: readonly ScheduledNode[];
  /** Every tensor by name. */
  readonly tensors: ReadonlyMap<string, ScheduledTensor>;
}

/** Bytes of `tensor` with the dynamic dimension set to `batch`. */
export function tensorBytes(tensor: ScheduledTensor, batch: number): number {
  const elements = tensor.shape.reduce<number>((product, dim) => product * (typeof dim === 'number' ? dim : batch), 1);
  return elements * DTYPE_BYTES[tensor.dtype];
}

/** The schedule of the graph `entry` names, from its schedule file. */
export function graphSchedule(entry: ManifestGraph, file: ScheduleFile): GraphSchedule {
  return { ...entry, initializers: file.initializers, nodes: file.nodes, tensors: new Map(Object.entries(file.tensors)) };
}
