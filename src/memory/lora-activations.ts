/**
 * What LoRA's adapters keep for backward, beside a frozen base layer that keeps nothing for its own weight.
 * Read from PEFT 0.20.1.dev0 (5d602fd) tuners/lora/layer.py `Linear.forward`:
 *
 *     x = self._cast_input_dtype(x, lora_A.weight.dtype)
 *     result = result + lora_B(lora_A(dropout(x))) * scaling
 *
 * and tuners/lora/dora.py `DoraLinearLayer.forward`; held to the PyTorch fixtures of tools/pytorch-harness.
 */
import { ceilDiv } from './ceil-div.ts';
import type { ModelConfig } from './model.ts';
import type { AdaptedModule, LoraPlan } from './lora.ts';

/** The dtypes and dropout that decide what the adapters keep. */
export interface AdapterActivationShape {
  /**
   * Whether autocast runs the adapters' matmuls (the amp precisions): `F.linear` then saves its own cast copy of the
   * input in the compute dtype (autocast caches casts of leaf weights only: torch autocast_mode.cpp `cached_cast`).
   */
  autocast: boolean;
  /** Bytes per element of the compute dtype e (what autocast casts to, or the base's dtype without autocast). */
  computeBytes: number;
  /** Bytes per adapter element a (`--lora-dtype`). */
  adapterBytes: number;
  /** Bytes per element of the residual stream, which q, k, v, gate and up read through their norm. */
  residualBytes: number;
  /** `lora_dropout` p: above 0 PEFT uses `nn.Dropout(p)` (a new tensor and, on CUDA, a 1-byte mask per element). */
  dropout: number;
  /**
   * Whether DoRA's forward makes a new copy of the base weight in the adapter dtype (`weight.to(x.dtype)` after
   * `dequantize_module_weight`): a quantized base, or a base in another dtype than the adapters.
   */
  baseCopied: boolean;
  /**
   * Tensor-parallel degree t. PEFT's LoraParallelLinear (0.20.1.dev0 tuners/lora/tp_layer.py:73,136-151) makes a
   * row-parallel base's lora_A row-parallel too, reading the base's split input (in/t per GPU); a column-parallel base's
   * lora_A reads the whole input and its lora_B is split by output.
   */
  tp: number;
}

/** What the adapters of a whole model keep, per token, and the largest transient one adapted module builds. */
export interface AdapterActivationBytes {
  /** Bytes kept for backward per token, summed over every adapted module each token passes through. */
  perToken: number;
  /** DoRA only: the largest transient of one module's forward, bytes (0 for plain LoRA); see `doraWorkingSet`. */
  workingSet: number;
}

/**
 * DoRA's transient in one adapted module of `inWidth` → `outWidth`, bytes: the larger of its two stages in PEFT
 * 0.20.1.dev0 (5d602fd) tuners/lora/dora.py `DoraLinearLayer.forward`, whose x is already in the adapter dtype a
 * (layer.py:1061 `_cast_input_dtype`):
 * - `get_lora_weight`: `x_eye = torch.eye(in)` (a·in²), cast by autocast to e for `lora_A` (e·in², saved for lora_A's
 *   weight gradient), and `lora_B(lora_A(x_eye))` (in × out, e under autocast, else a).
 * - `get_weight_norm`: the saved identity (e·in² under autocast, else x_eye itself, a·in²) held by `lora_weight`'s
 *   graph until forward returns; `lora_weight.to(x.dtype)` (a·in·out; the e original is then freed); the base weight
 *   `.to(x.dtype)`, a new a·in·out tensor when `baseCopied`; and `weight + scaling * lora_weight`: two a·in·out
 *   tensors. The norm is detached (DoRA paper §4.3), so nothing of this is kept for backward.
 */
function doraWorkingSet(inWidth: number, outWidth: number, shape: AdapterActivationShape): number {
  const { autocast, computeBytes: e, adapterBytes: a } = shape;
  const eyeStage = a * inWidth * inWidth + (autocast ? e * inWidth * inWidth : 0) + (autocast ? e : a) * inWidth * outWidth;
  const keptEye = (autocast ? e : a) * inWidth * inWidth;
  const normStage = keptEye + (1 + (shape.baseCopied ? 1 : 0) + 2) * a * inWidth * outWidth;
  return Math.max(eyeStage, normStage);
}

/** Which tensor an adapted module reads: modules that read the same one share it when nothing is copied. */
function inputSite(adapted: AdaptedModule): string {
  const reads = adapted.linear.projections;
  if (reads.some((p) => p === 'q' || p === 'k' || p === 'v')) return `attention-input:${adapted.linear.inFeatures}`;
  if (reads.some((p) => p === 'gate' || p === 'up')) return `mlp-input:${adapted.linear.inFeatures}`;
  return adapted.linear.module;
}

/** Whether `adapted` is row-parallel under tensor parallelism (Megatron-LM: attention output and MLP down projections). */
function rowParallel(adapted: AdaptedModule): boolean {
  return adapted.linear.projections.some((p) => p === 'o' || p === 'down');
}

/** Times a token passes through `adapted` in the whole model: each copy once, an expert only for the top-k it is routed to. */
function passesPerToken(model: ModelConfig, adapted: AdaptedModule): number {
  const { perLayer, copies } = adapted.linear;
  return perLayer > 1 ? (copies / perLayer) * model.topK : copies;
}

/**
 * Bytes the adapters keep for backward, per token, and DoRA's per-module transient.
 * - lora_A keeps its input. Under autocast it is `F.linear`'s own e-byte cast (one per module: PEFT first casts x to
 *   the adapter dtype, then autocast casts it back). Without autocast it is x in the adapter dtype: x itself when the
 *   dtypes match (one tensor for the modules that read it, e.g. q, k, v), else one a-byte copy per module.
 * - `lora_dropout` > 0: `nn.Dropout` makes a new tensor per module (kept instead of x) and keeps a 1-byte mask
 *   (aten `native_dropout` on CUDA).
 * - lora_B keeps lora_A's r-wide output (e under autocast, else a).
 * - The scaling multiplies by a Python float and the sum adds: neither keeps a tensor.
 * - DoRA (`DoraLinearLayer.forward`) also keeps `base_result` and `lora_result` (out-wide each) for the magnitude's
 *   gradient; the weight norm is detached (DoRA paper §4.3).
 * Residual-stream readers (q, k, v, gate, up at the hidden width) read x in `residualBytes`; the others (o, down) read
 * a tensor in the compute dtype.
 */
export function adapterActivationBytes(
  model: ModelConfig,
  plan: LoraPlan,
  shape: AdapterActivationShape,
): AdapterActivationBytes {
  const { autocast, computeBytes: e, adapterBytes: a } = shape;
  const matmulBytes = autocast ? e : a;
  const dropout = shape.dropout > 0;
  const sharedSites = new Set<string>();
  let perToken = 0;
  let workingSet = 0;
  for (const adapted of plan.modules) {
    const { outFeatures: outWidth } = adapted.linear;
    // What one GPU's lora_A reads (DoRA, below, never meets tensor parallelism: validate.ts refuses it, as PEFT does).
    const inWidth = rowParallel(adapted) ? ceilDiv(adapted.linear.inFeatures, shape.tp) : adapted.linear.inFeatures;
    const passes = passesPerToken(model, adapted);
    const site = inputSite(adapted);
    const readsResidual = site.startsWith('attention-input') || site.startsWith('mlp-input');
    const x = readsResidual && inWidth === model.hidden ? shape.residualBytes : e;
    let input: number;
    if (dropout) input = (matmulBytes + 1) * inWidth;
    else if (autocast || x !== a) input = matmulBytes * inWidth;
    else if (sharedSites.has(site)) input = 0;
    else {
      sharedSites.add(site);
      input = a * inWidth;
    }
    perToken += (input + matmulBytes * plan.rank) * passes;
    if (plan.dora) {
      perToken += (e + matmulBytes) * outWidth * passes;
      workingSet = Math.max(workingSet, doraWorkingSet(adapted.linear.inFeatures, outWidth, shape));
    }
  }
  return { perToken, workingSet };
}
