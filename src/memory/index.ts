/**
 * GPU Memory Lab memory engine: pure functions, no DOM, no I/O, no dependencies.
 * Start with `estimateMemory(options)`; parse CLI flags or URL queries with `parseEstimateFlags`.
 */
export {
  estimateMemory,
  estimateTotals,
  totalsOnGpus,
  type BatchSplit,
  type EstimateOutcome,
  type EstimateResult,
  type EstimateTotals,
  type PerGpuTotals,
  type StepSeconds,
  type TotalsOutcome,
} from './estimate.ts';
export type { EstimateOptions, FieldError, Mode, ShownFieldError } from './options.ts';
export { MODES } from './options.ts';
export {
  booleanFlag,
  createFlagTable,
  enumFlag,
  ESTIMATE_FLAG_TABLE,
  FLAG_ALIASES,
  FLAGS,
  flagName,
  flagNamed,
  flagOf,
  numberFlag,
  stringFlag,
  type FieldFlag,
  type FlagAlias,
  type FlagDefinition,
  type FlagGroup,
  type FlagKind,
  type FlagTable,
} from './flag-table.ts';
export {
  flagArgs,
  formatEstimateFlags,
  parseEstimateFlags,
  parseFlags,
  parseNumberFlag,
  type FlagValue,
  type ParseFlagsOptions,
  type ParseFlagsResult,
  type RawFlags,
  type ParsedFlags,
  type RawFlagValue,
  type RawFlagValues,
} from './flags.ts';
export { createOptionReader, type OptionReader } from './option-reader.ts';
export { resolveEstimateOptions, type ResolvedEstimate, type ResolveResult, type StackSetting } from './validate.ts';
export {
  DEFAULT_STACK,
  STACK_DECIDED_KEYS,
  stackDecidedKeysFor,
  STACK_SPECS,
  STACKS,
  stackDefaults,
  type Cited,
  type NotModelled,
  type Stack,
  type StackDefaults,
  type StackSpec,
} from './stacks.ts';
export { formatCount, formatSeconds, formatStepShare, formatStepTime } from './format.ts';
export { PREDICTED_OVER_MEASURED, STEP_TIME_BAND_SOURCE, stepTimeBand, type StepTimeBand } from './step-time/band.ts';
export { LINE_CATEGORIES } from './lines.ts';
export type { LineCategory, LineDevice, MemoryLine } from './lines.ts';
export { SOURCE_CHOICES, type SourceChoice } from './sources.ts';
export { MODEL_PRESETS, getModelPreset, type ModelPreset } from './presets.ts';
export { GPU_PRESETS, getGpuPreset, type GpuSpec } from './gpus.ts';
export {
  ARCHS,
  ARCH_TRAITS,
  CHECKPOINT_DTYPES,
  attentionWidths,
  routedMlpWidth,
  slidingLayersIn,
  type Arch,
  type AttentionBias,
  type AttentionWidths,
  type CheckpointDtype,
  type MlaShape,
  type ModelConfig,
  type MoeShape,
} from './model.ts';
export { MAX_CONFIG_JSON_BYTES, readConfigJson, type ConfigJsonReading } from './config-json.ts';
export { countParams, type ParamCounts } from './params.ts';
export { GRAD_DTYPES, gradientBytes, PRECISIONS, PRECISION_BYTES, type GradDtype, type Precision } from './precision.ts';
export { OPTIMIZERS, OPTIMIZER_IMPLS, optimizerBytesPerParam, type OptimizerImpl, type OptimizerKind } from './optimizer.ts';
export { FINETUNES, type Finetune } from './finetune.ts';
export {
  GRADIENT_LIFETIMES,
  MOMENTS,
  type GradientLifetime,
  type Lifetime,
  type MomentId,
  type Phase,
  type TimelineMoment,
} from './timeline.ts';
export {
  ATTENTIONS,
  KERNELS,
  RECOMPUTES,
  layerActivationBytes,
  outsideActivationBytes,
  planRecompute,
  defaultMlpSegment,
  NO_OTHER_LAYERS,
  type OtherLayers,
  type Attention,
  type Kernels,
  type Recompute,
  type LayerActivationShape,
  type LayerActivationBytes,
} from './activations.ts';
export { ZERO_STAGES, zeroShards, stageParams, chunksInFlight, type ZeroStage, type PipelineStage } from './parallel.ts';
export { OFFLOADS, OFFLOAD_DEVICES, type Offload, type OffloadDevice } from './offload.ts';
export { ACTIVATION_OFFLOADS, type ActivationOffload } from './activation-offload.ts';
export { COMPILE_ASSUMPTION } from './compile.ts';
export { WARNING_WORDS, wordNotice, type Notice, type WarningCode, type WarningWords } from './warnings.ts';
export { RULE_WORDS, ruleError, wordRule, type BrokenRule, type RuleCode, type RuleWords } from './rule-words.ts';
export { kvCacheBytes, stageWeightBytes } from './inference.ts';
export {
  WEIGHT_FORMATS,
  WEIGHT_FORMAT_SPECS,
  linearWeightBytes,
  weightFormatBytes,
  type WeightFormat,
  type WeightFormatBytes,
} from './weight-formats.ts';
export { LORA_TARGETS, loraParams, parseLoraTargets, type LoraPlan, type LoraTarget, type LoraTargets } from './lora.ts';
export { CUDA_CONTEXT_BYTES, DEFAULT_HEADROOM_PERCENT, cublasWorkspaceBytes } from './overhead.ts';
export { type StepTimeEstimate, type StepTimeLine } from './time.ts';
export { deepspeedZero2Estimate, deepspeedZero3Estimate, type DeepSpeedEstimate } from './deepspeed.ts';
export {
  DIT_CLASS_NAMES,
  isDiffusersConfig,
  readDiffusersConfig,
  type DiffusersConfigReading,
  type DitFamily,
  type DitShape,
  type FluxShape,
  type WanShape,
} from './diffusion-config.ts';
export { clipVisionParams, countDitParams, type BlockParams, type DitParamCounts } from './diffusion-params.ts';
export { DIFFUSION_PRESETS, getDiffusionPreset, type DiffusionPreset } from './diffusion-presets.ts';
export { diffusionRemedies, formatChanges, type DiffusionChange, type DiffusionRemedy } from './diffusion-remedies.ts';
export {
  GUIDANCES,
  PIPELINES,
  pipelineFor,
  type Guidance,
  type PipelineSpec,
  type EncoderSpec,
  type VaeSpec,
} from './diffusion-pipelines.ts';
export { vaeDecodeBytes, type VaeDecodeBytes } from './diffusion-vae.ts';
export {
  DIFFUSION_OFFLOADS,
  DIFFUSION_PHASES,
  DIT_WEIGHTS,
  estimateDiffusion,
  type DiffusionEstimate,
  type DiffusionOffload,
  type DiffusionOptions,
  type DiffusionOutcome,
  type DiffusionPhase,
  type DitWeights,
  type HostTransfer,
} from './diffusion.ts';
export { DIFFUSION_FLAG_TABLE, formatDiffusionFlags, parseDiffusionFlags, type DiffusionRawFlags } from './diffusion-flags.ts';
