/**
 * A graph's schedule file (`<graph>.schedule.json`, written beside its `.onnx` by
 * scripts/build-models.ts): every node as the file holds it and the dtype and shape of every
 * tensor, which the manifest (inputs and outputs only) leaves out. The lab's runtime model
 * (src/lab/runtime-model/) reads it to follow each intermediate tensor; the page fetches it only
 * when an experiment runs. Browser-safe: types and a path; factory.ts writes the files.
 */
import type { TensorInfo } from './builder.ts';

/** One node: its op, the tensors it reads and writes, and its attributes. */
export interface ScheduleNode {
  readonly opType: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  /** The node's attributes, written so that equal attributes give equal text (JSON of sorted entries). */
  readonly attributes: string;
}

/** The contents of a schedule file. */
export interface ScheduleFile {
  /** Initializers (constants stored in the graph file). */
  readonly initializers: readonly string[];
  /** Nodes in the order the `.onnx` lists them (onnxruntime's node indices). */
  readonly nodes: readonly ScheduleNode[];
  /** Every tensor's dtype and shape, by name. */
  readonly tensors: Readonly<Record<string, TensorInfo>>;
}

/** The schedule file's path for a graph file's path (`mlp/x.onnx` → `mlp/x.schedule.json`). */
export function schedulePath(graphPath: string): string {
  return graphPath.replace(/\.onnx$/, '.schedule.json');
}
