/**
 * LoRA and QLoRA as Hugging Face PEFT builds them: which modules a target choice adapts, how many parameters
 * that adds, and the PEFT defaults that decide their memory (adapter dtype, dropout, the k-bit preparation).
 * Read from PEFT 5d602fd (src/peft); counts and dtypes checked against PEFT 0.21.0 by tools/peft-counts.
 */
import { ruleError } from './rule-words.ts';
import type { ModelConfig } from './model.ts';
import type { FieldError } from './options.ts';
import { countParams } from './params.ts';
import type { PipelineStage } from './parallel.ts';
import type { WeightFormat } from './weight-formats.ts';
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
 * The adapters' dtype (`--lora-dtype`). `fp32`: `get_peft_model(..., autocast_adapter_dtype=True)` (the default)
 * upcasts fp16/bf16 adapters to float32 (PEFT 0.20.1.dev0 5d602fd tuners/tuners_utils.py `cast_adapter_dtype`); on a
 * 4-bit base (uint8 storage) lora_A/lora_B are created as float32 and never cast. `bf16`/`fp16`: adapters left in the
 * base's dtype (`autocast_adapter_dtype=False`, or torchtune's `dtype: bf16`, where every parameter is bf16).
 */
export type AdapterDtype = 'fp32' | 'bf16' | 'fp16';

/** Every adapter dtype. */
export const ADAPTER_DTYPES: readonly AdapterDtype[] = ['fp32', 'bf16', 'fp16'];

/** The default `--lora-dtype`: PEFT's `autocast_adapter_dtype=True` (peft mapping_func.py `get_peft_model`). */
export const DEFAULT_ADAPTER_DTYPE: AdapterDtype = 'fp32';

/**
 * Bytes per adapter element of `dtype`. A gradient has its parameter's dtype, and torch.optim's AdamW makes its moments
 * with `torch.zeros_like(p)` (torch/optim/adamw.py `_init_group`), so weights, gradients and moments share it; no
 * master copy (the adapters are trained in their own dtype).
 */
export function adapterBytes(dtype: AdapterDtype): number {
  return dtype === 'fp32' ? 4 : 2;
}

/**
 * PEFT `LoraConfig.lora_dropout` default: 0.0, i.e. `nn.Identity`, no dropout mask kept (PEFT 0.20.1.dev0 5d602fd
 * tuners/lora/config.py `lora_dropout: float = field(default=0.0)`; tuners/lora/layer.py `update_layer`: `nn.Dropout(p)`
 * only when p > 0). The QLoRA paper used 0.1 (≤ 13B) and 0.05 (33B, 65B).
 */
export const LORA_DEFAULT_DROPOUT = 0;

/**
 * A module `modules_to_save` trains in full: PEFT wraps it in `ModulesToSaveWrapper`, which keeps the frozen original
 * and trains a `copy.deepcopy` of it in the base's dtype (PEFT 5d602fd utils/other.py; `cast_adapter_dtype` touches
 * only LoRA layers). `embed`: the token embedding (`embed_tokens`, `wte`); `head`: the output layer (`lm_head`).
 */
export type ModuleToSave = 'embed' | 'head';

/** Every module `--modules-to-save` names. */
export const MODULES_TO_SAVE: readonly ModuleToSave[] = ['embed', 'head'];

/** Outcome of parsing `--modules-to-save`. */
export type ModulesToSaveParse = { ok: true; modules: readonly ModuleToSave[] } | { ok: false; error: FieldError };

/** Parse `none` or a comma list of embed, head (duplicates collapse; case and spaces ignored). */
export function parseModulesToSave(text: string): ModulesToSaveParse {
  const value = text.trim().toLowerCase();
  if (value === 'none') return { ok: true, modules: NONE_SAVED };
  const words = value
    .split(',')
    .map((word) => word.trim())
    .filter((word) => word !== '');
  const unknown = words.filter((word) => !(MODULES_TO_SAVE as readonly string[]).includes(word));
  if (words.length === 0 || unknown.length > 0) {
    return {
      ok: false,
      error: ruleError('modules-to-save', { code: 'modulesToSaveList', params: { modules: MODULES_TO_SAVE, unknown } }),
    };
  }
  const embed = words.includes('embed');
  const head = words.includes('head');
  return { ok: true, modules: embed && head ? BOTH_SAVED : embed ? EMBED_SAVED : HEAD_SAVED };
}
// Shared lists: the line builders compare their inputs by identity (memo.ts).
const NONE_SAVED: readonly ModuleToSave[] = [];
const EMBED_SAVED: readonly ModuleToSave[] = ['embed'];
const HEAD_SAVED: readonly ModuleToSave[] = ['head'];
const BOTH_SAVED: readonly ModuleToSave[] = ['embed', 'head'];

/**
 * The 4-bit format of a QLoRA base (`--qlora-format`): bitsandbytes NF4 or FP4 (`bnb_4bit_quant_type`), with or without
 * double quantization (`bnb_4bit_use_double_quant`). The default is the QLoRA paper's NF4 with double quantization
 * (Dettmers et al. 2023, arXiv 2305.14314 §3), which PEFT's and TRL's QLoRA examples set; transformers'
 * `BitsAndBytesConfig` itself defaults to `fp4` without it. `bnb_4bit_quant_storage` only reinterprets the packed
 * bytes (bitsandbytes `Params4bit(quant_storage=…)`: n/2 bytes whatever the storage dtype, so FSDP can shard them with
 * the rest), so it changes no size and has no option.
 */
export type QloraFormat = Extract<WeightFormat, 'nf4' | 'nf4-dq' | 'fp4' | 'fp4-dq'>;

/** Every QLoRA base format. */
export const QLORA_FORMATS: readonly QloraFormat[] = ['nf4-dq', 'nf4', 'fp4-dq', 'fp4'];

/**
 * What a QLoRA base keeps of its non-quantized parameters (embeddings, head, norms, biases; `--qlora-kept`): `fp32`
 * after `prepare_model_for_kbit_training` (PEFT's recipe, the engine's default), `16-bit` when it is not called
 * (TRL 1.10.0.dev0 f2cd577 trainer/sft_trainer.py never calls it; axolotl can skip it). Also the residual stream's
 * dtype: fp32 embeddings and norms make an fp32 stream.
 */
export type QloraKept = 'fp32' | '16-bit';

/** Every `--qlora-kept` value. */
export const QLORA_KEPT: readonly QloraKept[] = ['fp32', '16-bit'];

/** Bytes per kept parameter of a QLoRA base. */
export function qloraKeptBytes(kept: QloraKept): number {
  return kept === 'fp32' ? KBIT_TRAINING_KEPT_BYTES : 2;
}

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
  /** Whether the adapters are DoRA's (`use_dora=True`): one trainable magnitude per output feature of each adapted copy. */
  dora: boolean;
  /**
   * Adapter parameters: Σ r · (in + out) × copies, plus DoRA's magnitudes (Σ out × copies, PEFT tuners/lora/dora.py
   * `DoraLinearLayer.update_layer`: `nn.Parameter(weight_norm)`, one per output row).
   */
  adapterParams: number;
  /** Modules trained in full through `modules_to_save`. */
  modulesToSave: readonly ModuleToSave[];
  /** Parameters of the `modules_to_save` copies (embedding and/or head; a tied head is the embedding). */
  savedModuleParams: number;
  /** adapterParams + savedModuleParams: what `print_trainable_parameters()` prints as trainable. */
  trainableParams: number;
}

/** What `loraParams` reads besides the model, rank and targets. */
export interface LoraExtras {
  /** DoRA (`use_dora=True`). */
  dora: boolean;
  /** `modules_to_save`. */
  modulesToSave: readonly ModuleToSave[];
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
    return {
      ok: false,
      error: ruleError('lora-targets', {
        code: 'loraTargetsList',
        params: { presets: LORA_TARGET_PRESETS, targets: LORA_TARGETS, unknown },
      }),
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
    const have = LORA_TARGETS.filter((target) => available.has(target));
    errors.push(ruleError('lora-targets', { code: 'missingProjections', params: { arch: model.arch, missing, have } }));
  }
  const modules: LinearLayer[] = [];
  for (const linear of blocks) {
    const chosen = linear.projections.filter((projection) => targets.includes(projection));
    if (chosen.length === 0) continue;
    if (chosen.length < linear.projections.length) {
      // GPT-2's c_attn computes q, k and v in one Conv1D: PEFT can only adapt the whole module.
      errors.push(
        ruleError('lora-targets', {
          code: 'fusedProjections',
          params: { arch: model.arch, projections: linear.projections, module: linear.module },
        }),
      );
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
export function loraParams(
  model: ModelConfig,
  rank: number,
  targets: LoraTargets,
  extras: LoraExtras = { dora: false, modulesToSave: NONE_SAVED },
): LoraOutcome {
  const errors: FieldError[] = [];
  if (!Number.isSafeInteger(rank) || rank < 1) errors.push(ruleError('lora-rank', { code: 'loraRankWhole', params: { rank } }));
  if (model.arch === 'mlp') {
    errors.push(ruleError('lora-targets', { code: 'loraOnMlp' }));
    return { ok: false, errors };
  }
  const resolved = targets === 'all-linear' ? { modules: allLinearModules(model), errors: [] } : listedModules(model, targets);
  errors.push(...resolved.errors);
  if (errors.length > 0) return { ok: false, errors };
  const modules = resolved.modules
    .filter((linear) => !isHeadTied(model, linear))
    .map((linear) => ({ linear, paramsPerCopy: rank * (linear.inFeatures + linear.outFeatures) }));
  const lowRank = modules.reduce((sum, adapted) => sum + adapted.paramsPerCopy * adapted.linear.copies, 0);
  const magnitudes = extras.dora
    ? modules.reduce((sum, adapted) => sum + adapted.linear.outFeatures * adapted.linear.copies, 0)
    : 0;
  const adapterParams = lowRank + magnitudes;
  const savedModuleParams = savedParams(model, extras.modulesToSave, 'only');
  return {
    ok: true,
    plan: {
      rank,
      modules,
      dora: extras.dora,
      adapterParams,
      modulesToSave: extras.modulesToSave,
      savedModuleParams,
      trainableParams: adapterParams + savedModuleParams,
    },
  };
}

/**
 * Parameters of the copies `modules_to_save` trains on pipeline stage `stage` (before tensor parallelism): the token
 * embedding on the first stage, the head on the last; a tied head is the embedding, counted once where both sit.
 */
export function savedParams(model: ModelConfig, modules: readonly ModuleToSave[], stage: PipelineStage): number {
  const counts = countParams(model);
  const embed = modules.includes('embed') && stage !== 'last' ? counts.tokenEmbedding : 0;
  const tiedHead = counts.head === 0;
  const wantsHead = modules.includes('head') && stage !== 'first';
  const head = !wantsHead || (tiedHead && embed > 0) ? 0 : tiedHead ? counts.tokenEmbedding : counts.head;
  return embed + head;
}

/**
 * Adafactor's state elements per trainable parameter of `plan`: lora_A (r × in) keeps r + in, lora_B (out × r) out + r,
 * DoRA's magnitude vectors their full length, a saved embedding or head V + h (transformers optimization.py
 * `Adafactor._get_options`: matrices are factored).
 */
export function adapterFactoredShare(model: ModelConfig, plan: LoraPlan): number {
  if (plan.trainableParams === 0) return 1;
  let elements = plan.adapterParams;
  for (const adapted of plan.modules) {
    const { inFeatures, outFeatures, copies } = adapted.linear;
    elements += (2 * plan.rank + inFeatures + outFeatures - adapted.paramsPerCopy) * copies;
  }
  const savedMatrices = plan.savedModuleParams / (model.vocab * model.hidden);
  return (elements + savedMatrices * (model.vocab + model.hidden)) / plan.trainableParams;
}

/** The largest tensor `plan` trains, elements: a saved embedding or head (V × h), else the widest lora_A or lora_B. */
export function largestTrainedTensor(model: ModelConfig, plan: LoraPlan): number {
  let largest = plan.savedModuleParams > 0 ? model.vocab * model.hidden : 0;
  for (const adapted of plan.modules) {
    largest = Math.max(largest, plan.rank * Math.max(adapted.linear.inFeatures, adapted.linear.outFeatures));
  }
  return largest;
}
