/**
 * Reverse-mode automatic differentiation over the builder's tape.
 *
 * Hand-rolled on purpose: there is no JavaScript library that differentiates ONNX graphs, and
 * onnxruntime-web 1.30 has no training API, so the training step is an ordinary inference
 * graph whose backward nodes we emit ourselves from the rules in grad-rules.ts.
 *
 * `backprop` differentiates one slice of the tape at a time; chaining calls over slices is
 * how recomputation and segmented graphs are built (variants.ts).
 */
import type { GraphBuilder, TapeEntry } from './builder.ts';
import { isFloat } from './dtype.ts';
import { GRAD_RULES } from './grad-rules.ts';
import * as op from './ops.ts';

/** Gradient tensor name by forward tensor name. */
export type GradMap = Map<string, string>;

/** The forward tensors on `tape` whose value depends on any tensor in `wrt`. */
export function dependentsOf(b: GraphBuilder, tape: readonly TapeEntry[], wrt: Iterable<string>): Set<string> {
  const live = new Set(wrt);
  for (const entry of tape) {
    const [inputs, outputs] = entry.kind === 'node' ? [entry.node.inputs, entry.node.outputs] : [entry.inputs, entry.outputs];
    if (inputs.some((i) => live.has(i))) for (const o of outputs) if (isFloat(b.info(o).dtype)) live.add(o);
  }
  return live;
}

/**
 * Walks `tape` backwards, reading output gradients from `grads` and adding input gradients to
 * it (summing contributions with Add). Only tensors that depend on `wrt` get gradients.
 * Backward nodes are emitted in the `grad` name scope.
 */
export function backprop(b: GraphBuilder, tape: readonly TapeEntry[], grads: GradMap, wrt: Iterable<string>): void {
  const live = dependentsOf(b, tape, wrt);
  b.scoped('grad', () => {
    for (let e = tape.length - 1; e >= 0; e--) {
      const entry = tape[e];
      if (entry === undefined) continue;
      const [inputs, outputs] = entry.kind === 'node' ? [entry.node.inputs, entry.node.outputs] : [entry.inputs, entry.outputs];
      const outputGrads = outputs.map((o) => grads.get(o));
      const needs = inputs.map((i) => live.has(i));
      if (outputGrads.every((g) => g === undefined) || !needs.some(Boolean)) continue;
      let inputGrads: (string | undefined)[];
      if (entry.kind === 'composite') {
        inputGrads = entry.backward(b, outputGrads, needs);
      } else {
        const rule = GRAD_RULES[entry.node.opType];
        if (rule === undefined) throw new Error(`no gradient rule for ${entry.node.opType}`);
        const dy = outputGrads[0];
        if (dy === undefined || outputGrads.length > 1) throw new Error(`${entry.node.opType}: one output expected`);
        inputGrads = rule(b, entry.node, dy, needs);
      }
      inputs.forEach((name, i) => {
        const g = inputGrads[i];
        if (g === undefined || !needs[i]) return;
        const previous = grads.get(name);
        grads.set(name, previous === undefined ? g : op.add(b, previous, g));
      });
    }
  });
}
