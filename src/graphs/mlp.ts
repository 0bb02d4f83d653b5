/**
 * The MLP demo: input width h, L hidden blocks Linear(h→h, bias) + ReLU, then a Linear(h→classes)
 * head and softmax cross-entropy (mean over the batch). With `inputs` set, an input layer
 * Linear(inputs→h, bias) + ReLU comes first (the distillation teacher and student read 16 features).
 *
 * Matches the memory engine's convention (src/memory): per hidden layer the backward keeps one
 * batch×h tensor (the layer input; ReLU's backward reads its output, which is the next layer's
 * input), plus the logits (kept as log-probabilities by the loss).
 */
import { linear } from './layers.ts';
import { BATCH_DIM, type LayeredModel, type Stage } from './model.ts';
import * as op from './ops.ts';
import type { ParamSpec } from './params.ts';
import { FEATURES, LABELS, LOGITS } from './tensor-names.ts';

/** Size of an MLP demo model. */
export interface MlpSpec {
  /** Input and hidden width h. */
  readonly hidden: number;
  /** Number of hidden Linear+ReLU blocks L. */
  readonly layers: number;
  /** Number of classes of the head. */
  readonly classes: number;
  /** Input features; when set, an input layer maps them to h. Default: none, the input is h wide. */
  readonly inputs?: number;
}

/** Builds the MLP definition. Weights are He-normal (suits ReLU), biases zero. */
export function createMlp({ hidden, layers, classes, inputs }: MlpSpec): LayeredModel {
  const stageParameters = (stage: Stage): ParamSpec[] => {
    if (stage === 'input')
      return inputs === undefined
        ? []
        : [
            { name: 'in.w', shape: [inputs, hidden], init: { kind: 'normal', std: Math.sqrt(2 / inputs) } },
            { name: 'in.b', shape: [hidden], init: { kind: 'zeros' } },
          ];
    if (stage === 'head')
      return [
        { name: 'head.w', shape: [hidden, classes], init: { kind: 'normal', std: Math.sqrt(1 / hidden) } },
        { name: 'head.b', shape: [classes], init: { kind: 'zeros' } },
      ];
    return [
      { name: `w${stage}`, shape: [hidden, hidden], init: { kind: 'normal', std: Math.sqrt(2 / hidden) } },
      { name: `b${stage}`, shape: [hidden], init: { kind: 'zeros' } },
    ];
  };
  return {
    arch: 'mlp',
    layers,
    dims: inputs === undefined ? { hidden, layers, classes } : { hidden, layers, classes, inputs },
    data: { name: FEATURES, dtype: 'float32', shape: [BATCH_DIM, inputs ?? hidden] },
    // Class indices as float32, not int64: onnxruntime's WebGPU provider has no int64 Equal or
    // Cast (math/binary_elementwise_ops.cc registers Equal for WebGpuSupportedNumberTypes: float,
    // float16, int32, uint32), so int64 labels sent the loss's one-hot to the CPU and its result
    // was uploaded on every run. Integers below 2^24 are exact in float32.
    labels: { name: LABELS, dtype: 'float32', shape: [BATCH_DIM] },
    activationShape: [BATCH_DIM, hidden],
    stageParameters,
    emitInput: (ctx, x) => {
      const wide = ctx.dtype === 'float32' ? x : op.cast(ctx.b, x, ctx.dtype, `${x}.${ctx.dtype}`);
      return inputs === undefined ? wide : ctx.b.scoped('in', () => op.relu(ctx.b, linear(ctx, wide, 'in.w', 'in.b')));
    },
    emitLayer: (ctx, l, x, out) => ctx.b.scoped(`l${l}`, () => op.relu(ctx.b, linear(ctx, x, `w${l}`, `b${l}`), out)),
    emitHead: (ctx, x) => ctx.b.scoped('head', () => linear(ctx, x, 'head.w', 'head.b', LOGITS)),
  };
}
