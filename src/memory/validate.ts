/**
 * Validation at the edge of src/memory: turn `EstimateOptions` into a fully resolved configuration,
 * or a list of errors, each naming the field (flag / query name) it belongs to.
 */
import { ATTENTIONS, KERNELS, RECOMPUTES, type Attention, type Kernels, type Recompute } from './activations.ts';
import { FINETUNES, type Finetune } from './finetune.ts';
import {
  ADAPTER_DTYPES,
  KBIT_TRAINING_CHECKPOINTING,
  LORA_DEFAULT_DROPOUT,
  loraParams,
  parseLoraTargets,
  parseModulesToSave,
  QLORA_FORMATS,
  QLORA_KEPT,
  type AdapterDtype,
  type LoraPlan,
  type QloraFormat,
  type QloraKept,
} from './lora.ts';
import { flagName } from './flag-table.ts';
import { LOSS_KINDS, type LossKind } from './loss.ts';
import { createOptionReader, type OptionReader } from './option-reader.ts';
import { getGpuPreset, GPU_PRESETS, type GpuSpec } from './gpus.ts';
import {
  validateWeightFormat,
  WEIGHT_CHOICES,
  WEIGHT_FORMAT_SPECS,
  WEIGHT_FORMATS,
  type WeightChoice,
  type WeightFormat,
} from './weight-formats.ts';
import { KV_CACHE_LAYOUTS, type KvCacheLayout } from './inference.ts';
import { ARCH_TRAITS, ARCHS, llamaDefaultFfn, type Arch, type ModelConfig } from './model.ts';
import { OFFLOAD_DEVICES, OFFLOADS, type Offload, type OffloadDevice } from './offload.ts';
import { ACTIVATION_OFFLOADS, type ActivationOffload } from './activation-offload.ts';
import { BATCHINGS, type Batching } from './batching.ts';
import { FP8_RECIPES, hasFp8TensorCores, type Fp8Recipe } from './fp8.ts';
import { OPTIMIZER_IMPLS, OPTIMIZERS, type OptimizerImpl, type OptimizerKind } from './optimizer.ts';
import { MODES, type EstimateOptions, type FieldError, type Mode } from './options.ts';
import { ZERO_STAGES, type ZeroStage } from './parallel.ts';
import { GRAD_DTYPES, PRECISIONS, type GradDtype, type Precision } from './precision.ts';
import { getModelPreset, MODEL_PRESETS, type ModelPreset } from './presets.ts';
import { DEFAULT_HEADROOM_PERCENT } from './overhead.ts';
import { GRADIENT_LIFETIMES, type GradientLifetime } from './timeline.ts';
import { STACK_DECIDED_KEYS, STACKS, stackDefaults, type NotModelled, type Stack, type StackDefaults } from './stacks.ts';
import type { Notice } from './warnings.ts';

/** An option a stack set because the reader left it out: its flag, the value and the line of the tool that sets it. */
export interface StackSetting {
  /** Flag name, e.g. `optimizer-impl`. */
  readonly flag: string;
  readonly value: string;
  readonly source: string;
}

/** A configuration with every default filled in and every combination checked. */
export interface ResolvedEstimate {
  mode: Mode;
  /** The training stack whose defaults filled the options not given. */
  stack: Stack;
  /** What the stack set (training only): the options the reader left out that the stack, not the flag table, decided. */
  stackSettings: readonly StackSetting[];
  /** What the stack does by default that the engine cannot express yet (training only). */
  notModelled: readonly NotModelled[];
  /** Preset id, or null for a custom model or `params` alone. */
  modelId: string | null;
  /** Model shape, or null when only `params` is known. */
  model: ModelConfig | null;
  /** Parameter count given alone, or null. */
  paramsOnly: number | null;
  precision: Precision;
  weights: WeightFormat;
  optimizer: OptimizerKind;
  microBatch: number;
  seq: number;
  /** How a micro-batch lays out its sequences. */
  batching: Batching;
  /** Mean real tokens per sequence (packed: per document), at most `seq`. */
  meanSeq: number;
  /** The FP8 recipe of the Linear layers, or `none`. */
  fp8: Fp8Recipe;
  /** ZeRO-3 all-gathers the weights in float8 (torchao `enable_fsdp_float8_all_gather`). */
  fp8AllGather: boolean;
  gradAccum: number;
  recompute: Recompute;
  /** Explicit checkpoint segment, or null for the default. */
  checkpointEvery: number | null;
  attention: Attention;
  kernels: Kernels;
  /** The loss implementation. */
  loss: LossKind;
  grads: GradientLifetime;
  /** The gradients' dtype: the weights' own, or fp32 buffers (Megatron's main_grad). */
  gradDtype: GradDtype;
  optimizerImpl: OptimizerImpl;
  /** The optimizer step runs in backward, one parameter at a time. */
  optimizerInBackward: boolean;
  finetune: Finetune;
  /** A QLoRA base's 4-bit format. */
  qloraFormat: QloraFormat;
  /** What a QLoRA base keeps of its other parameters. */
  qloraKept: QloraKept;
  loraRank: number;
  /** LoRA targets as given (`all-linear`, `attention` or a comma list). */
  loraTargets: string;
  /** The adapters a LoRA/QLoRA fine-tune trains, or null for a full one. */
  lora: LoraPlan | null;
  /** PEFT lora_dropout p. */
  loraDropout: number;
  /** The adapters' dtype. */
  loraDtype: AdapterDtype;
  dropout: boolean;
  dp: number;
  zero: ZeroStage;
  tp: number;
  sp: boolean;
  pp: number;
  /** Model chunks per pipeline stage, v (1: plain 1F1B; above 1: interleaved 1F1B). */
  ppVirtual: number;
  offload: Offload;
  offloadDevice: OffloadDevice;
  /** What of the saved activations goes to the host. */
  activationOffload: ActivationOffload;
  /** ZeRO-3: the gathered weights kept from forward to backward (FSDP2 reshard_after_forward=False). */
  keepGatheredWeights: boolean;
  /** GPUs the model states are sharded over: `dp`, or an HSDP shard group that divides it. */
  shardGroup: number;
  /** torch.compile: stated, not modelled (compile.ts). */
  compile: boolean;
  gpu: GpuSpec | null;
  tokens: number;
  /** How a multi-head latent attention model's KV cache is counted (ignored by every other model). */
  kvCache: KvCacheLayout;
  teacher: ModelPreset | null;
  teacherWeights: WeightFormat;
  /** Free margin, percent of GPU memory. */
  headroom: number;
  /** The compute efficiency the reader sets, percent of dense peak, or null for the calibrated curve. */
  mfu: number | null;
}

/**
 * The most GPUs one estimate spans (dp × tp × pp): the largest published training run, Llama 3 405B on 16,384 H100s
 * (Llama Team 2024, arXiv 2407.21783 §3.3.1).
 */
export const MAX_GPUS = 16_384;

/** Outcome of `resolveEstimateOptions`. */
export type ResolveResult = { ok: true; value: ResolvedEstimate; notices: Notice[] } | { ok: false; errors: FieldError[] };

/** The loss each layer code base computes when the reader names none (see where `loss` is read). */
const DEFAULT_LOSS: Readonly<Record<Kernels, LossKind>> = {
  eager: 'eager',
  fused: 'vocab-parallel',
  'llm-foundry': 'flash-attn',
};

const ARCH_VOCAB: Readonly<Record<Arch, number>> = { gpt2: 50257, llama: 32000, bert: 30522, mlp: 10 };

function defaultFfn(arch: Arch, hidden: number): number {
  if (arch === 'llama') return llamaDefaultFfn(hidden);
  if (arch === 'mlp') return hidden;
  return 4 * hidden;
}

/** Resolve and check options, section by section; every error names its field. */
export function resolveEstimateOptions(options: EstimateOptions): ResolveResult {
  const read = createOptionReader(options);
  const stack = read.keyword('stack', STACKS);
  const { model, modelId, params } = resolveModel(read);
  // An explicit option > the stack's default > the flag table's default; the stack's precision depends on the model's
  // stored dtype and on what is trained, so the model is resolved first.
  const finetune = read.keyword('finetune', FINETUNES);
  const defaults = stackDefaults(stack, model, finetune);
  const { weightChoice, ...chosen } = readTechnique(read, defaults, finetune);
  const technique: Technique = {
    ...chosen,
    // Every data-parallel GPU shards unless an HSDP shard group is given.
    shardGroup: read.count('shardGroup') ?? chosen.dp,
    weights: resolveWeights(read, weightChoice, model),
  };
  if (technique.compile && technique.mode === 'train') read.notices.push({ code: 'compileAssumption' });
  const { seq, tokens } = resolveSequence(read, model);
  const { batching, meanSeq } = resolveBatching(read, seq, technique);
  checkParallelism(read, model, technique);
  const { gpu, teacher, headroom, mfu } = resolveHardwareAndTeacher(read, technique.mode, model);
  checkWeightFormats(read, technique, model, teacher);
  const lora = resolveFinetune(read, technique, model);
  const { fp8, fp8AllGather } = resolveFp8(read, technique, gpu);
  if (read.errors.length > 0) return { ok: false, errors: read.errors };

  const dropout = read.flag('dropout', model === null ? false : ARCH_TRAITS[model.arch].dropout);
  const { notices } = read;
  collectWarnings(notices, options, technique, model, params, gpu);
  return {
    ok: true,
    notices,
    value: {
      ...technique,
      stack,
      stackSettings: technique.mode === 'train' ? stackSettings(options, defaults) : [],
      notModelled: technique.mode === 'train' ? defaults.notModelled : [],
      modelId,
      model,
      paramsOnly: params ?? null,
      seq,
      batching,
      meanSeq,
      fp8,
      fp8AllGather,
      tokens,
      lora,
      dropout,
      gpu,
      teacher,
      headroom,
      mfu,
    },
  };
}

/** The choices that do not depend on the model: enumerations and counts of the step and its techniques. */
type Technique = Omit<
  ResolvedEstimate,
  | 'stack'
  | 'stackSettings'
  | 'notModelled'
  | 'modelId'
  | 'model'
  | 'paramsOnly'
  | 'seq'
  | 'batching'
  | 'meanSeq'
  | 'fp8'
  | 'fp8AllGather'
  | 'tokens'
  | 'lora'
  | 'dropout'
  | 'gpu'
  | 'teacher'
  | 'headroom'
  | 'mfu'
>;

/**
 * The weight format `--weights` names; `stored` is the one the model's config.json says the checkpoint ships in
 * (model.ts `storedWeights`), an error on the weights field when it does not say.
 */
function resolveWeights(read: OptionReader, choice: WeightChoice, model: ModelConfig | null): WeightFormat {
  if (choice !== 'stored') return choice;
  if (model?.storedWeights !== undefined) return model.storedWeights;
  read.fail('weights', { code: 'storedUnknown' });
  return 'bf16';
}

function readTechnique(
  read: OptionReader,
  stack: StackDefaults,
  finetune: Finetune,
): Omit<Technique, 'weights' | 'shardGroup'> & { weightChoice: WeightChoice } {
  const precision = read.keyword('precision', PRECISIONS, stack.precision.value);
  const set = stack.options;
  const kernels = read.keyword('kernels', KERNELS, set.kernels?.value);
  const recompute = read.keyword('recompute', RECOMPUTES, kbitCheckpointing(read.options) ? 'full' : set.recompute?.value);
  return {
    mode: read.keyword('mode', MODES),
    precision,
    weightChoice: read.keyword('weights', WEIGHT_CHOICES),
    kvCache: read.keyword('kvCache', KV_CACHE_LAYOUTS),
    optimizer: read.keyword('optimizer', OPTIMIZERS, set.optimizer?.value),
    optimizerImpl: read.keyword('optimizerImpl', OPTIMIZER_IMPLS, set.optimizerImpl?.value),
    grads: read.keyword('grads', GRADIENT_LIFETIMES, set.grads?.value),
    // A stack's fp32 gradient buffers (Megatron) are its rule for bf16 weights only.
    gradDtype: read.keyword('gradDtype', GRAD_DTYPES, bf16Weights(precision) ? set.gradDtype?.value : undefined),
    attention: read.keyword('attention', ATTENTIONS, set.attention?.value),
    kernels,
    // Megatron's fused kernels compute the loss vocab-parallel (megatron/core/tensor_parallel/cross_entropy.py);
    // llm-foundry's MPT with flash-attn's Triton cross-entropy (`loss_fn` default `fused_crossentropy`, modeling_mpt.py).
    loss: read.keyword('loss', LOSS_KINDS, set.loss?.value ?? DEFAULT_LOSS[kernels]),
    recompute,
    zero: read.keyword('zero', ZERO_STAGES, set.zero?.value),
    offload: read.keyword('offload', OFFLOADS),
    offloadDevice: read.keyword('offloadDevice', OFFLOAD_DEVICES),
    // A stack that offloads its checkpoints (Unsloth) does so only when it checkpoints.
    activationOffload: read.keyword(
      'activationOffload',
      ACTIVATION_OFFLOADS,
      recompute === 'full' ? set.activationOffload?.value : undefined,
    ),
    finetune,
    teacherWeights: read.keyword('teacherWeights', WEIGHT_FORMATS, precision === 'fp32' ? 'fp32' : 'bf16'),
    microBatch: read.count('microBatch') ?? 1,
    gradAccum: read.count('gradAccum') ?? 1,
    dp: read.count('dp') ?? 1,
    tp: read.count('tp') ?? 1,
    pp: read.count('pp') ?? 1,
    ppVirtual: read.count('ppVirtual') ?? 1,
    checkpointEvery: read.count('checkpointEvery') ?? null,
    sp: read.flag('sp', false),
    keepGatheredWeights: read.flag('keepGatheredWeights', false),
    compile: read.flag('compile', false),
    loraRank: read.count('loraRank') ?? 16,
    loraTargets: read.options.loraTargets ?? 'all-linear',
    optimizerInBackward: readOptimizerInBackward(read),
    loraDropout: readLoraDropout(read, set.loraDropout?.value),
    qloraFormat: read.keyword('qloraFormat', QLORA_FORMATS),
    qloraKept: read.keyword('qloraKept', QLORA_KEPT, set.qloraKept?.value),
    loraDtype: read.keyword('loraDtype', ADAPTER_DTYPES, set.loraDtype?.value),
  };
}

/** Whether `precision` trains 16-bit bfloat16 weights and gradients, where Megatron accumulates gradients in fp32. */
function bf16Weights(precision: Precision): boolean {
  return precision === 'mixed-bf16' || precision === 'bf16';
}

/** prepare_model_for_kbit_training turns gradient checkpointing on (peft utils/other.py): QLoRA recomputes unless told otherwise. */
function kbitCheckpointing(options: EstimateOptions): boolean {
  return options.finetune === 'qlora' && KBIT_TRAINING_CHECKPOINTING;
}

/**
 * The technique options the stack decided: those the reader left out and the stack sets (QLoRA's own recompute aside).
 * They follow from the stack's defaults and which options are given, so each combination is built once (the planner
 * resolves options thousands of times per search).
 */
function stackSettings(options: EstimateOptions, stack: StackDefaults): readonly StackSetting[] {
  let given = 0;
  STACK_DECIDED_KEYS.forEach((key, i) => {
    if (options[key] !== undefined || (key === 'recompute' && kbitCheckpointing(options))) given |= 1 << i;
    // Without full recompute there are no checkpoints to offload: the stack's activation offload does not apply.
    if (key === 'activationOffload' && options.recompute !== undefined && options.recompute !== 'full') given |= 1 << i;
    // Nor do fp32 gradient buffers to other weights than bf16.
    if (key === 'gradDtype' && options.precision !== undefined && !bf16Weights(options.precision)) given |= 1 << i;
  });
  let byGiven = SETTINGS.get(stack);
  if (byGiven === undefined) SETTINGS.set(stack, (byGiven = new Map()));
  let settings = byGiven.get(given);
  if (settings === undefined) {
    settings = STACK_DECIDED_KEYS.flatMap((key, i): StackSetting[] => {
      const cited = key === 'precision' ? stack.precision : stack.options[key];
      if (cited === undefined || (given & (1 << i)) !== 0) return [];
      return [{ flag: flagName(key), value: String(cited.value), source: cited.source }];
    });
    byGiven.set(given, settings);
  }
  return settings;
}
const SETTINGS = new WeakMap<StackDefaults, Map<number, readonly StackSetting[]>>();

/**
 * `--optimizer-in-backward`: torchtune refuses it with gradient accumulation ("Gradient accumulation is not supported
 * with optimizer_in_bwd: True", recipes/full_finetune_single_device.py, torchtune 0.7.0): each gradient is applied as
 * soon as it exists.
 */
function readOptimizerInBackward(read: OptionReader): boolean {
  const inBackward = read.flag('optimizerInBackward', false);
  if (inBackward && (read.options.gradAccum ?? 1) > 1) read.fail('optimizerInBackward', { code: 'optimizerInBackwardWithAccum' });
  return inBackward;
}

/**
 * `--lora-dropout`: a probability p with 0 ≤ p < 1 (nn.Dropout refuses p outside [0, 1]; p = 1 would train nothing).
 * Without one, the stack's default (TRL's ModelConfig: 0.05), else PEFT's 0.
 */
function readLoraDropout(read: OptionReader, stackDefault: number | undefined): number {
  const given = read.options.loraDropout;
  if (given === undefined) return stackDefault ?? LORA_DEFAULT_DROPOUT;
  if (typeof given !== 'number' || !Number.isFinite(given) || given < 0 || given >= 1) {
    read.fail('loraDropout', { code: 'loraDropoutRange', params: { value: String(given) } });
    return LORA_DEFAULT_DROPOUT;
  }
  return given;
}

/**
 * Whether any shape flag is given. Written out rather than a list's `some`: every estimate asks, and the closure and
 * the lookups by name showed in a planner search (why: see docs/PERFORMANCE.md § Planner search).
 */
function shapeGiven(o: EstimateOptions): boolean {
  return (
    o.arch !== undefined ||
    o.hidden !== undefined ||
    o.layers !== undefined ||
    o.heads !== undefined ||
    o.kvHeads !== undefined ||
    o.ffn !== undefined ||
    o.vocab !== undefined ||
    o.positions !== undefined ||
    o.inputs !== undefined ||
    o.experts !== undefined ||
    o.topK !== undefined ||
    o.tieEmbeddings !== undefined ||
    o.numLabels !== undefined
  );
}

/** Every model preset's id, for an error's list. */
function modelIds(): string[] {
  return MODEL_PRESETS.map((p) => p.id);
}

/** The model: a preset (with shape overrides), a custom shape, or a bare parameter count. */
function resolveModel(read: OptionReader): { model: ModelConfig | null; modelId: string | null; params: number | undefined } {
  const { options } = read;
  const params = read.count('params');
  const archOverride = options.arch === undefined ? undefined : read.keyword('arch', ARCHS);
  const shaped = shapeGiven(options);
  if (options.modelConfig !== undefined) {
    // A config.json describes the whole shape; mixing it with a preset or overrides would be a silent guess.
    if (options.model !== undefined || options.params !== undefined || shaped) read.fail('model', { code: 'configWithShape' });
    return { model: options.modelConfig, modelId: null, params: undefined };
  }
  if (params !== undefined) {
    if (options.model !== undefined || shaped) read.fail('params', { code: 'paramsAlone' });
    return { model: null, modelId: null, params };
  }
  // A bad --params was reported by count(); say nothing more about the model.
  if (options.params !== undefined) return { model: null, modelId: null, params };
  if (options.model === undefined && archOverride === undefined) {
    read.fail('model', { code: 'noModel', params: { models: modelIds() } });
    return { model: null, modelId: null, params };
  }
  const preset = options.model === undefined ? undefined : getModelPreset(options.model);
  if (options.model !== undefined && preset === undefined) {
    read.fail('model', { code: 'unknownModel', params: { model: options.model, models: modelIds() } });
    return { model: null, modelId: null, params };
  }
  const model =
    preset !== undefined && !shaped && archOverride === undefined
      ? presetShape(preset, read)
      : resolveShape(preset?.config, archOverride, read);
  const modelId = preset === undefined ? null : model !== null && shaped ? `${preset.id} (modified)` : preset.id;
  return { model, modelId, params };
}

/**
 * A preset's shape without overrides: one frozen object per preset, so that estimates of the same model share it (the
 * engine's memoized line builders key on it, memo.ts).
 */
function presetShape(preset: ModelPreset, read: OptionReader): ModelConfig | null {
  let shape = PRESET_SHAPES.get(preset);
  if (shape === undefined) {
    const resolved = resolveShape(preset.config, undefined, read);
    if (resolved === null) return null;
    PRESET_SHAPES.set(preset, (shape = Object.freeze(resolved)));
  }
  return shape;
}
const PRESET_SHAPES = new WeakMap<ModelPreset, ModelConfig>();

/**
 * The batch layout and the mean real length (`seq` by default: every position real). The mean cannot exceed the length
 * sequences are padded, packed or truncated to. A padding-free row under eager attention is refused: TRL supports
 * padding-free batches with FlashAttention only (batching.ts BATCHING_SOURCES.paddingFree), and eager attention would
 * hold the whole row's (b·s)² scores and mask.
 */
function resolveBatching(
  read: OptionReader,
  seq: number,
  technique: Pick<Technique, 'attention'>,
): { batching: Batching; meanSeq: number } {
  const batching = read.keyword('batching', BATCHINGS);
  const given = read.count('meanSeq');
  if (given !== undefined && given > seq) read.fail('meanSeq', { code: 'meanSeqBeyondSeq', params: { meanSeq: given, seq } });
  if (batching === 'padding-free' && technique.attention === 'eager') read.fail('batching', { code: 'paddingFreeWithEager' });
  return { batching, meanSeq: given === undefined || given > seq ? seq : given };
}

/**
 * The FP8 recipe and its float8 all-gather. FP8 needs FP8 tensor cores (fp8.ts FP8_SOURCES.hardware); Transformer Engine
 * runs on NVIDIA GPUs. torchao refuses the float8 all-gather with any scaling but tensorwise (config.py:271-273), and
 * there is nothing to all-gather without ZeRO-3. What is counted: full fine-tunes of training steps without FSDP2
 * under TE (which then requantizes in backward instead of saving its copies: not modelled).
 */
function resolveFp8(
  read: OptionReader,
  technique: Pick<Technique, 'mode' | 'finetune' | 'zero'>,
  gpu: GpuSpec | null,
): { fp8: Fp8Recipe; fp8AllGather: boolean } {
  const fp8 = read.keyword('fp8', FP8_RECIPES);
  const fp8AllGather = read.flag('fp8AllGather', false);
  if (fp8 !== 'none') {
    if (gpu !== null && !hasFp8TensorCores(gpu))
      read.fail('fp8', { code: 'fp8WithoutTensorCores', params: { recipe: fp8, gpu: gpu.name } });
    else if (fp8 === 'te' && gpu !== null && gpu.vendor !== 'nvidia')
      read.fail('fp8', { code: 'fp8TeOffNvidia', params: { gpu: gpu.name } });
    else if (technique.mode !== 'train') read.fail('fp8', { code: 'fp8InInfer' });
    else if (technique.finetune !== 'full')
      read.fail('fp8', { code: 'fp8WithAdapters', params: { finetune: technique.finetune } });
    else if (fp8 === 'te' && technique.zero === 3) read.fail('fp8', { code: 'fp8TeWithZero3' });
  }
  if (fp8AllGather && (fp8 !== 'torchao-tensorwise' || technique.zero !== 3))
    read.fail('fp8AllGather', { code: 'fp8AllGatherNeeds' });
  return { fp8, fp8AllGather };
}

/** Sequence length (the model's context by default; 1 for the mlp) and tokens cached for inference. */
function resolveSequence(read: OptionReader, model: ModelConfig | null): { seq: number; tokens: number } {
  const seqGiven = read.count('seq');
  const tokensGiven = read.count('tokens');
  let seq = seqGiven ?? model?.contextLength ?? 2048;
  if (model !== null && model.arch === 'mlp') {
    if (seqGiven !== undefined && seqGiven !== 1) read.fail('seq', { code: 'seqOnMlp', params: { seq: seqGiven } });
    seq = 1;
    if (read.options.attention !== undefined) read.notices.push({ code: 'attentionOnMlp' });
  } else if (model !== null && seqGiven !== undefined && model.positions > 0 && seqGiven > model.positions) {
    read.notices.push({ code: 'seqBeyondPositions', params: { seq: seqGiven, positions: model.positions } });
  }
  return { seq, tokens: tokensGiven ?? seq };
}

/**
 * Interleaved 1F1B as Megatron-LM (core 0.20.0) allows it: more than one pipeline stage (arguments.py asserts
 * pipeline_model_parallel_size > 1 with overlap_p2p_comm, > 2 without), and micro-batches in groups of p, so m a
 * multiple of p (model_parallel_config.py: microbatch_group_size_per_vp_stage defaults to p; schedules.py rejects
 * fewer micro-batches than a group and a last group smaller than p). The layers' split is checked with the model.
 */
function checkInterleaving(read: OptionReader, t: Pick<Technique, 'pp' | 'ppVirtual' | 'gradAccum'>): void {
  if (t.ppVirtual === 1) return;
  if (t.pp < 2) read.fail('ppVirtual', { code: 'virtualWithoutPp', params: { ppVirtual: t.ppVirtual } });
  else if (t.gradAccum % t.pp !== 0) read.fail('ppVirtual', { code: 'accumByPp', params: { gradAccum: t.gradAccum, pp: t.pp } });
}

/** Tensor and pipeline degrees that fit the model, and offload modes that have ZeRO under them. */
function checkParallelism(read: OptionReader, model: ModelConfig | null, t: Technique): void {
  const { tp, pp, zero, offload, checkpointEvery } = t;
  const gpus = t.dp * tp * pp;
  if (gpus > MAX_GPUS) read.fail('dp', { code: 'tooManyGpus', params: { gpus, max: MAX_GPUS } });
  if (model !== null) {
    if (model.arch === 'mlp' && tp > 1) read.fail('tp', { code: 'tpOnMlp' });
    else if (model.heads % tp !== 0) read.fail('tp', { code: 'headsByTp', params: { heads: model.heads, tp } });
    else if (model.kvHeads % tp !== 0 && tp % model.kvHeads !== 0)
      read.fail('tp', { code: 'kvHeadsAndTp', params: { kvHeads: model.kvHeads, tp } });
    if (pp > model.layers) read.fail('pp', { code: 'ppBeyondLayers', params: { pp, layers: model.layers } });
    else if (t.ppVirtual > 1 && model.layers % (pp * t.ppVirtual) !== 0)
      read.fail('ppVirtual', { code: 'layersByChunks', params: { layers: model.layers, pp, ppVirtual: t.ppVirtual } });
    if (checkpointEvery !== null && checkpointEvery > model.layers)
      read.fail('checkpointEvery', { code: 'checkpointBeyondLayers', params: { checkpointEvery, layers: model.layers } });
  }
  checkInterleaving(read, t);
  if (t.activationOffload === 'checkpoints' && t.recompute !== 'full')
    read.fail('activationOffload', { code: 'checkpointsWithoutFullRecompute' });
  if (t.shardGroup !== t.dp) {
    // torch fully_shard on a 2-D mesh: replicate across dim 0, shard across dim 1 (HSDP), so the group divides dp.
    if (zero !== 3) read.fail('shardGroup', { code: 'shardGroupWithoutZero3' });
    else if (t.dp % t.shardGroup !== 0)
      read.fail('shardGroup', { code: 'shardGroupByDp', params: { shardGroup: t.shardGroup, dp: t.dp } });
  }
  if (t.keepGatheredWeights && zero !== 3) read.fail('keepGatheredWeights', { code: 'keepGatheredWithoutZero3' });
  if (offload === 'optimizer+params' && zero !== 3) read.fail('offload', { code: 'paramOffloadWithoutZero3' });
  else if (offload !== 'none' && zero === 0) read.fail('offload', { code: 'offloadWithoutZero' });
}

/** The GPU preset, a distillation teacher, the free margin and the compute efficiency the reader sets. */
function resolveHardwareAndTeacher(
  read: OptionReader,
  mode: Mode,
  model: ModelConfig | null,
): { gpu: GpuSpec | null; teacher: ModelPreset | null; headroom: number; mfu: number | null } {
  const { options } = read;
  let gpu: GpuSpec | null = null;
  if (options.gpu !== undefined) {
    gpu = getGpuPreset(options.gpu) ?? null;
    if (gpu === null) read.fail('gpu', { code: 'unknownGpu', params: { gpu: options.gpu, gpus: GPU_PRESETS.map((g) => g.id) } });
  }
  let teacher: ModelPreset | null = null;
  if (options.teacher !== undefined) {
    teacher = getModelPreset(options.teacher) ?? null;
    if (teacher === null)
      read.fail('teacher', { code: 'unknownTeacher', params: { teacher: options.teacher, models: modelIds() } });
    else if (mode === 'infer') read.fail('teacher', { code: 'teacherInInfer' });
    else if (model !== null && teacher.config.vocab !== model.vocab) {
      read.notices.push({ code: 'teacherVocab', params: { teacher: teacher.config.vocab, student: model.vocab } });
    }
  }
  let headroom = DEFAULT_HEADROOM_PERCENT;
  const given = options.headroom;
  if (given !== undefined) {
    if (typeof given !== 'number' || !Number.isFinite(given) || given < 0 || given > 50)
      read.fail('headroom', { code: 'headroomRange', params: { value: String(given) } });
    else headroom = given;
  }
  const mfu = options.mfu;
  if (mfu !== undefined && (typeof mfu !== 'number' || !Number.isFinite(mfu) || mfu <= 0 || mfu > 100)) {
    read.fail('mfu', { code: 'mfuRange', params: { value: String(mfu) } });
    return { gpu, teacher, headroom, mfu: null };
  }
  return { gpu, teacher, headroom, mfu: mfu ?? null };
}

/** Storage formats the model's (and the teacher's) Linear layers can take. */
function checkWeightFormats(read: OptionReader, t: Technique, model: ModelConfig | null, teacher: ModelPreset | null): void {
  if (model !== null && t.mode === 'infer') read.errors.push(...validateWeightFormat(model, t.weights));
  if (model === null && t.mode === 'infer' && WEIGHT_FORMAT_SPECS[t.weights].quantized) {
    read.fail('weights', { code: 'quantizedWithoutShape', params: { format: WEIGHT_FORMAT_SPECS[t.weights].label } });
  }
  if (teacher !== null)
    read.errors.push(
      ...validateWeightFormat(teacher.config, t.teacherWeights).map((e) => ({ ...e, field: flagName('teacherWeights') })),
    );
}

/** The options only a LoRA/QLoRA fine-tune reads. */
const LORA_ONLY_FLAGS = [
  'loraRank',
  'loraTargets',
  'loraDropout',
  'loraDtype',
  'modulesToSave',
  'dora',
  'qloraFormat',
  'qloraKept',
] as const;

/** The adapters a LoRA/QLoRA fine-tune trains (PEFT's counting, lora.ts), or null for a full fine-tune. */
function resolveFinetune(read: OptionReader, t: Technique, model: ModelConfig | null): LoraPlan | null {
  const { options } = read;
  if (t.finetune === 'full' || t.mode !== 'train') {
    const given = LORA_ONLY_FLAGS.filter((key) => options[key] !== undefined).map((key) => `--${flagName(key)}`);
    if (given.length > 0) read.notices.push({ code: 'loraFlagsIgnored', params: { flags: given } });
    return null;
  }
  if (t.finetune === 'qlora' && options.recompute === undefined) {
    read.notices.push({ code: 'qloraRecompute' });
  }
  if (model === null) {
    read.fail('finetune', { code: 'adaptersWithoutShape', params: { finetune: t.finetune } });
    return null;
  }
  const targets = parseLoraTargets(t.loraTargets);
  if (!targets.ok) {
    read.errors.push(targets.error);
    return null;
  }
  const saved = parseModulesToSave(options.modulesToSave ?? 'none');
  if (!saved.ok) {
    read.errors.push(saved.error);
    return null;
  }
  const dora = read.flag('dora', false);
  // PEFT 0.20.1.dev0 tuners/lora/tp_layer.py:65-66: LoraParallelLinear "does not support DoRA yet".
  if (dora && t.tp > 1) {
    read.fail('dora', { code: 'doraWithTp' });
    return null;
  }
  const plan = loraParams(model, t.loraRank, targets.targets, {
    dora,
    modulesToSave: saved.modules,
  });
  if (plan.ok) return plan.plan;
  read.errors.push(...plan.errors);
  return null;
}

/** Build the model shape from a preset (or arch defaults) and the shape overrides. */
function resolveShape(base: ModelConfig | undefined, archOverride: Arch | undefined, read: OptionReader): ModelConfig | null {
  const count = (key: keyof EstimateOptions, min?: number) => read.count(key, min);
  const arch = archOverride ?? base?.arch ?? 'gpt2';
  const hidden = count('hidden') ?? base?.hidden;
  const layers = count('layers') ?? base?.layers;
  if (hidden === undefined) read.fail('hidden', { code: 'hiddenRequired', params: { arch } });
  if (layers === undefined) read.fail('layers', { code: 'layersRequired', params: { arch } });
  if (hidden === undefined || layers === undefined) return null;
  const hiddenChanged = base === undefined || hidden !== base.hidden;
  const transformer = ARCH_TRAITS[arch].transformer;
  let heads = count('heads') ?? (hiddenChanged ? undefined : base?.heads);
  if (heads === undefined) {
    if (!transformer) heads = 1;
    else if (hidden % 64 === 0) heads = hidden / 64;
    else {
      read.fail('heads', { code: 'headsRequired', params: { hidden } });
      return null;
    }
  }
  const kvDefault = base !== undefined && base.kvHeads !== base.heads && !hiddenChanged ? base.kvHeads : heads;
  const kvHeads = count('kvHeads') ?? kvDefault;
  const ffn = count('ffn') ?? (hiddenChanged || base === undefined || arch !== base.arch ? defaultFfn(arch, hidden) : base.ffn);
  const vocab = count('vocab') ?? (base !== undefined && arch === base.arch ? base.vocab : ARCH_VOCAB[arch]);
  const positionsDefault =
    base !== undefined && arch === base.arch ? base.positions : arch === 'gpt2' ? 1024 : arch === 'bert' ? 512 : 0;
  const positions = count('positions', 0) ?? positionsDefault;
  const experts = count('experts') ?? base?.experts ?? 1;
  const topK = count('topK') ?? (base !== undefined && base.experts === experts ? base.topK : Math.min(2, experts));
  let ok = true;
  if (transformer && hidden % heads !== 0) {
    read.fail('heads', { code: 'hiddenByHeads', params: { hidden, heads } });
    ok = false;
  }
  if (transformer && (kvHeads > heads || heads % kvHeads !== 0)) {
    read.fail('kvHeads', { code: 'kvHeadsDivideHeads', params: { kvHeads, heads } });
    ok = false;
  }
  if (topK > experts) {
    read.fail('topK', { code: 'topKBeyondExperts', params: { topK, experts } });
    ok = false;
  }
  if (arch === 'mlp' && experts > 1) {
    read.fail('experts', { code: 'expertsOnMlp' });
    ok = false;
  }
  const inputs = count('inputs');
  if (inputs !== undefined && arch !== 'mlp') {
    read.fail('inputs', { code: 'inputsOffMlp', params: { arch } });
    ok = false;
  }
  const numLabels = count('numLabels');
  if (numLabels !== undefined && arch === 'mlp') {
    read.fail('numLabels', { code: 'labelsOnMlp' });
    ok = false;
  }
  const baseTied = base !== undefined && arch === base.arch ? base.tiedEmbeddings : arch === 'gpt2' || arch === 'bert';
  const tiedEmbeddings = read.flag('tieEmbeddings', baseTied);
  if (!ok) return null;
  const contextLength =
    base !== undefined && arch === base.arch ? base.contextLength : arch === 'mlp' ? 1 : positions > 0 ? positions : 2048;
  return {
    arch,
    hidden,
    layers,
    heads,
    kvHeads: transformer ? kvHeads : 1,
    ffn,
    vocab,
    positions: transformer ? positions : 0,
    tiedEmbeddings,
    experts,
    topK,
    contextLength,
    slidingWindow: base !== undefined && arch === base.arch ? base.slidingWindow : null,
    ...(inputs !== undefined ? { inputs } : {}),
    ...(numLabels !== undefined ? { numLabels } : {}),
    ...(base !== undefined && arch === base.arch ? configDetails(base, experts) : {}),
  };
}

/**
 * What a config.json gave a preset beyond the flags (head width, biases, norms, sinks, global layers, latent attention,
 * expert details, the stored dtype and format), kept when the preset is estimated or its shape overridden within its
 * family, so no field is dropped
 * silently; the expert details only while the expert count is the preset's.
 */
function configDetails(base: ModelConfig, experts: number): Partial<ModelConfig> {
  const details: Partial<ModelConfig> = {};
  if (base.headDim !== undefined) details.headDim = base.headDim;
  if (base.attentionBias !== undefined) details.attentionBias = base.attentionBias;
  if (base.qkNorm !== undefined) details.qkNorm = base.qkNorm;
  if (base.normsPerLayer !== undefined) details.normsPerLayer = base.normsPerLayer;
  if (base.attentionSinks !== undefined) details.attentionSinks = base.attentionSinks;
  if (base.fullAttentionEvery !== undefined) details.fullAttentionEvery = base.fullAttentionEvery;
  if (base.storedWeights !== undefined) details.storedWeights = base.storedWeights;
  if (base.mla !== undefined) details.mla = base.mla;
  if (base.moe !== undefined && experts === base.experts) details.moe = base.moe;
  if (base.family !== undefined) details.family = base.family;
  if (base.storedDtype !== undefined) details.storedDtype = base.storedDtype;
  return details;
}

/** Odd-but-legal input: say what happens and how to silence it. */
function collectWarnings(
  notices: Notice[],
  options: EstimateOptions,
  t: Technique,
  model: ModelConfig | null,
  params: number | undefined,
  gpu: GpuSpec | null,
): void {
  if (params !== undefined) notices.push({ code: 'paramsOnly', params: { mode: t.mode } });
  if (t.sp && t.tp === 1) notices.push({ code: 'spWithoutTp' });
  if (t.mode === 'train' && t.zero > 0 && t.dp === 1) notices.push({ code: 'zeroWithoutDp', params: { stage: t.zero } });
  if (model !== null && t.recompute === 'op' && model.arch === 'mlp') notices.push({ code: 'opRecomputeOnMlp' });
  if (model !== null && t.recompute === 'selective') {
    if (model.arch === 'mlp') notices.push({ code: 'selectiveOnMlp' });
    else if (t.attention === 'sdpa') notices.push({ code: 'selectiveWithSdpa' });
  }
  if (options.tieEmbeddings !== undefined && model?.numLabels !== undefined) notices.push({ code: 'tieWithLabels' });
  if (t.mode === 'train' && options.gradDtype !== undefined && t.finetune !== 'full')
    notices.push({ code: 'gradDtypeWithAdapters' });
  if (gpu !== null && !gpu.bf16 && (t.precision === 'amp-bf16' || t.precision === 'mixed-bf16' || t.precision === 'bf16')) {
    notices.push({ code: 'noBf16', params: { gpu: gpu.name } });
  }
  if (t.mode === 'infer') {
    const ignored = (
      [
        'optimizer',
        'optimizerImpl',
        'grads',
        'gradDtype',
        'kernels',
        'finetune',
        'precision',
        'gradAccum',
        'recompute',
        'zero',
        'offload',
        'teacher',
      ] as const
    ).filter((key) => options[key] !== undefined);
    if (ignored.length > 0)
      notices.push({ code: 'ignoredInInfer', params: { flags: ignored.map((key) => `--${flagName(key)}`) } });
    // A tied head is one tensor once loaded, yet some checkpoints write it twice (Qwen3-0.6B's model.safetensors: 311
    // tensors, 1,503,264,768 bytes of data, lm_head.weight among them), so the download can exceed the weights counted.
    if (options.weights === 'stored' && model?.tiedEmbeddings === true) notices.push({ code: 'tiedHeadStored' });
    if (options.kvCache !== undefined && model !== null && model.mla === undefined) notices.push({ code: 'kvCacheWithoutMla' });
  } else if (options.tokens !== undefined || options.weights !== undefined || options.kvCache !== undefined) {
    notices.push({ code: 'inferFlagsInTraining' });
  }
}
