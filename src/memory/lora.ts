/**
 * LoRA and QLoRA as Hugging Face PEFT builds them: which modules a target choice adapts, how many parameters
 * that adds, and the PEFT defaults that decide their memory (adapter dtype, dropout, the k-bit preparation).
 * Read from PEFT 5d602fd (src/peft); counts and dtypes checked against PEFT 0.21.0 by tools/peft-counts.
 */
import type { ModelConfig } from './model.ts';
import type { FieldError } from './options.ts';
import { isHeadTied, linearLayers, PROJECTIONS, type LinearLayer, type Projection } from './linear-layers.ts';

/** A LoRA target word: one projection of every transformer block. */
export type LoraTarget = Projection;

/** Every target word accepted in a `--lora-targets` list. */
export const LORA_TARGETS: readonly LoraTarget[] = PROJECTIONS;

/** Named target choices: `all-linear` (PEFT's shorthand) and `attention` (q, k, v, o). */
export type LoraTargetPreset = 'all-linear' | 'attention';

/** Every preset name. */
export const LORA_TARGET_PRESETS: readonly LoraTargetPreset[] = ['all-linear', 'attention'];

/** The projections the `attention` preset names. */
export const ATTENTION_TARGETS: readonly LoraTarget[] = ['q', 'k', 'v', 'o'];

/** What to adapt: PEFT's `all-linear`, or an explicit list of projections (`attention` expands to ATTENTION_TARGETS). */
export type LoraTargets = 'all-linear' | readonly LoraTarget[];

/** The site's default rank for `--lora-rank`, as lesson 7 states it (PEFT's own `LoraConfig.r` default is 8). */
export const DEFAULT_LORA_RANK = 16;

/** The default `--lora-targets`. */
export const DEFAULT_LORA_TARGETS: LoraTargets = 'all-linear';

/**
 * Bytes per LoRA parameter: fp32. `get_peft_model(..., autocast_adapter_dtype=True)` (the default) upcasts fp16/bf16
 * adapters to float32 (peft mapping_func.py, tuners_utils.py `cast_adapter_dtype`); on a 4-bit base (uint8 storage)
 * lora_A/lora_B are created as float32 and never cast (`_move_adapter_to_device_of_base_layer` skips integer dtypes).
 */
export const LORA_PARAM_BYTES = 4;

/** Bytes per LoRA gradient: a gradient has its parameter's dtype, so fp32 (and AdamW's two moments are fp32 too, no master copy). */
export const LORA_GRADIENT_BYTES = 4;

/** PEFT `LoraConfig.lora_dropout` default: 0.0, i.e. `nn.Identity`, no dropout mask kept (peft tuners/lora/config.py). The QLoRA paper used 0.1 (≤ 13B) and 0.05 (33B, 65B). */
export const LORA_DEFAULT_DROPOUT = 0;

/**
 * Bytes per kept (non-quantized) parameter after `prepare_model_for_kbit_training`: it casts every fp16/bf16 parameter
 * that is not `Params4bit` to float32 — embeddings, LM head, norms, biases (peft utils/other.py). It skips GPTQ models.
 */
export const KBIT_TRAINING_KEPT_BYTES = 4;

/** `prepare_model_for_kbit_training(use_gradient_checkpointing=True)`: k-bit (bitsandbytes or GPTQ) training turns gradient checkpointing on by default (peft utils/other.py). */
export const KBIT_TRAINING_CHECKPOINTING = true;

/** One kind of adapted module and the adapter PEFT attaches to it. */
export interface AdaptedModule {
  /** The base Linear layer. */
  linear: LinearLayer;
  /** Adapter parameters per copy: r · (in + out) (lora_A is r × in, lora_B is out × r; PEFT tuners/lora/layer.py `update_layer`). */
  paramsPerCopy: number;
}

/** A resolved LoRA configuration: the adapted modules and their parameter count. */
export interface LoraPlan {
  /** Rank r. */
  rank: number;
  /** Adapted module kinds. */
  modules: readonly AdaptedModule[];
  /** Parameters that receive gradients: Σ r · (in + out) × copies, what `print_trainable_parameters()` prints as trainable. */
  trainableParams: number;
}

/** Outcome of `loraParams`: the plan, or errors naming `lora-rank` / `lora-targets`. */
export type LoraOutcome = { ok: true; plan: LoraPlan } | { ok: false; errors: FieldError[] };

/** Outcome of parsing a `--lora-targets` value. */
export type LoraTargetsParse = { ok: true; targets: LoraTargets } | { ok: false; error: FieldError };

/** Parse `all-linear`, `attention` or a comma list of q,k,v,o,gate,up,down (duplicates collapse; case and spaces ignored). */
export function parseLoraTargets(text: string): LoraTargetsParse {
  const value = text.trim().toLowerCase();
  if (value === 'all-linear') return { ok: true, targets: 'all-linear' };
  if (value === 'attention') return { ok: true, targets: ATTENTION_TARGETS };
  const words = value
    .split(',')
    .map((word) => word.trim())
    .filter((word) => word !== '');
  const unknown = words.filter((word) => !(LORA_TARGETS as readonly string[]).includes(word));
  if (words.length === 0 || unknown.length > 0) {
    const found = words.length === 0 ? 'an empty list' : `"${unknown.join(', ')}"`;
    return {
      ok: false,
      error: {
        field: 'lora-targets',
        message: `expected ${LORA_TARGET_PRESETS.join(', ')} or a comma list of ${LORA_TARGETS.join(',')}; got ${found}`,
      },
    };
  }
  return { ok: true, targets: LORA_TARGETS.filter((target) => words.includes(target)) };
}

/**
 * Modules PEFT's `all-linear` adapts: every nn.Linear/Conv1D except the output layer `get_output_embeddings()`
 * (peft tuners/tuners_utils.py `_maybe_include_all_linear_layers`). So a Mixtral router and BERT's pooler are included.
 */
function allLinearModules(model: ModelConfig): LinearLayer[] {
  return linearLayers(model).filter((linear) => linear.role !== 'head');
}

/** Modules a target list adapts, or errors for projections the architecture lacks or cannot adapt separately. */
function listedModules(model: ModelConfig, targets: readonly LoraTarget[]): { modules: LinearLayer[]; errors: FieldError[] } {
  const blocks = linearLayers(model).filter((linear) => linear.role === 'block');
  const available = new Set(blocks.flatMap((linear) => linear.projections));
  const errors: FieldError[] = [];
  const missing = targets.filter((target) => !available.has(target));
  if (missing.length > 0) {
    const have = LORA_TARGETS.filter((target) => available.has(target)).join(',');
    errors.push({ field: 'lora-targets', message: `${model.arch} has no ${missing.join(', ')} projection; choose from ${have}` });
  }
  const modules: LinearLayer[] = [];
  for (const linear of blocks) {
    const chosen = linear.projections.filter((projection) => targets.includes(projection));
    if (chosen.length === 0) continue;
    if (chosen.length < linear.projections.length) {
      // GPT-2's c_attn computes q, k and v in one Conv1D: PEFT can only adapt the whole module.
      errors.push({
        field: 'lora-targets',
        message: `${model.arch} fuses ${linear.projections.join(', ')} into one module (${linear.module}); target all of them or none`,
      });
      continue;
    }
    modules.push(linear);
  }
  return { modules, errors };
}

/**
 * Trainable LoRA parameters of `model` at rank `rank` on `targets`, as PEFT counts them: r · (in + out) per adapted
 * Linear, times its copies (layers, and experts for MoE). The plain `mlp` architecture has no transformer projections
 * to name, so LoRA is refused for it (PEFT's all-linear on a bare nn.Module would also adapt its classifier).
 */
export function loraParams(model: ModelConfig, rank: number, targets: LoraTargets): LoraOutcome {
  const errors: FieldError[] = [];
  if (!Number.isSafeInteger(rank) || rank < 1)
    errors.push({ field: 'lora-rank', message: `expected a whole number ≥ 1; got ${rank}` });
  if (model.arch === 'mlp') {
    errors.push({
      field: 'lora-targets',
      message: 'LoRA adapts transformer projections (q,k,v,o,gate,up,down); the plain MLP has none — use full fine-tuning',
    });
    return { ok: false, errors };
  }
  const resolved = targets === 'all-linear' ? { modules: allLinearModules(model), errors: [] } : listedModules(model, targets);
  errors.push(...resolved.errors);
  if (errors.length > 0) return { ok: false, errors };
  const modules = resolved.modules
    .filter((linear) => !isHeadTied(model, linear))
    .map((linear) => ({ linear, paramsPerCopy: rank * (linear.inFeatures + linear.outFeatures) }));
  const trainableParams = modules.reduce((sum, adapted) => sum + adapted.paramsPerCopy * adapted.linear.copies, 0);
  return { ok: true, plan: { rank, modules, trainableParams } };
}

/**
 * Activation elements LoRA adds per token, summed over every adapted copy: lora_A saves its input (in) and lora_B
 * saves lora_A's output (r) for backward. PEFT casts x to the adapter dtype first (`_cast_input_dtype` in
 * tuners/lora/layer.py `Linear.forward`), so these are fp32 (4 bytes) unless autocast runs the adapter in 16 bits.
 */
export function loraSavedElementsPerToken(plan: LoraPlan): number {
  return plan.modules.reduce((sum, adapted) => sum + (adapted.linear.inFeatures + plan.rank) * adapted.linear.copies, 0);
}

/** The r-wide lora_A outputs lora_B keeps for backward, elements per token summed over every adapted copy. */
export function loraRankElementsPerToken(plan: LoraPlan): number {
  return plan.modules.reduce((sum, adapted) => sum + plan.rank * adapted.linear.copies, 0);
}
