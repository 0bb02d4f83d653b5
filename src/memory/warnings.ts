/**
 * The estimate's warnings (odd-but-legal input, a pipeline stage, a card too small) a config.json reader's and the image generation estimate's, as data: a code and its parameters,
 * worded by one words object. The CLI prints the English words; the site words the same notices in the reader's
 * language from a catalogue typed by `WarningWords`, so no sentence is parsed to be translated.
 */
import { formatGiB } from '../base/bytes.ts';
import { COMPILE_ASSUMPTION } from './compile.ts';
import type { DiffusionPhase } from './diffusion.ts';
import type { Mode } from './options.ts';
import type { PipelineStage } from './parallel.ts';
import { wordCoded, type CodedSentence, type WordsOf } from '../base/coded-words.ts';

/** The English sentence of each warning, by code. */
export const WARNING_WORDS = {
  compileAssumption: (): string => COMPILE_ASSUMPTION,
  paramsOnly: (p: { mode: Mode }): string =>
    p.mode === 'train'
      ? '--params alone gives model states only: activations are 0. Give --model or --arch with a shape to include them'
      : '--params alone gives weights only: KV cache and activations are 0. Give --model or --arch with a shape to include them',
  attentionOnMlp: (): string => '--attention has no effect on the mlp arch (no attention); drop the flag',
  seqBeyondPositions: (p: { seq: number; positions: number }): string =>
    `seq ${p.seq} is longer than the model's ${p.positions} learned positions; the model cannot run it as is`,
  teacherVocab: (p: { teacher: number; student: number }): string =>
    `teacher vocab (${p.teacher}) differs from the student's (${p.student}); logit distillation needs a shared vocabulary`,
  loraFlagsIgnored: (p: { flags: readonly string[] }): string =>
    `${p.flags.join(', ')} apply to --finetune lora or qlora; ignored`,
  qloraRecompute: (): string =>
    'QLoRA: prepare_model_for_kbit_training turns gradient checkpointing on, so this assumes --recompute full; pass --recompute none for a run without it',
  spWithoutTp: (): string =>
    '--sp has no effect with --tp 1 (sequence parallelism shards by the tensor-parallel degree); drop --sp or raise --tp',
  zeroWithoutDp: (p: { stage: number }): string => `ZeRO stage ${p.stage} with --dp 1 shards nothing; raise --dp`,
  opRecomputeOnMlp: (): string =>
    'op-level recompute saves matmul (aten.mm) outputs; the mlp arch’s layers have biases (addmm), so it keeps what --recompute full --checkpoint-every 1 keeps',
  selectiveOnMlp: (): string =>
    'selective recompute only drops attention activations; the mlp arch has none, so it saves nothing (use --recompute full)',
  selectiveWithSdpa: (): string =>
    'selective recompute drops the s×s attention activations, which SDPA (FlashAttention) never stores: no further saving; use --recompute full or --attention eager',
  tieWithLabels: (): string =>
    '--tie-embeddings has no effect with --num-labels: a classification head is its own labels × hidden matrix, never the embedding',
  gradDtypeWithAdapters: (): string =>
    "--grad-dtype sets a full fine-tune's gradients; LoRA and QLoRA adapters keep theirs in the adapter dtype (--lora-dtype)",
  noBf16: (p: { gpu: string }): string => `${p.gpu} has no BF16 tensor cores; use --precision mixed-fp16 or amp-fp16`,
  ignoredInInfer: (p: { flags: readonly string[] }): string => `ignored in infer mode: ${p.flags.join(', ')}`,
  tiedHeadStored: (): string =>
    'the head shares the embedding matrix (tie_word_embeddings): counted once, as loaded; some checkpoints also store lm_head (Qwen3-0.6B: 1,503,264,768 bytes on file against 1,192,099,840 loaded), so the download can be larger',
  kvCacheWithoutMla: (): string =>
    '--kv-cache chooses how multi-head latent attention (DeepSeek-V2/V3) is cached; this model caches keys and values, ignored',
  inferFlagsInTraining: (): string => '--tokens, --weights and --kv-cache apply to --mode infer; ignored for training',
  pipelineStage: (p: { stage: PipelineStage }): string =>
    `pipeline parallel: per-GPU figures are for the ${p.stage} stage, the larger of first and last; the step time and host RAM are the slower and larger stage's`,
  overMargin: (p: { gpu: string; capacityBytes: number; headroom: number; shortfallBytes: number }): string =>
    `fits the ${p.gpu}'s ${formatGiB(p.capacityBytes)} but not the ${p.headroom} % free margin (${formatGiB(p.shortfallBytes)} of it used): it can run, with less room left against fragmentation than advised`,
  doesNotFit: (p: { gpu: string; headroom: number; shortfallBytes: number }): string =>
    `does not fit on the ${p.gpu}: ${formatGiB(p.shortfallBytes)} over, counting the ${p.headroom} % free margin`,
  // A loaded config.json's (config-json.ts).
  textConfigOnly: (p: { modelType: string | undefined }): string =>
    `reads text_config only: the rest of the ${p.modelType ?? 'multimodal'} model (vision tower, projector) is not counted`,
  unknownModelType: (p: { modelType: string | undefined; read: readonly string[]; ignored: readonly string[] }): string =>
    `unknown model_type ${p.modelType === undefined ? '(none given)' : `'${p.modelType}'`}: read as a Llama-style decoder from ${p.read.join(', ')}; ignored ${p.ignored.length === 0 ? 'nothing' : p.ignored.join(', ')}`,
  quantizationNotCounted: (p: { method: string; block: number }): string =>
    `quantization_config ${p.method} is not a stored format the engine counts (fp8 in ${p.block} × ${p.block} blocks, mxfp4): --weights stored is unavailable, choose the format`,
  nextnLayersSkipped: (): string =>
    'the checkpoint also stores multi-token-prediction layers (num_nextn_predict_layers) that Transformers does not load; they are not counted',
  noauxOnDeepseekV2: (): string => 'topk_method noaux_tc on deepseek_v2: its correction bias is counted as DeepSeek-V3 stores it',
  layerTypesOther: (): string =>
    "layer_types lists types other than sliding_attention and full_attention: every layer's KV cache is counted in full, an upper bound",
  layerTypesIrregular: (p: { window: number }): string =>
    `layer_types does not repeat as "every n-th layer global": every layer's KV cache is counted in full (window ${p.window} ignored), an upper bound`,
  // The image and video generation estimate's (diffusion.ts).
  conditioningEncodeUncounted: (): string =>
    'image-to-video: WanImageToVideoPipeline also VAE-encodes the conditioning frames (the image, then blank frames) ' +
    'before denoising; that encode is not counted yet',
  diffusionDoesNotFit: (p: { gpu: string; shortfallBytes: number; phase: DiffusionPhase; headroom: number }): string =>
    `does not fit on the ${p.gpu}: ${formatGiB(p.shortfallBytes)} over at the ${p.phase} phase, counting the ${p.headroom} % free margin`,
};

/** What wording the warnings take: one function per code, with that code's parameters. */
export type WarningWords = WordsOf<typeof WARNING_WORDS>;

/** A warning's stable code. */
export type WarningCode = keyof WarningWords;

/** A warning as data: its code and, where its sentence has any, its parameters. */
export type Notice = CodedSentence<WarningWords>;

/** The sentence of `notice` in `words` (English by default: what the CLI prints). */
export function wordNotice(notice: Notice, words: WarningWords = WARNING_WORDS): string {
  return wordCoded(notice, words);
}
