/**
 * Validation at the edge of src/memory: turn `EstimateOptions` into a fully resolved configuration,
 * or a list of errors, each naming the field (flag / query name) it belongs to.
 */
import { ATTENTIONS, KERNELS, RECOMPUTES, type Attention, type Kernels, type Recompute } from './activations.ts';
import { FINETUNES, type Finetune } from './finetune.ts';
import { KBIT_TRAINING_CHECKPOINTING, loraParams, parseLoraTargets, type LoraPlan } from './lora.ts';
import { flagName, flagOf } from './flag-table.ts';
import { getGpuPreset, GPU_PRESETS, type GpuSpec } from './gpus.ts';
import { validateWeightFormat, WEIGHT_FORMAT_SPECS, WEIGHT_FORMATS, type WeightFormat } from './weight-formats.ts';
import { ARCH_TRAITS, ARCHS, llamaDefaultFfn, type Arch, type ModelConfig } from './model.ts';
import { OFFLOAD_DEVICES, OFFLOADS, type Offload, type OffloadDevice } from './offload.ts';
import { OPTIMIZER_IMPLS, OPTIMIZERS, type OptimizerImpl, type OptimizerKind } from './optimizer.ts';
import { MODES, type EstimateOptions, type FieldError, type Mode } from './options.ts';
import { ZERO_STAGES, type ZeroStage } from './parallel.ts';
import { PRECISIONS, type Precision } from './precision.ts';
import { getModelPreset, MODEL_PRESETS, type ModelPreset } from './presets.ts';
import { DEFAULT_HEADROOM_PERCENT } from './overhead.ts';
import { GRADIENT_LIFETIMES, type GradientLifetime } from './timeline.ts';

/** A configuration with every default filled in and every combination checked. */
export interface ResolvedEstimate {
  mode: Mode;
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
  gradAccum: number;
  recompute: Recompute;
  /** Explicit checkpoint segment, or null for the default. */
  checkpointEvery: number | null;
  attention: Attention;
  kernels: Kernels;
  grads: GradientLifetime;
  optimizerImpl: OptimizerImpl;
  finetune: Finetune;
  loraRank: number;
  /** LoRA targets as given (`all-linear`, `attention` or a comma list). */
  loraTargets: string;
  /** The adapters a LoRA/QLoRA fine-tune trains, or null for a full one. */
  lora: LoraPlan | null;
  dropout: boolean;
  dp: number;
  zero: ZeroStage;
  tp: number;
  sp: boolean;
  pp: number;
  offload: Offload;
  offloadDevice: OffloadDevice;
  gpu: GpuSpec | null;
  tokens: number;
  teacher: ModelPreset | null;
  teacherWeights: WeightFormat;
  /** Free margin, percent of GPU memory. */
  headroom: number;
}

/** Outcome of `resolveEstimateOptions`. */
export type ResolveResult = { ok: true; value: ResolvedEstimate; warnings: string[] } | { ok: false; errors: FieldError[] };

/** Largest accepted value for any count (keeps every product of sizes well inside 2^53 in sane use). */
const MAX_COUNT = 1e15;

const ARCH_VOCAB: Readonly<Record<Arch, number>> = { gpt2: 50257, llama: 32000, bert: 30522, mlp: 10 };

function defaultFfn(arch: Arch, hidden: number): number {
  if (arch === 'llama') return llamaDefaultFfn(hidden);
  if (arch === 'mlp') return hidden;
  return 4 * hidden;
}

/** Resolve and check options; every error names its field. */
export function resolveEstimateOptions(options: EstimateOptions): ResolveResult {
  const errors: FieldError[] = [];
  const warnings: string[] = [];
  const fail = (key: keyof EstimateOptions, message: string) => errors.push({ field: flagName(key), message });

  // An enumeration's fallback is the flag table's default unless the caller derives one.
  const keyword = <T extends string | number>(key: keyof EstimateOptions, allowed: readonly T[], derived?: T): T => {
    const fallback = derived ?? allowed.find((v) => String(v) === flagOf(key).default) ?? (allowed[0] as T);
    const value = options[key];
    if (value === undefined) return fallback;
    if (!(allowed as readonly unknown[]).includes(value)) {
      fail(key, `invalid ${flagName(key)}: ${String(value)} (expected ${allowed.join(', ')})`);
      return fallback;
    }
    return value as T;
  };
  const count = (key: keyof EstimateOptions, min = 1): number | undefined => {
    const value = options[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value))
      fail(key, `${flagName(key)} must be a number, got ${String(value)}`);
    else if (!Number.isInteger(value)) fail(key, `${flagName(key)} must be a whole number, got ${value}`);
    else if (value < min) fail(key, `${flagName(key)} must be at least ${min}, got ${value}`);
    else if (value > (flagOf(key).max ?? MAX_COUNT))
      fail(key, `${flagName(key)} is too large (${value} > ${flagOf(key).max ?? MAX_COUNT})`);
    else return value;
    return undefined;
  };
  const flag = (key: keyof EstimateOptions, fallback: boolean): boolean => {
    const value = options[key];
    if (value === undefined) return fallback;
    if (typeof value !== 'boolean') {
      fail(key, `${flagName(key)} must be true or false`);
      return fallback;
    }
    return value;
  };

  const mode = keyword('mode', MODES);
  const precision = keyword('precision', PRECISIONS);
  const optimizer = keyword('optimizer', OPTIMIZERS);
  const optimizerImpl = keyword('optimizerImpl', OPTIMIZER_IMPLS);
  const grads = keyword('grads', GRADIENT_LIFETIMES);
  const attention = keyword('attention', ATTENTIONS);
  const kernels = keyword('kernels', KERNELS);
  const finetuneGiven = options.finetune;
  // prepare_model_for_kbit_training turns gradient checkpointing on (peft utils/other.py), so QLoRA runs recompute unless told otherwise.
  const recompute = keyword(
    'recompute',
    RECOMPUTES,
    finetuneGiven === 'qlora' && KBIT_TRAINING_CHECKPOINTING ? 'full' : undefined,
  );
  const zero = keyword('zero', ZERO_STAGES);
  const offload = keyword('offload', OFFLOADS);
  const offloadDevice = keyword('offloadDevice', OFFLOAD_DEVICES);
  const weights = keyword('weights', WEIGHT_FORMATS);
  const finetune = keyword('finetune', FINETUNES);
  const teacherWeights = keyword('teacherWeights', WEIGHT_FORMATS, precision === 'fp32' ? 'fp32' : 'bf16');
  const archOverride = options.arch === undefined ? undefined : keyword('arch', ARCHS);

  const microBatch = count('microBatch') ?? 1;
  const gradAccum = count('gradAccum') ?? 1;
  const dp = count('dp') ?? 1;
  const tp = count('tp') ?? 1;
  const pp = count('pp') ?? 1;
  const seqGiven = count('seq');
  const tokensGiven = count('tokens');
  const checkpointEvery = count('checkpointEvery') ?? null;
  const sp = flag('sp', false);
  const loraRank = count('loraRank') ?? 16;
  const loraTargets = options.loraTargets ?? 'all-linear';
  const params = count('params');

  // --- model ---
  let model: ModelConfig | null = null;
  let modelId: string | null = null;
  const shapeKeys = [
    'arch',
    'hidden',
    'layers',
    'heads',
    'kvHeads',
    'ffn',
    'vocab',
    'positions',
    'inputs',
    'experts',
    'topK',
  ] as const;
  const shapeGiven = shapeKeys.some((key) => options[key] !== undefined);
  if (params !== undefined) {
    if (options.model !== undefined || shapeGiven) fail('params', 'give --params alone, without --model or shape flags');
  } else if (options.params !== undefined) {
    // count() already reported the error
  } else if (options.model === undefined && archOverride === undefined) {
    fail(
      'model',
      `give --model ID, --arch with --hidden and --layers, or --params N (models: ${MODEL_PRESETS.map((p) => p.id).join(', ')})`,
    );
  } else {
    const preset = options.model === undefined ? undefined : getModelPreset(options.model);
    if (options.model !== undefined && preset === undefined) {
      fail('model', `unknown model '${options.model}' (expected one of ${MODEL_PRESETS.map((p) => p.id).join(', ')})`);
    } else {
      modelId = preset?.id ?? null;
      model = resolveShape(preset?.config, archOverride, count, fail);
      if (model !== null && shapeGiven && preset !== undefined) modelId = `${preset.id} (modified)`;
    }
  }

  // --- sequence, tokens ---
  let seq = seqGiven ?? model?.contextLength ?? 2048;
  if (model !== null && model.arch === 'mlp') {
    if (seqGiven !== undefined && seqGiven !== 1)
      fail('seq', `the mlp arch has no sequence: seq must be 1 (got ${seqGiven}); the batch is --micro-batch`);
    seq = 1;
    if (options.attention !== undefined) warnings.push('--attention has no effect on the mlp arch (no attention); drop the flag');
  } else if (model !== null && seqGiven !== undefined && model.positions > 0 && seqGiven > model.positions) {
    warnings.push(
      `seq ${seqGiven} is longer than the model's ${model.positions} learned positions; the model cannot run it as is`,
    );
  }
  const tokens = tokensGiven ?? seq;

  // --- parallelism ---
  if (model !== null) {
    if (model.arch === 'mlp' && tp > 1) fail('tp', 'tensor parallelism is not modelled for the mlp arch; use --tp 1');
    else if (model.heads % tp !== 0) fail('tp', `heads (${model.heads}) must be divisible by tp (${tp})`);
    else if (model.kvHeads % tp !== 0 && tp % model.kvHeads !== 0)
      fail('tp', `kv-heads (${model.kvHeads}) and tp (${tp}) must divide one another`);
    if (pp > model.layers) fail('pp', `pp (${pp}) cannot exceed layers (${model.layers})`);
    if (checkpointEvery !== null && checkpointEvery > model.layers)
      fail('checkpointEvery', `checkpoint-every (${checkpointEvery}) cannot exceed layers (${model.layers})`);
  }
  if (offload === 'optimizer+params' && zero !== 3)
    fail('offload', 'offloading parameters needs --zero 3 (ZeRO-Infinity, FSDP CPU offload)');
  else if (offload !== 'none' && zero === 0)
    fail(
      'offload',
      'offload needs ZeRO: --zero 1, 2 or 3 (DeepSpeed ZeRO-Offload); FSDP CPU offload is --zero 3 --offload optimizer+params',
    );

  // --- GPU, teacher, headroom ---
  let gpu: GpuSpec | null = null;
  if (options.gpu !== undefined) {
    gpu = getGpuPreset(options.gpu) ?? null;
    if (gpu === null) fail('gpu', `unknown gpu '${options.gpu}' (expected one of ${GPU_PRESETS.map((g) => g.id).join(', ')})`);
  }
  let teacher: ModelPreset | null = null;
  if (options.teacher !== undefined) {
    teacher = getModelPreset(options.teacher) ?? null;
    if (teacher === null)
      fail('teacher', `unknown teacher '${options.teacher}' (expected one of ${MODEL_PRESETS.map((p) => p.id).join(', ')})`);
    else if (mode === 'infer') fail('teacher', 'distillation trains a student: use --mode train with --teacher');
    else if (model !== null && teacher.config.vocab !== model.vocab) {
      warnings.push(
        `teacher vocab (${teacher.config.vocab}) differs from the student's (${model.vocab}); logit distillation needs a shared vocabulary`,
      );
    }
  }
  let headroom = DEFAULT_HEADROOM_PERCENT;
  if (options.headroom !== undefined) {
    if (
      typeof options.headroom !== 'number' ||
      !Number.isFinite(options.headroom) ||
      options.headroom < 0 ||
      options.headroom > 50
    ) {
      fail('headroom', `headroom must be a percentage between 0 and 50, got ${String(options.headroom)}`);
    } else headroom = options.headroom;
  }

  // --- weight formats, fine-tuning ---
  if (model !== null && mode === 'infer') errors.push(...validateWeightFormat(model, weights));
  if (model === null && mode === 'infer' && WEIGHT_FORMAT_SPECS[weights].quantized) {
    fail(
      'weights',
      `${WEIGHT_FORMAT_SPECS[weights].label} quantizes Linear layers, which --params alone does not describe: give --model or --arch with a shape, or use fp32, fp16 or bf16`,
    );
  }
  if (teacher !== null)
    errors.push(
      ...validateWeightFormat(teacher.config, teacherWeights).map((e) => ({ ...e, field: flagName('teacherWeights') })),
    );
  let lora: LoraPlan | null = null;
  if (finetune !== 'full' && mode === 'train') {
    if (model === null)
      fail(
        'finetune',
        `--finetune ${finetune} adapts a model's Linear layers: give --model or --arch with a shape, not --params`,
      );
    else {
      const targets = parseLoraTargets(loraTargets);
      if (!targets.ok) errors.push(targets.error);
      else {
        const plan = loraParams(model, loraRank, targets.targets);
        if (plan.ok) lora = plan.plan;
        else errors.push(...plan.errors);
      }
    }
  } else if (options.loraRank !== undefined || options.loraTargets !== undefined) {
    warnings.push('--lora-rank and --lora-targets apply to --finetune lora or qlora; ignored');
  }
  if (finetune === 'qlora' && options.recompute === undefined && mode === 'train') {
    warnings.push(
      'QLoRA: prepare_model_for_kbit_training turns gradient checkpointing on, so this assumes --recompute full; pass --recompute none for a run without it',
    );
  }

  if (errors.length > 0) return { ok: false, errors };

  const dropout = flag('dropout', model === null ? false : ARCH_TRAITS[model.arch].dropout);
  collectWarnings(warnings, { options, mode, model, params, tp, sp, dp, zero, recompute, attention, precision, gpu });
  return {
    ok: true,
    warnings,
    value: {
      mode,
      modelId,
      model,
      paramsOnly: params ?? null,
      precision,
      weights,
      optimizer,
      microBatch,
      seq,
      gradAccum,
      recompute,
      checkpointEvery,
      attention,
      kernels,
      grads,
      optimizerImpl,
      finetune,
      loraRank,
      loraTargets,
      lora,
      dropout,
      dp,
      zero,
      tp,
      sp,
      pp,
      offload,
      offloadDevice,
      gpu,
      tokens,
      teacher,
      teacherWeights,
      headroom,
    },
  };
}

/** Build the model shape from a preset (or arch defaults) and the shape overrides. */
function resolveShape(
  base: ModelConfig | undefined,
  archOverride: Arch | undefined,
  count: (key: keyof EstimateOptions, min?: number) => number | undefined,
  fail: (key: keyof EstimateOptions, message: string) => void,
): ModelConfig | null {
  const arch = archOverride ?? base?.arch ?? 'gpt2';
  const hidden = count('hidden') ?? base?.hidden;
  const layers = count('layers') ?? base?.layers;
  if (hidden === undefined) fail('hidden', `--hidden is required with --arch ${arch}`);
  if (layers === undefined) fail('layers', `--layers is required with --arch ${arch}`);
  if (hidden === undefined || layers === undefined) return null;
  const hiddenChanged = base === undefined || hidden !== base.hidden;
  const transformer = ARCH_TRAITS[arch].transformer;
  let heads = count('heads') ?? (hiddenChanged ? undefined : base?.heads);
  if (heads === undefined) {
    if (!transformer) heads = 1;
    else if (hidden % 64 === 0) heads = hidden / 64;
    else {
      fail('heads', `--heads is required when hidden (${hidden}) is not a multiple of 64`);
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
    fail('heads', `hidden (${hidden}) must be divisible by heads (${heads})`);
    ok = false;
  }
  if (transformer && (kvHeads > heads || heads % kvHeads !== 0)) {
    fail('kvHeads', `kv-heads (${kvHeads}) must divide heads (${heads})`);
    ok = false;
  }
  if (topK > experts) {
    fail('topK', `top-k (${topK}) cannot exceed experts (${experts})`);
    ok = false;
  }
  if (arch === 'mlp' && experts > 1) {
    fail('experts', 'mixture-of-experts is modelled for transformer archs only');
    ok = false;
  }
  const inputs = count('inputs');
  if (inputs !== undefined && arch !== 'mlp') {
    fail('inputs', `--inputs describes an mlp's input layer; the ${arch} arch reads tokens`);
    ok = false;
  }
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
    tiedEmbeddings: base !== undefined && arch === base.arch ? base.tiedEmbeddings : arch === 'gpt2' || arch === 'bert',
    experts,
    topK,
    contextLength,
    slidingWindow: base !== undefined && arch === base.arch ? base.slidingWindow : null,
    ...(inputs !== undefined ? { inputs } : {}),
  };
}

interface WarningContext {
  options: EstimateOptions;
  mode: Mode;
  model: ModelConfig | null;
  params: number | undefined;
  tp: number;
  sp: boolean;
  dp: number;
  zero: ZeroStage;
  recompute: Recompute;
  attention: Attention;
  precision: Precision;
  gpu: GpuSpec | null;
}

/** Odd-but-legal input: say what happens and how to silence it. */
function collectWarnings(warnings: string[], c: WarningContext): void {
  if (c.params !== undefined) {
    warnings.push(
      c.mode === 'train'
        ? '--params alone gives model states only: activations are 0. Give --model or --arch with a shape to include them'
        : '--params alone gives weights only: KV cache and activations are 0. Give --model or --arch with a shape to include them',
    );
  }
  if (c.sp && c.tp === 1)
    warnings.push(
      '--sp has no effect with --tp 1 (sequence parallelism shards by the tensor-parallel degree); drop --sp or raise --tp',
    );
  if (c.mode === 'train' && c.zero > 0 && c.dp === 1)
    warnings.push(`ZeRO stage ${c.zero} with --dp 1 shards nothing; raise --dp`);
  if (c.model !== null && c.recompute === 'selective') {
    if (c.model.arch === 'mlp')
      warnings.push(
        'selective recompute only drops attention activations; the mlp arch has none, so it saves nothing (use --recompute full)',
      );
    else if (c.attention === 'sdpa')
      warnings.push(
        'selective recompute drops the s×s attention activations, which SDPA (FlashAttention) never stores: no further saving; use --recompute full or --attention eager',
      );
  }
  if (c.gpu !== null && !c.gpu.bf16 && (c.precision === 'amp-bf16' || c.precision === 'mixed-bf16' || c.precision === 'bf16')) {
    warnings.push(`${c.gpu.name} has no BF16 tensor cores; use --precision mixed-fp16 or amp-fp16`);
  }
  if (c.mode === 'infer') {
    const ignored = (['optimizer', 'precision', 'gradAccum', 'recompute', 'zero', 'offload', 'teacher'] as const).filter(
      (key) => c.options[key] !== undefined,
    );
    if (ignored.length > 0) warnings.push(`ignored in infer mode: ${ignored.map((key) => `--${flagName(key)}`).join(', ')}`);
  } else if (c.options.tokens !== undefined || c.options.weights !== undefined) {
    warnings.push('--tokens and --weights apply to --mode infer; ignored for training');
  }
}
