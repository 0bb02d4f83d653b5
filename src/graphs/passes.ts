/** Whole-graph rewrites applied after building and before serialising. */
import type { GraphBuilder } from './builder.ts';

/** Drops nodes (and constants) that no graph output depends on. */
export function prune(b: GraphBuilder): void {
  const needed = new Set(b.outputs);
  const kept = [];
  for (let i = b.nodes.length - 1; i >= 0; i--) {
    const node = b.nodes[i];
    if (node === undefined || !node.outputs.some((o) => needed.has(o))) continue;
    kept.push(node);
    for (const input of node.inputs) needed.add(input);
  }
  b.nodes = kept.reverse();
  for (const name of [...b.constants.keys()]) if (!needed.has(name)) b.constants.delete(name);
}

/**
 * Turns tensors computed by the graph into graph inputs, dropping the nodes that computed
 * them and any input left unread. This is how a "keep activations"
 * backward graph is made from the recompute one: same backward, activations fed in instead.
 */
export function externalize(b: GraphBuilder, names: readonly string[]): void {
  const fed = new Set(names);
  b.nodes = b.nodes.filter((node) => !node.outputs.some((o) => fed.has(o)));
  for (const name of names) if (!b.inputs.includes(name)) b.inputs.push(name);
  prune(b);
  // Inputs that only fed the dropped nodes (e.g. fp32 data whose fp16 cast is now fed in).
  const read = new Set(b.nodes.flatMap((n) => n.inputs));
  const unused = b.inputs.filter((name) => !read.has(name) && !b.outputs.includes(name));
  for (const name of unused) b.inputs.splice(b.inputs.indexOf(name), 1);
}
