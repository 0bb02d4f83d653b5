/**
 * Inference graphs of a *trained* model whose weights are stored inside the .onnx file (ONNX
 * initializers), as an exported checkpoint is: in fp32, or as int8 with per-channel scales and a
 * DequantizeLinear in front of every matrix use, so the weights stay int8 wherever the runtime
 * keeps the model (GPU buffers included) and are widened only when used.
 */
import { GraphBuilder } from './builder.ts';
import { allParameters, type LayeredModel, type ModelContext } from './model.ts';
import * as op from './ops.ts';
import { prune } from './passes.ts';
import { quantizeSymmetricInt8 } from './quantize.ts';
import { activationName } from './tensor-names.ts';

/** How the weights are stored: fp32, or int8 matrices (biases stay fp32, a common choice). */
export type WeightStorage = 'fp32' | 'int8';

/** data → `logits` with the given trained weights baked in. */
export function buildFrozenInferenceGraph(
  model: LayeredModel,
  weights: Readonly<Record<string, Float32Array>>,
  storage: WeightStorage,
): GraphBuilder {
  const b = new GraphBuilder(`${model.arch}-frozen-${storage}`);
  const data = b.input(model.data.name, model.data.dtype, model.data.shape);
  const views = new Map<string, string>();
  for (const p of allParameters(model)) {
    const values = weights[p.name];
    if (values === undefined) throw new Error(`no trained values for ${p.name}`);
    const [rows, cols] = p.shape;
    if (storage === 'int8' && p.shape.length === 2 && rows !== undefined && cols !== undefined) {
      const { quantized, scales } = quantizeSymmetricInt8(values, [rows, cols]);
      const q = b.initializer(`${p.name}.int8`, 'int8', p.shape, quantized);
      const s = b.initializer(`${p.name}.scale`, 'float32', [cols], scales);
      views.set(p.name, op.dequantizeLinear(b, q, s, 1, p.name));
    } else {
      views.set(p.name, b.initializer(p.name, 'float32', p.shape, values));
    }
  }
  const ctx: ModelContext = {
    b,
    dtype: 'float32',
    param(name) {
      const view = views.get(name);
      if (view === undefined) throw new Error(`parameter ${name} is not in the frozen model`);
      return view;
    },
  };
  let x = model.emitInput(ctx, data);
  for (let l = 0; l < model.layers; l++) x = model.emitLayer(ctx, l, x, activationName(l + 1));
  b.output(model.emitHead(ctx, x));
  prune(b);
  return b;
}
