/**
 * The engine's field errors as data: a code and its parameters, worded by one words object. The codes are the value
 * checks every field shares (a number, a whole number, one of a list, a config.json's key present and in range) and each
 * field's own rule (headroom up to 50 %, a known model id) or a rule between fields (tp against the heads, ZeRO under an
 * offload). The CLI prints the English words as the error's message; a page words the same error in its language from a
 * catalogue typed by `RuleWords`. `ruleError` is the only way to make a field error, and it takes no bare message, so
 * none can reach a page in English only.
 */
import { wordCoded, type CodedSentence, type WordsOf } from '../base/coded-words.ts';
import type { FieldError } from './options.ts';

/** The English sentence of each rule's error, by code. */
export const RULE_WORDS = {
  // The value checks every field shares, in the phrasings their readers have always printed (the CLI's output must not
  // change). With `flag`, the flag is the sentence's subject ("tp must be a number, got x": the option reader); without
  // it the field's name stands outside the sentence, before it (a config.json's key: "hidden_size must be …") or beside
  // it (a parser's flag: "--tp: expected a number, got 'x'"), and `quoted` is the flag parser's quoting of the raw
  // text. A page shows the sentence beside its field, so another language's words leave `flag`, `side` and `quoted` out.
  notANumber: (p: { flag?: string; value: string; quoted?: true }): string =>
    p.flag === undefined ? `expected a number, got ${shown(p)}` : `${p.flag} must be a number, got ${p.value}`,
  /** Without `flag`: after a config.json's key ("must be …"), or from the flag parser when `quoted` ("expected …"). */
  notTrueOrFalse: (p: { flag?: string; value: string; quoted?: true }): string => {
    if (p.flag !== undefined) return `${p.flag} must be true or false`;
    return p.quoted === true ? `expected true or false, got ${shown(p)}` : `must be true or false, got ${p.value}`;
  },
  notAChoice: (p: { flag?: string; value: string; allowed: readonly string[]; quoted?: true }): string =>
    p.flag === undefined
      ? `expected ${p.allowed.join(', ')}, got ${p.value}`
      : `invalid ${p.flag}: ${shown(p)} (expected ${p.allowed.join(', ')})`,
  notWhole: (p: { flag: string; value: number }): string => `${p.flag} must be a whole number, got ${p.value}`,
  belowMinimum: (p: { flag: string; value: number; min: number }): string =>
    `${p.flag} must be at least ${p.min}, got ${p.value}`,
  notPositive: (p: { flag: string; value: number }): string => `${p.flag} must be above 0, got ${p.value}`,
  tooLarge: (p: { flag: string; value: number; max: number }): string => `${p.flag} is too large (${p.value} > ${p.max})`,
  // A config.json's keys (after the key its reader puts first), and the file itself.
  missing: (): string => 'is missing; the model cannot be counted without it',
  /** `side` (width, height) is the subject of a diffusion resolution's check, in pixels. */
  outOfRange: (p: { side?: string; value: string; min: number; max: number }): string =>
    p.side === undefined
      ? `must be a whole number from ${p.min} to ${p.max}, got ${p.value}`
      : `${p.side} must be a whole number of pixels from ${p.min} to ${p.max}, got ${p.value}`,
  fileTooLarge: (p: { bytes: number }): string =>
    `config.json is ${p.bytes} bytes, over the 1 MB limit; a model's config.json is a few KB`,
  /** `reason` is the JSON parser's own, in the runtime's language. */
  notJson: (p: { reason: string }): string => `config.json is not valid JSON: ${p.reason}`,
  notAnObject: (): string => 'config.json must hold one JSON object ({ "hidden_size": …, … })',
  // Each field's own rule, and the rules between fields.
  tooManyGpus: (p: { gpus: number; max: number }): string =>
    `dp × tp × pp is ${p.gpus} GPUs; the engine models up to ${p.max.toLocaleString('en-US')} GPUs`,
  tpOnMlp: (): string => 'tensor parallelism is not modelled for the mlp arch; use --tp 1',
  headsByTp: (p: { heads: number; tp: number }): string => `heads (${p.heads}) must be divisible by tp (${p.tp})`,
  kvHeadsAndTp: (p: { kvHeads: number; tp: number }): string =>
    `kv-heads (${p.kvHeads}) and tp (${p.tp}) must divide one another`,
  ppBeyondLayers: (p: { pp: number; layers: number }): string => `pp (${p.pp}) cannot exceed layers (${p.layers})`,
  layersByChunks: (p: { layers: number; pp: number; ppVirtual: number }): string =>
    `layers (${p.layers}) must divide evenly into pp × pp-virtual (${p.pp} × ${p.ppVirtual}) model chunks`,
  checkpointBeyondLayers: (p: { checkpointEvery: number; layers: number }): string =>
    `checkpoint-every (${p.checkpointEvery}) cannot exceed layers (${p.layers})`,
  virtualWithoutPp: (p: { ppVirtual: number }): string =>
    `pp-virtual (${p.ppVirtual}) interleaves pipeline stages: it needs --pp 2 or more`,
  accumByPp: (p: { gradAccum: number; pp: number }): string =>
    `grad-accum (${p.gradAccum}) must be a multiple of pp (${p.pp}); interleaving runs micro-batches in groups of pp`,
  checkpointsWithoutFullRecompute: (): string =>
    'checkpoints offloads the checkpointed layer inputs, so it needs --recompute full (Unsloth use_gradient_checkpointing="unsloth"); use streamed to offload every saved activation',
  shardGroupWithoutZero3: (): string => 'shard-group shards ZeRO-3 within a group of GPUs (HSDP): it needs --zero 3',
  shardGroupByDp: (p: { shardGroup: number; dp: number }): string =>
    `shard-group (${p.shardGroup}) must divide dp (${p.dp}): each group holds one replica`,
  keepGatheredWithoutZero3: (): string => 'keep-gathered-weights keeps ZeRO-3’s gathered weights: it needs --zero 3',
  paramOffloadWithoutZero3: (): string => 'offloading parameters needs --zero 3 (ZeRO-Infinity, FSDP CPU offload)',
  offloadWithoutZero: (): string =>
    'offload needs ZeRO: --zero 1, 2 or 3 (DeepSpeed ZeRO-Offload); FSDP CPU offload is --zero 3 --offload optimizer+params',
  // Which model: a preset, a shape, a parameter count or a config.json, one at a time.
  configWithShape: (): string => 'a config.json gives the whole model: leave out --model, --params and the shape flags',
  paramsAlone: (): string => 'give --params alone, without --model or shape flags',
  noModel: (p: { models: readonly string[] }): string =>
    `give --model ID, --arch with --hidden and --layers, or --params N (models: ${p.models.join(', ')})`,
  unknownModel: (p: { model: string; models: readonly string[] }): string =>
    `unknown model '${p.model}' (expected one of ${p.models.join(', ')})`,
  // A shape given by its flags.
  hiddenRequired: (p: { arch: string }): string => `--hidden is required with --arch ${p.arch}`,
  layersRequired: (p: { arch: string }): string => `--layers is required with --arch ${p.arch}`,
  headsRequired: (p: { hidden: number }): string => `--heads is required when hidden (${p.hidden}) is not a multiple of 64`,
  hiddenByHeads: (p: { hidden: number; heads: number }): string => `hidden (${p.hidden}) must be divisible by heads (${p.heads})`,
  kvHeadsDivideHeads: (p: { kvHeads: number; heads: number }): string => `kv-heads (${p.kvHeads}) must divide heads (${p.heads})`,
  topKBeyondExperts: (p: { topK: number; experts: number }): string => `top-k (${p.topK}) cannot exceed experts (${p.experts})`,
  expertsOnMlp: (): string => 'mixture-of-experts is modelled for transformer archs only',
  inputsOffMlp: (p: { arch: string }): string => `--inputs describes an mlp's input layer; the ${p.arch} arch reads tokens`,
  labelsOnMlp: (): string => 'the mlp arch ends in its classifier already: give its classes as --vocab',
  seqOnMlp: (p: { seq: number }): string =>
    `the mlp arch has no sequence: seq must be 1 (got ${p.seq}); the batch is --micro-batch`,
  meanSeqBeyondSeq: (p: { meanSeq: number; seq: number }): string =>
    `mean-seq ${p.meanSeq} is longer than --seq ${p.seq}: the mean real length cannot exceed the length sequences are padded, packed or truncated to`,
  paddingFreeWithEager: (): string =>
    'padding-free batches need FlashAttention (TRL padding_free supports FlashAttention 2 or 3 only): use --attention sdpa, or --batching padded',
  optimizerInBackwardWithAccum: (): string =>
    'optimizer-in-backward applies each gradient as it is made: it cannot accumulate, use --grad-accum 1',
  // FP8 training.
  fp8WithoutTensorCores: (p: { recipe: string; gpu: string }): string =>
    `fp8 ${p.recipe} needs FP8 tensor cores (Ada, Hopper, Blackwell, MI300); the ${p.gpu} has none: use --fp8 none`,
  fp8TeOffNvidia: (p: { gpu: string }): string =>
    `fp8 te is NVIDIA's Transformer Engine; the ${p.gpu} is not an NVIDIA GPU: use a torchao recipe`,
  fp8InInfer: (): string => 'fp8 is a training recipe: leave it out with --mode infer',
  fp8WithAdapters: (p: { finetune: string }): string =>
    `fp8 is counted for full fine-tunes; with --finetune ${p.finetune} use --fp8 none`,
  fp8TeWithZero3: (): string =>
    'fp8 te with --zero 3 (FSDP2 requantizes the weights in backward) is not modelled: use a torchao recipe',
  fp8AllGatherNeeds: (): string =>
    'fp8-all-gather needs --fp8 torchao-tensorwise (torchao allows it with tensorwise scaling only) and --zero 3',
  // The GPU, the teacher, the margin and the efficiency.
  unknownGpu: (p: { gpu: string; gpus: readonly string[] }): string =>
    `unknown gpu '${p.gpu}' (expected one of ${p.gpus.join(', ')})`,
  unknownTeacher: (p: { teacher: string; models: readonly string[] }): string =>
    `unknown teacher '${p.teacher}' (expected one of ${p.models.join(', ')})`,
  teacherInInfer: (): string => 'distillation trains a student: use --mode train with --teacher',
  headroomRange: (p: { value: string }): string => `headroom must be a percentage between 0 and 50, got ${p.value}`,
  mfuRange: (p: { value: string }): string => `mfu must be a percentage above 0 and at most 100, got ${p.value}`,
  // Weight formats (weight-formats.ts).
  storedUnknown: (): string =>
    'stored means the format the checkpoint ships in, which a config.json gives (quantization_config or torch_dtype); this model does not say: choose fp32, fp16, bf16 or a quantized format',
  quantizedWithoutShape: (p: { format: string }): string =>
    `${p.format} quantizes Linear layers, which --params alone does not describe: give --model or --arch with a shape, or use fp32, fp16 or bf16`,
  formatNotForArch: (p: { format: string; arch: string; archs: readonly string[] }): string =>
    `${p.format} is not available for ${p.arch} models (the library supports ${p.archs.join(', ')}); choose fp16, bf16, llm-int8, nf4 or nf4-dq`,
  formatWithoutExperts: (p: { format: string }): string =>
    `${p.format} stores a mixture of experts' experts; this model has none`,
  gptqPacking: (p: LayerWidths): string =>
    `${p.format} packs input and output widths that are multiples of 32; ${p.module} is ${p.inFeatures} → ${p.outFeatures}`,
  awqPacking: (p: LayerWidths & { group: number }): string =>
    `${p.format} packs input widths that are multiples of ${p.group} and output widths that are multiples of 8; ${p.module} is ${p.inFeatures} → ${p.outFeatures}`,
  mxfp4Packing: (p: LayerWidths & { block: number }): string =>
    `${p.format} packs input widths that are multiples of ${p.block}; ${p.module} is ${p.inFeatures} → ${p.outFeatures}`,
  // LoRA and QLoRA (lora.ts).
  adaptersWithoutShape: (p: { finetune: string }): string =>
    `--finetune ${p.finetune} adapts a model's Linear layers: give --model or --arch with a shape, not --params`,
  loraDropoutRange: (p: { value: string }): string => `lora-dropout must be a probability p with 0 ≤ p < 1, got ${p.value}`,
  loraRankWhole: (p: { rank: number }): string => `expected a whole number ≥ 1; got ${p.rank}`,
  loraTargetsList: (p: { presets: readonly string[]; targets: readonly string[]; unknown: readonly string[] }): string =>
    `expected ${p.presets.join(', ')} or a comma list of ${p.targets.join(',')}; got ${foundWords(p.unknown)}`,
  modulesToSaveList: (p: { modules: readonly string[]; unknown: readonly string[] }): string =>
    `expected none or a comma list of ${p.modules.join(',')}; got ${foundWords(p.unknown)}`,
  missingProjections: (p: { arch: string; missing: readonly string[]; have: readonly string[] }): string =>
    `${p.arch} has no ${p.missing.join(', ')} projection; choose from ${p.have.join(',')}`,
  fusedProjections: (p: { arch: string; projections: readonly string[]; module: string }): string =>
    `${p.arch} fuses ${p.projections.join(', ')} into one module (${p.module}); target all of them or none`,
  loraOnMlp: (): string =>
    'LoRA adapts transformer projections (q,k,v,o,gate,up,down); the plain MLP has none — use full fine-tuning',
  doraWithTp: (): string => 'DoRA is not supported with tensor parallelism (PEFT LoraParallelLinear): use --tp 1 or drop --dora',
  // The flags themselves (flags.ts).
  unknownFlag: (p: { flag: string }): string => `unknown flag --${p.flag}`,
  flagTwice: (p: { flag: string }): string => `give --${p.flag} once`,
  flagWithoutValue: (p: { flag: string; placeholder: string }): string =>
    `--${p.flag} needs a value${p.placeholder ? ` (${p.placeholder})` : ''}`,
  flagAndAlias: (p: { flag: string; alias: string }): string => `give either --${p.flag} or --${p.alias}, not both`,
  // The count itself (estimate.ts).
  nothingToEstimate: (): string => 'nothing to estimate',
  tooLargeToCount: (): string =>
    'this configuration is too large to count exactly (one part alone would exceed 9 PB); check the sizes',
  // A config.json's keys (config-json.ts): the reader puts the key before the sentence, the page shows it beside it.
  configKvHeads: (p: { kvHeads: number; headsKey: string; heads: number }): string =>
    `(${p.kvHeads}) must divide ${p.headsKey} (${p.heads})`,
  configHiddenByHeads: (p: { hidden: number; headsKey: string; heads: number }): string =>
    `(${p.hidden}) must be divisible by ${p.headsKey} (${p.heads}) when head_dim is not given`,
  configTopK: (p: { topK: number; experts: number; expertsKey: string }): string =>
    `(${p.topK}) cannot exceed the ${p.experts} experts of ${p.expertsKey}`,
  configLayerIndices: (p: { layers: number }): string => `must list layer indices from 0 to ${p.layers - 1}`,
  configLayerTypes: (p: { layers: number; entries: number }): string =>
    `must list one type per layer (${p.layers}), got ${p.entries} entries`,
  // A diffusers transformer config (diffusion-config.ts): the reader puts the key before the sentence.
  ditTooLarge: (): string => 'over the 1 MB limit; a transformer config.json is a few KB',
  ditNotJson: (p: { reason: string }): string => `not valid JSON (${p.reason})`,
  ditNotObject: (): string => 'expected a JSON object',
  ditClassName: (p: { className: string; classes: readonly string[] }): string =>
    `_class_name: ${p.className} is not a diffusion transformer the engine counts (${p.classes.join(', ')})`,
  ditCount: (p: { value: string; max: number }): string => `expected a whole number from 1 to ${p.max}, got ${p.value}`,
  ditFlag: (p: { value: string }): string => `expected true or false, got ${p.value}`,
  ditChoiceNotCounted: (p: { value: string; values: readonly string[] }): string =>
    `${p.value} is not counted yet: expected ${p.values.join(' or ')} or null`,
  ditIndices: (p: { value: string; layers: number }): string =>
    `expected distinct block indices from 0 to ${p.layers - 1}, got ${p.value}`,
  ditPatch: (p: { value: string }): string => `expected three whole numbers [frames, height, width] from 1 to 64, got ${p.value}`,
  firstLastFrameNotCounted: (p: { value: string }): string =>
    `${p.value} is not counted yet: the first-last-frame position embedding is not modelled`,
  imageDimPair: (p: { value: string }): string => `${p.value}: image_dim and added_kv_proj_dim come together`,
  // The diffusion calculator's settings (diffusion-flags.ts, diffusion.ts).
  unknownPipeline: (p: { id: string }): string => `unknown pipeline preset ${p.id}`,
  unknownGpuPreset: (p: { gpu: string }): string => `unknown GPU preset ${p.gpu} (see estimate --help)`,
  resolutionFormat: (p: { value: string }): string => `expected WIDTHxHEIGHT in pixels (e.g. 1280x720), got ${p.value}`,
  sideNotMultiple: (p: {
    side: string;
    value: number;
    multiple: number;
    pipeline: string;
    latentPixels: number;
    patch: number;
  }): string =>
    `${p.side} ${p.value} is not a multiple of ${p.multiple}: ${p.pipeline} would resize it (latents of ${p.latentPixels} px, patches of ${p.patch})`,
  imagesOneFrame: (p: { pipeline: string; frames: number }): string =>
    `${p.pipeline} makes images: frames must be 1, got ${p.frames}`,
  framesByTemporal: (p: { temporal: number; frames: number; pipeline: string }): string =>
    `frames − 1 must be a multiple of ${p.temporal} (the VAE's temporal compression), got ${p.frames}: ${p.pipeline} would round it`,
  diffusionHeadroom: (p: { value: number }): string => `must be from 0 to 99 percent, got ${p.value}`,
};

/** A quantized Linear layer whose widths a weight format cannot pack. */
interface LayerWidths {
  readonly format: string;
  readonly module: string;
  readonly inFeatures: number;
  readonly outFeatures: number;
}

/** A value check's raw text as its English quotes it. */
function shown(p: { value: string; quoted?: true }): string {
  return p.quoted === true ? `'${p.value}'` : p.value;
}

/** What a comma list held that is not allowed, as its error quotes it. */
function foundWords(unknown: readonly string[]): string {
  return unknown.length === 0 ? 'an empty list' : `"${unknown.join(', ')}"`;
}

/** What wording the rules' errors take: one function per code, with that code's parameters. */
export type RuleWords = WordsOf<typeof RULE_WORDS>;

/** A rule's stable code. */
export type RuleCode = keyof RuleWords;

/** A broken rule as data: its code and, where its sentence has any, its parameters. */
export type BrokenRule = CodedSentence<RuleWords>;

/** The sentence of `rule` in `words` (English by default: what the CLI prints). */
export function wordRule(rule: BrokenRule, words: RuleWords = RULE_WORDS): string {
  return wordCoded(rule, words);
}

/**
 * The error of `rule` on `field`: its English sentence (the CLI's message, after `lead`, the name a reader puts before
 * it), and the rule as data (a page's words).
 */
export function ruleError(field: string, rule: BrokenRule, lead = ''): FieldError {
  return { field, message: `${lead}${wordRule(rule)}`, problem: rule };
}
