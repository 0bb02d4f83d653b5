/**
 * Graphs the multi-device experiments run between training steps, over flat fp32 vectors of
 * any length `n` (a parameter or a shard of one, viewed as 1-D): Adam's update, and the sum
 * that accumulates gradients over micro-batches on the device.
 */
import { ADAM } from './adam.ts';
import { GraphBuilder } from './builder.ts';
import * as op from './ops.ts';
import { prune } from './passes.ts';
import { ACCUMULATE_TENSORS, ADAM_TENSORS } from './tensor-names.ts';

/** The flat length every optimizer graph takes. */
const N = 'n';

/**
 * One Adam step on a flat tensor (Kingma & Ba 2015, arXiv 1412.6980, Algorithm 1, in PyTorch's
 * arrangement of torch.optim.Adam):
 *   m' = β₁m + (1−β₁)g,  v' = β₂v + (1−β₂)g²,  p' = p − (lr/(1−β₁ᵗ)) · m' / (√v' / √(1−β₂ᵗ) + ε).
 * Inputs p, g, m, v ([n]) and the two step-dependent scalars (`adamScalars`, adam.ts) `step_size` = lr/(1−β₁ᵗ) and
 * `bias2_sqrt` = √(1−β₂ᵗ); outputs `p_next`, `m_next`, `v_next`.
 */
export function buildAdamGraph(): GraphBuilder {
  const b = new GraphBuilder('adam-step');
  const T = ADAM_TENSORS;
  const [p, g, m, v] = [T.param, T.grad, T.m, T.v].map((name) => b.input(name, 'float32', [N])) as [
    string,
    string,
    string,
    string,
  ];
  const stepSize = b.input(T.stepSize, 'float32', []);
  const bias2Sqrt = b.input(T.bias2Sqrt, 'float32', []);
  const scalar = (value: number) => b.constant([value], 'float32');
  const mNext = op.add(b, op.mul(b, m, scalar(ADAM.beta1)), op.mul(b, g, scalar(1 - ADAM.beta1)), T.nextM);
  const vNext = op.add(b, op.mul(b, v, scalar(ADAM.beta2)), op.mul(b, op.mul(b, g, g), scalar(1 - ADAM.beta2)), T.nextV);
  const denominator = op.add(b, op.div(b, op.sqrt(b, vNext), bias2Sqrt), scalar(ADAM.eps));
  const pNext = op.sub(b, p, op.mul(b, op.div(b, mNext, denominator), stepSize), T.nextParam);
  for (const name of [pNext, mNext, vNext]) b.output(name);
  prune(b);
  return b;
}

/** `sum` = a + b over flat tensors: adds a micro-batch's gradients to those accumulated so far. */
export function buildAccumulateGraph(): GraphBuilder {
  const b = new GraphBuilder('accumulate');
  const T = ACCUMULATE_TENSORS;
  b.output(op.add(b, b.input(T.a, 'float32', [N]), b.input(T.b, 'float32', [N]), T.sum));
  return b;
}
