/** Breakdown lines for one GPU of a training step (one pipeline stage), each with its lifetime in the step. */
import {
  checkpointSegment,
  defaultMlpSegment,
  layerActivationBytes,
  mlpLayerActivationBytes,
  NO_OTHER_LAYERS,
  outsideActivationBytes,
  planRecompute,
  type LayerActivationBytes,
  type LayerActivationShape,
  type OtherLayers,
} from './activations.ts';
import { inferenceActivationBytes, stageWeightBytes } from './inference.ts';
import {
  adapterBytes,
  adapterFactoredShare,
  largestTrainedTensor,
  qloraKeptBytes,
  savedParams,
  type AdapterDtype,
  type ModuleToSave,
  type QloraFormat,
  type QloraKept,
} from './lora.ts';
import { adapterActivationBytes } from './lora-activations.ts';
import { attentionMaskBytes, BATCHING_SOURCES, type Batching } from './batching.ts';
import { FP8_SOURCES, fp8WeightCopyBytes, savedLinearInputBytes } from './fp8.ts';
import { offloadActivations, type ActivationOffload } from './activation-offload.ts';
import { dequantizedWeightBytes, WEIGHT_FORMAT_SPECS } from './weight-formats.ts';
import { matmulWeightParams } from './linear-layers.ts';
import { line, type LineDevice, type MemoryLine } from './lines.ts';
import { lossBytes, lossOwnsHead, type LossKind } from './loss.ts';
import { ARCH_TRAITS, attentionWidths, denseMlpLayers, headWidth, routedMlpWidth, widestMlp, type ModelConfig } from './model.ts';
import { OFFLOADED_GRADIENT_BYTES, offloadPlacement } from './offload.ts';
import {
  adafactorStateShare,
  momentBytesPerParam,
  OPTIMIZER_SPECS,
  optimizerBytesPerParam,
  optimizerStepTemporaryBytes,
} from './optimizer.ts';
import {
  chunksInFlight,
  stageParams,
  stageParamsFromTotal,
  zeroShards,
  type PipelineStage,
  type StageParams,
} from './parallel.ts';
import { countParams, type ParamCounts } from './params.ts';
import { gradientBytes, PRECISION_BYTES, residualBytes } from './precision.ts';
import { aliveAt, lifetime, lineGroup, type GradientLifetime, type LineGroup, type Lifetime, type MomentId } from './timeline.ts';
import type { ResolvedEstimate } from './validate.ts';
import { memo } from './memo.ts';
import type { Attention, Kernels, Recompute } from './activations.ts';
import type { Finetune } from './finetune.ts';
import type { Offload, OffloadDevice } from './offload.ts';
import type { OptimizerImpl, OptimizerKind } from './optimizer.ts';
import type { ZeroStage } from './parallel.ts';
import type { GradDtype, Precision } from './precision.ts';
import { formatCount } from './format.ts';
import { ceilDiv } from './ceil-div.ts';

/** Lines of one training stage plus the numbers the summary needs. */
export interface StageLines {
  /** The moments of the step these lines are alive at. */
  moments: readonly MomentId[];
  /** The lines, in groups (the model's states, its activations, a teacher's). */
  groups: LineGroup[];
  /** Parameters on this GPU before ZeRO sharding. */
  stage: StageParams;
  /** Activation bytes kept per layer for one micro-batch. */
  activationsPerLayer: number;
  /** Bytes of saved activations one micro-batch sends to the host and back (activation offloading; else 0). */
  activationsOffloaded: number;
  /** Parameters on this GPU that receive gradients (before ZeRO sharding). */
  trainable: number;
}

const bitsLabel = (bytes: number) => (bytes === 4 ? 'fp32' : bytes === 2 ? '16-bit' : bytes === 1 ? '8-bit' : `${bytes} B`);

/**
 * The moments of a training step: a later micro-batch's forward only exists with accumulation, and the rebuilding of
 * the first checkpoint segment only with segments of more than one layer (with one layer it is the end of backward).
 */
export function trainingMoments(accumulates: boolean, rebuildsSegments: boolean): readonly MomentId[] {
  return accumulates
    ? rebuildsSegments
      ? ACCUMULATING_SEGMENTED_STEP
      : ACCUMULATING_STEP
    : rebuildsSegments
      ? SEGMENTED_STEP
      : SINGLE_STEP;
}
const SINGLE_STEP: readonly MomentId[] = ['forward', 'backward-start', 'backward-top', 'backward-end', 'optimizer'];
const ACCUMULATING_STEP: readonly MomentId[] = [
  'forward',
  'forward-accumulating',
  'backward-start',
  'backward-top',
  'backward-end',
  'optimizer',
];
const SEGMENTED_STEP: readonly MomentId[] = [
  'forward',
  'backward-start',
  'backward-top',
  'backward-first-segment',
  'backward-end',
  'optimizer',
];
const ACCUMULATING_SEGMENTED_STEP: readonly MomentId[] = [
  'forward',
  'forward-accumulating',
  'backward-start',
  'backward-top',
  'backward-first-segment',
  'backward-end',
  'optimizer',
];

/** The moments of the step `inputs` describe. */
const momentsOf = (inputs: { readonly accumulates: boolean; readonly segment: number }) =>
  trainingMoments(inputs.accumulates, inputs.segment > 1);

/** The forward moments (the first micro-batch's and, with accumulation, a later one's). */
const FORWARD: readonly MomentId[] = ['forward', 'forward-accumulating'];
/** Forward and backward: what a micro-batch's graph holds until backward frees it. */
const GRAPH: readonly MomentId[] = [...FORWARD, 'backward-start', 'backward-top', 'backward-first-segment', 'backward-end'];
/** Inside the layers' backward: from the last layer to the first. */
const LAYERS_BACKWARD: readonly MomentId[] = ['backward-top', 'backward-first-segment', 'backward-end'];
/** While backward holds a whole checkpoint segment rebuilt: the last one, then (with segments of several layers) the first. */
const SEGMENT_REBUILT: readonly MomentId[] = ['backward-top', 'backward-first-segment'];
/** Until the loss gradient: the forward moments and the start of backward. */
const UNTIL_BACKWARD: readonly MomentId[] = [...FORWARD, 'backward-start'];

/**
 * Build the training lines for pipeline stage `stage`; without `words` their labels are left empty (estimateTotals
 * reads only the numbers, and the planner's search builds thousands of groups: npm run bench -- planner).
 */
export function trainingLines(r: ResolvedEstimate, stage: PipelineStage, words: boolean): StageLines {
  const accumulates = r.gradAccum > 1;
  const counts = r.model === null ? null : countParams(r.model);
  const sp = stageParamsOf(r.model, r.paramsOnly, r.tp, r.pp, stage);
  const segment = recomputedSegment(r, sp.layers);
  const moments = trainingMoments(accumulates, segment > 1);
  // Explicit records rather than spreads: they are built for every estimate.
  const states =
    r.lora !== null && r.model !== null && counts !== null
      ? adapterStateGroup({
          model: r.model,
          stage,
          words,
          precision: r.precision,
          optimizer: r.optimizer,
          optimizerImpl: r.optimizerImpl,
          accumulates,
          segment,
          // The GPUs the states are sharded over: all data-parallel ones, or an HSDP shard group.
          dp: r.shardGroup,
          tp: r.tp,
          pp: r.pp,
          zero: r.zero,
          offload: r.offload,
          offloadDevice: r.offloadDevice,
          keepGatheredWeights: r.keepGatheredWeights,
          grads: r.grads,
          optimizerInBackward: r.optimizerInBackward,
          finetune: r.finetune,
          qloraFormat: r.qloraFormat,
          qloraKept: r.qloraKept,
          loraRank: r.lora.rank,
          loraTrainable: r.lora.adapterParams,
          loraDtype: r.loraDtype,
          modulesToSave: r.lora.modulesToSave,
          adapterFactoredShare: r.optimizer === 'adafactor' ? adapterFactoredShare(r.model, r.lora) : 1,
          largestTrainedTensor: largestTrainedTensor(r.model, r.lora),
        })
      : modelStateGroup({
          // The inputs that change most often first (as for the activations below).
          stage,
          accumulates,
          segment,
          words,
          optimizer: r.optimizer,
          optimizerImpl: r.optimizerImpl,
          precision: r.precision,
          zero: r.zero,
          offload: r.offload,
          tp: r.tp,
          pp: r.pp,
          // The GPUs the states are sharded over: all data-parallel ones, or an HSDP shard group.
          dp: r.shardGroup,
          offloadDevice: r.offloadDevice,
          keepGatheredWeights: r.keepGatheredWeights,
          grads: r.grads,
          optimizerInBackward: r.optimizerInBackward,
          model: r.model,
          paramsOnly: r.paramsOnly,
          gradDtype: r.gradDtype,
          fp8AllGather: r.fp8AllGather,
        });
  const groups = [states];
  const castBytes = PRECISION_BYTES[r.precision].castWeights;
  if (r.lora === null && castBytes > 0) {
    // A group of its own: autocast's copies are the only model state that depends on recompute.
    groups.push(
      autocastGroup({
        stage,
        accumulates,
        segment,
        words,
        castBytes,
        zero: r.zero,
        offload: r.offload,
        tp: r.tp,
        pp: r.pp,
        dp: r.shardGroup,
        model: r.model,
        paramsOnly: r.paramsOnly,
      }),
    );
  }
  const copyBytes = fp8WeightCopyBytes(r.fp8);
  if (copyBytes > 0 && r.model !== null && counts !== null) {
    groups.push(lineGroup([fp8WeightCopiesLine(r.model, sp, counts, copyBytes, moments, words)], moments));
  }
  let activationsPerLayer = 0;
  let activationsOffloaded = 0;
  if (r.model !== null) {
    const e = PRECISION_BYTES[r.precision].activation;
    // A LoRA base is loaded in 16 bits (fp32 only with --precision fp32), so the residual stream has its dtype unless
    // prepare_model_for_kbit_training upcast the norms and embeddings of a QLoRA base to fp32 (lora.ts).
    const residual =
      r.lora === null
        ? residualBytes(r.precision)
        : r.finetune === 'qlora'
          ? qloraKeptBytes(r.qloraKept)
          : r.precision === 'fp32'
            ? 4
            : 2;
    const adapters =
      r.lora === null
        ? null
        : adapterActivationBytes(r.model, r.lora, {
            autocast: PRECISION_BYTES[r.precision].castWeights > 0,
            computeBytes: e,
            adapterBytes: adapterBytes(r.loraDtype),
            residualBytes: residual,
            dropout: r.loraDropout,
            // The 16-bit (fp32 under --precision fp32) base, or a dequantized QLoRA one, in another dtype than the adapters'.
            baseCopied: r.finetune === 'qlora' || (r.precision === 'fp32' ? 4 : 2) !== adapterBytes(r.loraDtype),
            tp: r.tp,
          });
    // The inputs that change most often first: a cached entry that differs is told apart at once (memo.ts).
    const activations = activationGroup({
      microBatch: r.microBatch,
      gradAccum: r.gradAccum,
      stage,
      words,
      attention: r.attention,
      recompute: r.recompute,
      // The bytes, not the precision: precisions with the same activation bytes share their lines.
      activationBytes: e,
      residualBytes: residual,
      tp: r.tp,
      pp: r.pp,
      ppVirtual: r.ppVirtual,
      sp: r.sp,
      model: r.model,
      seq: r.seq,
      dropout: r.dropout,
      kernels: r.kernels,
      segment,
      adapterBytesPerToken: adapters === null ? null : adapters.perToken,
      adapterWorkingSet: adapters === null ? 0 : adapters.workingSet,
      // A fused loss runs the head itself and keeps what it needs (loss.ts); a frozen head keeps no input.
      trainsHead: !lossOwnsHead(r.loss) && (r.lora === null || r.lora.modulesToSave.includes('head')),
      loss: r.loss,
      activationOffload: r.activationOffload,
      maskBytes: ARCH_TRAITS[r.model.arch].transformer
        ? attentionMaskBytes(r.batching, r.microBatch, r.seq, r.meanSeq, r.attention, e)
        : 0,
      batching: r.batching,
      meanSeq: r.meanSeq,
      linearInputBytes: savedLinearInputBytes(r.fp8, e),
    });
    groups.push(activations);
    activationsPerLayer = activations.perLayer;
    activationsOffloaded = activations.offloadedPerMicroBatch;
  }
  if (r.teacher !== null) groups.push(lineGroup(teacherLines(r, moments), moments));
  const trainable =
    r.lora === null || counts === null || r.model === null
      ? sp.params
      : loraShare(r.lora.adapterParams, sp, counts) + ceilDiv(savedParams(r.model, r.lora.modulesToSave, stage), r.tp);
  return { moments, groups, stage: sp, activationsPerLayer, activationsOffloaded, trainable };
}

/**
 * Transformer Engine's float8 copies of the Linear weights (data and transpose, fp8.ts `fp8WeightCopyBytes`): each
 * te.Linear quantizes its weight in forward and saves the copy for backward; with `is_first_microbatch=None` (accelerate
 * swaps in te.Linear and passes none) nothing is cached between micro-batches. Every Linear of the stage holds one until
 * backward passes it; the first layer's stays to the end. The stage's share of the model's matmul weights.
 */
function fp8WeightCopiesLine(
  model: ModelConfig,
  sp: StageParams,
  counts: ParamCounts,
  bytesPerParam: number,
  moments: readonly MomentId[],
  words: boolean,
): MemoryLine {
  const linear = Math.round((matmulWeightParams(model) * sp.params) / counts.total);
  const firstLayer = sp.layers === 0 ? 0 : Math.round(linear / sp.layers);
  return line(
    'weights-fp8',
    'weights',
    'gpu',
    words
      ? `FP8 weight copies (data + transpose, ${bytesPerParam} B) × ${formatCount(linear)} Linear params, forward to backward`
      : '',
    lifetime(
      moments,
      [linear * bytesPerParam, [...UNTIL_BACKWARD, 'backward-top']],
      [firstLayer * bytesPerParam, ['backward-first-segment', 'backward-end']],
    ),
    FP8_SOURCES.te,
  );
}

/**
 * Layers per checkpoint segment under full recompute, else 0: `--checkpoint-every`, by default one transformer layer
 * (Hugging Face's `gradient_checkpointing_enable` checkpoints each layer) or round(√L) plain-MLP layers.
 */
function recomputedSegment(r: ResolvedEstimate, layers: number): number {
  if (r.recompute !== 'full' || r.model === null) return 0;
  const transformer = ARCH_TRAITS[r.model.arch].transformer;
  return checkpointSegment(r.checkpointEvery ?? (transformer ? 1 : defaultMlpSegment(layers)), layers);
}

// The memoized builders: each group's lines with their sums (timeline.ts LineGroup). The planner's search finds a
// state group again among the last few it built (it alternates the micro-batch, attention and optimizer below one set
// of states) and an activation group among more (it alternates ZeRO, offload and the optimizer above one micro-batch).
// The activation groups kept: 96, not 32, once renting is compared: the rented GPUs probe micro-batches of their own
// between the repeats, and the 32 last were too few (why: see docs/PERFORMANCE.md § Planner search).
const modelStateGroup = memo(
  (r: FullStateInputs): LineGroup => lineGroup(modelStateLines(r), momentsOf(r)),
  8,
  sameFullStateInputs,
);
const autocastGroup = memo(
  (r: AutocastInputs): LineGroup => {
    const moments = momentsOf(r);
    return lineGroup([autocastCopiesLine(r, moments)], moments);
  },
  8,
  sameAutocastInputs,
);
const adapterStateGroup = memo((r: AdapterStateInputs): LineGroup => lineGroup(adapterStateLines(r), momentsOf(r)), 8);
const activationGroup = memo(
  (r: ActivationInputs): LineGroup & { perLayer: number; offloadedPerMicroBatch: number } => {
    const { lines, perLayer, offloadedPerMicroBatch } = activationLines(r);
    return { ...lineGroup(lines, trainingMoments(r.gradAccum > 1, r.segment > 1)), perLayer, offloadedPerMicroBatch };
  },
  96,
  sameActivationInputs,
);

// The planner's builders' inputs compared field by field (memo.ts), the fields that change most often first.
// tests/unit/memory/memo.test.ts holds each comparison to every field of its inputs.

/** Whether two model-state inputs are the same. */
export function sameFullStateInputs(a: FullStateInputs, b: FullStateInputs): boolean {
  return (
    a.stage === b.stage &&
    a.accumulates === b.accumulates &&
    a.segment === b.segment &&
    a.words === b.words &&
    a.optimizer === b.optimizer &&
    a.optimizerImpl === b.optimizerImpl &&
    a.precision === b.precision &&
    a.offloadDevice === b.offloadDevice &&
    a.keepGatheredWeights === b.keepGatheredWeights &&
    a.grads === b.grads &&
    a.gradDtype === b.gradDtype &&
    a.optimizerInBackward === b.optimizerInBackward &&
    a.fp8AllGather === b.fp8AllGather &&
    sameSharding(a, b)
  );
}

/** Whether two autocast inputs are the same. */
export function sameAutocastInputs(a: AutocastInputs, b: AutocastInputs): boolean {
  return (
    a.stage === b.stage &&
    a.accumulates === b.accumulates &&
    a.segment === b.segment &&
    a.words === b.words &&
    a.castBytes === b.castBytes &&
    sameSharding(a, b)
  );
}

/** What both state builders read of how the states are split and placed, and of which model. */
type Sharding = Pick<FullStateInputs, 'zero' | 'offload' | 'tp' | 'pp' | 'dp' | 'model' | 'paramsOnly'>;

function sameSharding(a: Sharding, b: Sharding): boolean {
  return (
    a.zero === b.zero &&
    a.offload === b.offload &&
    a.tp === b.tp &&
    a.pp === b.pp &&
    a.dp === b.dp &&
    a.model === b.model &&
    a.paramsOnly === b.paramsOnly
  );
}

/** Whether two activation inputs are the same. */
export function sameActivationInputs(a: ActivationInputs, b: ActivationInputs): boolean {
  return (
    a.microBatch === b.microBatch &&
    a.gradAccum === b.gradAccum &&
    a.stage === b.stage &&
    a.words === b.words &&
    a.attention === b.attention &&
    a.recompute === b.recompute &&
    a.activationBytes === b.activationBytes &&
    a.residualBytes === b.residualBytes &&
    a.tp === b.tp &&
    a.pp === b.pp &&
    a.ppVirtual === b.ppVirtual &&
    a.sp === b.sp &&
    a.model === b.model &&
    a.seq === b.seq &&
    a.dropout === b.dropout &&
    a.kernels === b.kernels &&
    a.segment === b.segment &&
    a.adapterBytesPerToken === b.adapterBytesPerToken &&
    a.adapterWorkingSet === b.adapterWorkingSet &&
    a.trainsHead === b.trainsHead &&
    a.loss === b.loss &&
    a.activationOffload === b.activationOffload &&
    a.maskBytes === b.maskBytes &&
    a.batching === b.batching &&
    a.meanSeq === b.meanSeq &&
    a.linearInputBytes === b.linearInputBytes
  );
}

/** Parameters on one GPU of `stage`, from the model's shape or, without one, its parameter count alone. */
function stageParamsOf(
  model: ModelConfig | null,
  paramsOnly: number | null,
  tp: number,
  pp: number,
  stage: PipelineStage,
): StageParams {
  return model === null
    ? stageParamsFromTotal(paramsOnly ?? 0, tp, pp)
    : stageParams(countParams(model), model.layers, tp, pp, stage);
}

/** What every model-state builder reads: the stage, the precision and optimizer, and how the states are split and placed. */
export interface StateInputs {
  readonly stage: PipelineStage;
  /** Whether the lines get their labels (else empty). */
  readonly words: boolean;
  readonly precision: Precision;
  readonly optimizer: OptimizerKind;
  readonly optimizerImpl: OptimizerImpl;
  /** Whether the step accumulates (gradAccum > 1). */
  readonly accumulates: boolean;
  /**
   * Layers per checkpoint segment under full recompute, else 0 (recomputedSegment): with accumulation, the step's
   * moments and the gradients' lifetime depend on nothing more.
   */
  readonly segment: number;
  readonly dp: number;
  readonly tp: number;
  readonly pp: number;
  readonly zero: ZeroStage;
  readonly offload: Offload;
  readonly offloadDevice: OffloadDevice;
  /** ZeRO-3: each unit's gathered weights kept from its forward to its backward (FSDP2 reshard_after_forward=False). */
  readonly keepGatheredWeights: boolean;
  readonly grads: GradientLifetime;
  /** The optimizer step runs in backward, one parameter at a time (torchtune `optimizer_in_bwd`). */
  readonly optimizerInBackward: boolean;
}

/** What the full model's states read (modelStateLines). */
export interface FullStateInputs extends StateInputs {
  readonly model: ModelConfig | null;
  readonly paramsOnly: number | null;
  /** The gradients' dtype: the weights' own, or fp32 buffers (Megatron's main_grad). */
  readonly gradDtype: GradDtype;
  /** ZeRO-3 all-gathers the weights in float8, 1 byte each (torchao `enable_fsdp_float8_all_gather`). */
  readonly fp8AllGather: boolean;
}

/** What autocast's 16-bit weight copies read (autocastCopiesLine). */
export interface AutocastInputs {
  readonly stage: PipelineStage;
  readonly words: boolean;
  readonly accumulates: boolean;
  /** Layers per checkpoint segment under full recompute, else 0 (recomputedSegment). */
  readonly segment: number;
  /** Bytes per weight of the copies (PRECISION_BYTES castWeights), > 0. */
  readonly castBytes: number;
  readonly zero: ZeroStage;
  readonly offload: Offload;
  readonly tp: number;
  readonly pp: number;
  readonly dp: number;
  readonly model: ModelConfig | null;
  readonly paramsOnly: number | null;
}

/** What a LoRA / QLoRA fine-tune's states read (adapterStateLines). */
interface AdapterStateInputs extends StateInputs {
  readonly model: ModelConfig;
  readonly finetune: Finetune;
  /** A QLoRA base's 4-bit format. */
  readonly qloraFormat: QloraFormat;
  /** What a QLoRA base keeps of its other parameters. */
  readonly qloraKept: QloraKept;
  readonly loraRank: number;
  /** Adapter parameters of the whole model (LoraPlan.adapterParams). */
  readonly loraTrainable: number;
  /** The adapters' dtype. */
  readonly loraDtype: AdapterDtype;
  /** The modules trained in full as `modules_to_save` copies. */
  readonly modulesToSave: readonly ModuleToSave[];
  /** Adafactor's state elements per adapter parameter (lora.ts `adapterFactoredShare`); 1 for the other optimizers. */
  readonly adapterFactoredShare: number;
  /** The largest trained tensor, elements (lora.ts `largestTrainedTensor`). */
  readonly largestTrainedTensor: number;
}

/** What the activation lines read (activationLines). */
export interface ActivationInputs {
  readonly model: ModelConfig;
  readonly stage: PipelineStage;
  readonly words: boolean;
  readonly seq: number;
  readonly microBatch: number;
  readonly gradAccum: number;
  /** Bytes per activation element (precision.ts PRECISION_BYTES). */
  readonly activationBytes: number;
  /** Bytes per element of the residual stream (precision.ts residualBytes). */
  readonly residualBytes: number;
  readonly dropout: boolean;
  readonly attention: Attention;
  readonly kernels: Kernels;
  readonly tp: number;
  readonly sp: boolean;
  readonly pp: number;
  /** Model chunks per pipeline stage, v (interleaved 1F1B above 1). */
  readonly ppVirtual: number;
  readonly recompute: Recompute;
  /** Layers per checkpoint segment under full recompute, else 0 (recomputedSegment). */
  readonly segment: number;
  /** Bytes the LoRA adapters keep per token (lora-activations.ts), or null without adapters (every weight trained). */
  readonly adapterBytesPerToken: number | null;
  /** DoRA's transient while one adapted module runs its forward, bytes (0 otherwise). */
  readonly adapterWorkingSet: number;
  /** Whether the output layer is trained outside the loss, so that it keeps its input. */
  readonly trainsHead: boolean;
  /** The loss implementation. */
  readonly loss: LossKind;
  /** What of the saved activations goes to the host. */
  readonly activationOffload: ActivationOffload;
  /** Bytes of the 4-D attention mask one micro-batch materialises (batching.ts attentionMaskBytes), else 0. */
  readonly maskBytes: number;
  /** The batch layout, for the labels. */
  readonly batching: Batching;
  /** Mean real tokens per sequence, for the labels. */
  readonly meanSeq: number;
  /** Bytes per element of each Linear's saved input (fp8.ts `savedLinearInputBytes`). */
  readonly linearInputBytes: number;
}

/** The layout behind the activation label's s: the worst batch every layout is counted at, when not every position is real. */
function worstBatchWords(r: Pick<ActivationInputs, 'batching' | 'meanSeq' | 'seq'>): string {
  if (r.batching === 'padded' && r.meanSeq === r.seq) return '';
  const mean = r.meanSeq === r.seq ? '' : `, mean ${r.meanSeq} real${r.batching === 'packed' ? ' per document' : ''}`;
  return ` (${r.batching}, worst batch${mean})`;
}

/** Adapter parameters on this GPU: the model's adapters in proportion to the stage's share of the model. */
function loraShare(trainableParams: number, sp: StageParams, counts: ParamCounts): number {
  return sp.params === counts.total ? trainableParams : ceilDiv(trainableParams * sp.params, counts.total);
}

/**
 * LoRA / QLoRA: a frozen base (16-bit, or NF4 with double quantization and every other parameter upcast to fp32 by
 * `prepare_model_for_kbit_training`), adapters in `--lora-dtype` with gradients and optimizer moments in the same
 * dtype (lora.ts `adapterBytes`), the `modules_to_save` copies trained in full in the base's dtype, and for QLoRA one
 * layer's weight dequantized to 16 bits at a time in forward and backward.
 */
function adapterStateLines(r: AdapterStateInputs): MemoryLine[] {
  const { model } = r;
  const moments = momentsOf(r);
  const counts = countParams(model);
  const sp = stageParamsOf(model, null, r.tp, r.pp, r.stage);
  const qlora = r.finetune === 'qlora';
  const place = offloadPlacement(r.offload);
  const host: LineDevice = r.offloadDevice;
  const always = (bytes: number) => aliveAt(bytes, moments);
  const adapterElement = adapterBytes(r.loraDtype);
  const adapters = zeroShards(loraShare(r.loraTrainable, sp, counts), r.dp, r.zero);
  // modules_to_save copies: the base's dtype (fp32 for a QLoRA base whose kept parameters were upcast).
  const keptElement = qloraKeptBytes(r.qloraKept);
  const savedElement = qlora ? keptElement : r.precision === 'fp32' ? 4 : 2;
  const saved = zeroShards(ceilDiv(savedParams(model, r.modulesToSave, r.stage), r.tp), r.dp, r.zero);
  const baseShare = r.zero === 3 ? ceilDiv(sp.params, r.dp) : sp.params;
  const baseFormat = qlora ? r.qloraFormat : r.precision === 'fp32' ? 'fp32' : 'bf16';
  const base = stageWeightBytes(model, counts.total, baseShare, baseFormat, qlora ? keptElement : undefined);
  const spec = OPTIMIZER_SPECS[r.optimizer];
  const optimizerMomentBytes = (params: number, element: number, share: number) =>
    Math.ceil(params * momentBytesPerParam(r.optimizer, element, share));
  const savedNote =
    saved.weights > 0 ? ` + modules_to_save ${formatCount(saved.weights)} params (${bitsLabel(savedElement)})` : '';
  // Offloaded parameters (FSDP CPUOffload(offload_params=True), DeepSpeed offload_param) move every parameter, the
  // frozen base and the adapters alike, to the host; each unit comes back to the GPU for its forward and backward.
  const weightDevice: LineDevice = place.weightsOnGpu ? 'gpu' : host;
  const lines: MemoryLine[] = [
    line(
      'weights',
      'weights',
      weightDevice,
      r.words
        ? `Frozen base (${WEIGHT_FORMAT_SPECS[baseFormat].label}${qlora ? `, other parameters ${keptElement === 4 ? 'upcast to fp32' : 'kept in 16 bits'}` : ''}) × ${formatCount(baseShare)} params`
        : '',
      always(base),
      qlora
        ? `${WEIGHT_FORMAT_SPECS[baseFormat].source}; peft prepare_model_for_kbit_training upcasts the rest to fp32 (TRL's SFTTrainer does not call it)`
        : 'LoRA (arXiv 2106.09685): the base is frozen, loaded in 16 bits',
    ),
    line(
      'weights-adapters',
      'weights',
      weightDevice,
      r.words
        ? `LoRA adapters (${bitsLabel(adapterElement)}, rank ${r.loraRank}) × ${formatCount(adapters.weights)} params${savedNote}`
        : '',
      always(adapters.weights * adapterElement + saved.weights * savedElement),
      'peft: lora_A and lora_B in fp32 (autocast_adapter_dtype=True) unless --lora-dtype; ModulesToSaveWrapper trains a copy of each module in its dtype',
    ),
  ];
  const unit = gatheredUnitParams(r, sp, counts, place.weightsOnGpu);
  if (unit > 0) {
    const unitBytes = (params: number) =>
      stageWeightBytes(model, counts.total, params, baseFormat, qlora ? keptElement : undefined);
    lines.push(gatheredUnitLine(r, unit, sp.params, place.weightsOnGpu, unitBytes, moments));
  }
  if (qlora) {
    lines.push(
      line(
        'weights-dequantized',
        'weights',
        'gpu',
        'QLoRA: one layer’s weight dequantized to 16 bits at a time',
        lifetime(moments, [ceilDiv(dequantizedWeightBytes(model, baseFormat), r.tp), GRAPH]),
        'bitsandbytes autograd/_functions.py MatMul4Bit: dequantize_4bit in forward and backward',
      ),
    );
  }
  const gradientBytes = adapters.gradients * adapterElement + saved.gradients * savedElement;
  lines.push(
    line(
      'gradients',
      'gradients',
      place.gradientsOnGpu ? 'gpu' : host,
      r.words
        ? `Adapter gradients (${bitsLabel(adapterElement)}) × ${formatCount(adapters.gradients + saved.gradients)} params`
        : '',
      !place.gradientsOnGpu
        ? always(gradientBytes)
        : r.optimizerInBackward
          ? inBackwardLifetime(r.largestTrainedTensor * Math.max(adapterElement, savedElement), moments)
          : gradientLifetime(r, gradientBytes, moments, 0, 0),
      'A gradient has its parameter’s dtype',
    ),
  );
  const optDevice: LineDevice = place.optimizerOnGpu && !spec.onHost ? 'gpu' : host;
  const stated = adapters.optimizer + saved.optimizer;
  lines.push(
    line(
      'optimizer-moments',
      'optimizer',
      optDevice,
      r.words
        ? `Optimizer moments (${r.optimizer}${spec.paged ? ', paged' : ''}) for the adapters × ${formatCount(stated)} params`
        : '',
      always(
        optimizerMomentBytes(adapters.optimizer, adapterElement, r.adapterFactoredShare) +
          optimizerMomentBytes(saved.optimizer, savedElement, r.adapterFactoredShare),
      ),
      `${spec.source}; no master copy: the adapters are trained in their own dtype`,
    ),
  );
  if (spec.onHost) lines.push(hostCopiesLine(r, stated, 2 * Math.max(adapterElement, savedElement), moments));
  if (place.optimizerOnGpu && !spec.onHost) {
    const element = Math.max(adapterElement, savedElement);
    lines.push(optimizerTemporariesLine(r, stated, r.largestTrainedTensor, element, element, moments));
  }
  return lines;
}

/** Gradients that exist for the whole step: kept by zero_grad(set_to_none=False), DDP's buckets, or DeepSpeed's contiguous buffers. */
function gradientsPersist(r: Pick<StateInputs, 'grads' | 'dp' | 'zero'>): boolean {
  if (r.grads === 'keep') return true;
  // With more than one GPU: DDP (torch/nn/parallel/distributed.py) allocates its buckets once, and DeepSpeed
  // ZeRO-1/2 keep a contiguous gradient partition; FSDP (ZeRO-3) frees sharded gradients as set_to_none says.
  return r.dp > 1 && r.zero < 3;
}

/**
 * Lifetime of a gradient tensor of `bytes`: after backward produced it until zero_grad, or always when it persists.
 * `pendingAtEnd` of them do not exist yet while backward passes the first layer, `pendingAtFirstSegment` while it
 * rebuilds the first checkpoint segment.
 */
function gradientLifetime(
  r: Pick<StateInputs, 'grads' | 'dp' | 'zero' | 'accumulates'>,
  bytes: number,
  moments: readonly MomentId[],
  pendingAtEnd: number,
  pendingAtFirstSegment: number,
): Lifetime {
  if (gradientsPersist(r)) return aliveAt(bytes, moments);
  // With accumulation the worst backward is a later micro-batch's, which starts with the earlier ones' gradients alive
  // (the new ones are added into them); otherwise, while backward passes the first layer, its gradients and the
  // embedding's do not exist yet, and while it rebuilds the first checkpoint segment none of that segment's layers'
  // do (torch/utils/checkpoint.py: the segment's forward is rerun before any of its layers' backward).
  if (r.accumulates)
    return lifetime(moments, [bytes, ['forward-accumulating', 'backward-start', ...LAYERS_BACKWARD, 'optimizer']]);
  return lifetime(
    moments,
    [bytes, ['optimizer']],
    [Math.max(0, bytes - pendingAtEnd), ['backward-end']],
    [Math.max(0, bytes - pendingAtFirstSegment), ['backward-first-segment']],
  );
}

/**
 * What the optimizer step allocates beyond its states (optimizer.ts): at the step, or, with the step in backward, for
 * one parameter at a time while backward runs (torchtune's OptimizerInBackward builds one optimizer per parameter).
 */
function optimizerTemporariesLine(
  r: Pick<StateInputs, 'optimizer' | 'optimizerImpl' | 'words' | 'optimizerInBackward'>,
  params: number,
  largestTensor: number,
  momentBytes: number,
  paramBytes: number,
  moments: readonly MomentId[],
): MemoryLine {
  const bytes = optimizerStepTemporaryBytes({
    optimizer: r.optimizer,
    impl: r.optimizerImpl,
    params: r.optimizerInBackward ? Math.min(params, largestTensor) : params,
    largestTensor,
    momentBytes,
    paramBytes,
  });
  return line(
    'optimizer-temporaries',
    'optimizer',
    'gpu',
    r.words ? `Optimizer step temporaries (${r.optimizerImpl}${r.optimizerInBackward ? ', one parameter in backward' : ''})` : '',
    lifetime(moments, [bytes, r.optimizerInBackward ? LAYERS_BACKWARD : ['optimizer']]),
    'torch/optim/adamw.py: foreach builds sqrt(v) for every parameter at once, for-loop one parameter at a time, fused none; transformers Adafactor.step: fp32 temporaries of one parameter',
  );
}

/**
 * A gradient when the optimizer steps in backward: each parameter's gradient is applied and freed by its
 * post-accumulate-grad hook (torchtune 0.7.0 modules/optim.py OptimizerInBackward `_step_and_clear`), so at most the
 * largest one exists, and only in backward.
 */
function inBackwardLifetime(bytes: number, moments: readonly MomentId[]): Lifetime {
  return lifetime(moments, [bytes, LAYERS_BACKWARD]);
}

/**
 * Gradient bytes not yet produced while backward is inside the stage's first `layers` layers: theirs and, on the first
 * stage, the embedding's.
 */
function pendingGradientBytes(
  r: Pick<StateInputs, 'tp' | 'pp'>,
  sp: StageParams,
  counts: ParamCounts | null,
  shard: number,
  bytes: number,
  layers: number,
): number {
  if (counts === null || sp.params === 0) return 0;
  // A tied head's gradient lands in the token embedding at the start of backward: only the rest of the embeddings wait.
  const tied = counts.head === 0 && counts.tokenEmbedding > 0;
  const waiting = tied ? counts.embeddings - counts.tokenEmbedding : counts.embeddings;
  const embeddings = r.pp === 1 || sp.params !== counts.total ? ceilDiv(waiting, r.tp) : 0;
  return Math.floor(((layers * sp.perLayer + embeddings) * shard) / sp.params) * bytes;
}

/**
 * Parameters of one ZeRO-3 / FSDP gathered unit (a layer, or the largest module when it is larger), 0 when nothing is
 * gathered: with one GPU and the weights on it there is nothing to fetch.
 */
function gatheredUnitParams(
  r: Pick<StateInputs, 'zero' | 'dp' | 'tp'>,
  sp: StageParams,
  counts: ParamCounts | null,
  weightsOnGpu: boolean,
): number {
  if (r.zero !== 3 || (r.dp === 1 && weightsOnGpu) || counts === null) return 0;
  return Math.min(sp.params, Math.max(sp.perLayer, ceilDiv(counts.largestModule, r.tp)));
}

/**
 * The gathered weights on the GPU: the other dp−1 shards of a unit arrive from the other GPUs; its own shard is already
 * counted with the weights unless they live on the host, which sends the whole unit. One unit at a time, or, when the
 * gathered units are kept from forward to backward (FSDP2 `reshard_after_forward=False`), every unit of the stage by
 * the end of the forward, released unit by unit as backward passes.
 */
function gatheredUnitLine(
  r: Pick<StateInputs, 'dp' | 'words' | 'keepGatheredWeights'>,
  unit: number,
  stageParams: number,
  weightsOnGpu: boolean,
  bytesOf: (params: number, of: 'unit' | 'stage') => number,
  moments: readonly MomentId[],
): MemoryLine {
  const fetched = (params: number) => (weightsOnGpu ? params - ceilDiv(params, r.dp) : params);
  const gathered = fetched(unit);
  const from = weightsOnGpu ? 'fetched from other GPUs' : 'copied from the host';
  if (r.keepGatheredWeights) {
    const all = fetched(stageParams);
    return line(
      'weights-gathered',
      'weights',
      'gpu',
      r.words ? `Gathered weights kept from forward to backward: ${formatCount(all)} params ${from}` : '',
      lifetime(
        moments,
        [bytesOf(all, 'stage'), [...UNTIL_BACKWARD, 'backward-top']],
        [bytesOf(gathered, 'unit'), ['backward-end']],
      ),
      'torch ≥ 2.6 distributed/fsdp/_fully_shard/_fully_shard.py fully_shard docstring: reshard_after_forward=False keeps the unsharded parameters after forward and avoids the all-gather in backward',
    );
  }
  return line(
    'weights-gathered',
    'weights',
    'gpu',
    r.words ? `ZeRO-3 gathered unit: ${formatCount(gathered)} of ${formatCount(unit)} params ${from}` : '',
    lifetime(moments, [bytesOf(gathered, 'unit'), GRAPH]),
    weightsOnGpu
      ? 'ZeRO (arXiv 1910.02054 §5.3): parameters are all-gathered one unit at a time for forward and backward'
      : 'ZeRO-Infinity (arXiv 2104.07857 §5); torch FSDP CPUOffload(offload_params=True): each unit is copied to the GPU for its forward and backward',
  );
}

/**
 * Bytes of `params` gathered weights, of one unit or of the whole stage. torchao's float8 all-gather sends the
 * Float8Linear weights, a layer's, as 1-byte float8 data (fp8.ts FP8_SOURCES.allGather; a layer's few norm weights are
 * counted at 1 byte too); the embeddings and the head are not converted and travel in the weights' dtype, so a unit
 * larger than a layer (an embedding) gains nothing.
 */
function gatheredBytesOf(
  r: Pick<FullStateInputs, 'fp8AllGather'>,
  sp: StageParams,
  unit: number,
  weightBytes: number,
): (params: number, of: 'unit' | 'stage') => number {
  if (!r.fp8AllGather) return (params) => params * weightBytes;
  const layerShare = (of: 'unit' | 'stage') =>
    of === 'unit' ? (unit <= sp.perLayer ? 1 : 0) : (sp.layers * sp.perLayer) / sp.params;
  return (params, of) => {
    const layers = Math.round(params * layerShare(of));
    return layers + (params - layers) * weightBytes;
  };
}

/** Weights, gradients and optimizer states after ZeRO and offload, with the optimizer step's temporaries. */
function modelStateLines(r: FullStateInputs): MemoryLine[] {
  const { stage } = r;
  const moments = momentsOf(r);
  const counts = r.model === null ? null : countParams(r.model);
  const sp = stageParamsOf(r.model, r.paramsOnly, r.tp, r.pp, stage);
  const precision = PRECISION_BYTES[r.precision];
  const gradBytes = gradientBytes(r.precision, r.gradDtype);
  const spec = OPTIMIZER_SPECS[r.optimizer];
  const factoredShare = r.optimizer === 'adafactor' && r.model !== null ? adafactorStateShare(r.model) : 1;
  // The largest single tensor: what one parameter's gradient and optimizer step hold at most.
  const largestTensor = counts === null ? sp.params : ceilDiv(counts.largestModule, r.tp);
  const optimizer = optimizerBytesPerParam(r.optimizer, r.precision, factoredShare);
  const shards = zeroShards(sp.params, r.dp, r.zero);
  const place = offloadPlacement(r.offload);
  const host: LineDevice = r.offloadDevice;
  const always = (bytes: number) => aliveAt(bytes, moments);
  const shardNote = (n: number) => (n === sp.params ? `${formatCount(n)} params` : `${formatCount(n)} params (1/${r.dp} shard)`);
  const zeroSource = 'ZeRO (arXiv 1910.02054 §5): stage 1 shards optimizer, 2 gradients, 3 weights';
  const lines: MemoryLine[] = [];
  lines.push(
    line(
      'weights',
      'weights',
      place.weightsOnGpu ? 'gpu' : host,
      r.words ? `Weights (${bitsLabel(precision.weights)}) × ${shardNote(shards.weights)}` : '',
      always(shards.weights * precision.weights),
      r.zero === 3 ? zeroSource : 'Weights at the training precision: 4 bytes fp32, 2 bytes 16-bit',
    ),
  );
  const unit = gatheredUnitParams(r, sp, counts, place.weightsOnGpu);
  if (unit > 0) {
    lines.push(
      gatheredUnitLine(r, unit, sp.params, place.weightsOnGpu, gatheredBytesOf(r, sp, unit, precision.weights), moments),
    );
  }
  if (place.gradientsOnGpu) {
    const bytes = shards.gradients * gradBytes;
    const when = r.optimizerInBackward
      ? 'one parameter’s at a time (optimizer step in backward)'
      : gradientsPersist(r)
        ? 'kept all step'
        : 'from backward to zero_grad';
    lines.push(
      line(
        'gradients',
        'gradients',
        'gpu',
        r.words ? `Gradients (${bitsLabel(gradBytes)}) × ${shardNote(shards.gradients)}, ${when}` : '',
        r.optimizerInBackward
          ? inBackwardLifetime(Math.min(shards.gradients, largestTensor) * gradBytes, moments)
          : gradientLifetime(
              r,
              bytes,
              moments,
              pendingGradientBytes(r, sp, counts, shards.gradients, gradBytes, 1),
              pendingGradientBytes(r, sp, counts, shards.gradients, gradBytes, r.segment),
            ),
        r.zero >= 2
          ? zeroSource
          : r.gradDtype === 'fp32'
            ? GRAD_FP32_SOURCE
            : 'One gradient per weight; zero_grad(set_to_none=True) frees them (torch/optim/optimizer.py), DDP buckets keep them',
      ),
    );
  } else {
    const shard = ceilDiv(sp.params, r.dp);
    lines.push(
      line(
        'gradients',
        'gradients',
        host,
        r.words ? `Gradients (fp32, offloaded) × ${shardNote(shard)}` : '',
        always(shard * OFFLOADED_GRADIENT_BYTES),
        'ZeRO-Offload (arXiv 2101.06840 §4.1): gradients stream to the host for the CPU optimizer step',
      ),
    );
  }
  if (unit > 0 && r.dp > 1) {
    lines.push(
      line(
        'gradients-unsharded',
        'gradients',
        'gpu',
        r.words ? `ZeRO-3 unsharded gradients of one unit (${formatCount(unit)} params) before reduce-scatter` : '',
        lifetime(moments, [unit * gradBytes, LAYERS_BACKWARD]),
        "ZeRO (arXiv 1910.02054 §5.2): each unit's full gradient exists until it is reduce-scattered",
      ),
    );
  }
  const optDevice: LineDevice = place.optimizerOnGpu && !spec.onHost ? 'gpu' : host;
  if (optimizer.master > 0) {
    lines.push(
      line(
        'optimizer-master',
        'optimizer',
        optDevice,
        r.words ? `fp32 master weights × ${shardNote(shards.optimizer)}` : '',
        always(shards.optimizer * optimizer.master),
        'Mixed precision keeps an fp32 master copy (Micikevicius et al. 2017, arXiv 1710.03740)',
      ),
    );
  }
  lines.push(
    line(
      'optimizer-moments',
      'optimizer',
      optDevice,
      r.words
        ? `Optimizer moments (${r.optimizer}: ${formatBytesPerParam(optimizer.moments)} B/param${spec.paged ? ', paged' : ''}) × ${shardNote(shards.optimizer)}, from the first step on`
        : '',
      always(Math.ceil(shards.optimizer * optimizer.moments)),
      spec.source,
    ),
  );
  if (spec.onHost) lines.push(hostCopiesLine(r, shards.optimizer, precision.weights + gradBytes, moments));
  if (place.optimizerOnGpu && !spec.onHost) {
    lines.push(optimizerTemporariesLine(r, shards.optimizer, largestTensor, precision.momentBytes, precision.weights, moments));
  }
  return lines;
}

/** Where fp32 gradient buffers beside 16-bit weights come from, for the gradients line. */
const GRAD_FP32_SOURCE =
  'Megatron-Core 0.20.0 distributed/param_and_grad_buffer.py:924: with grad_reduce_in_fp32 the main_grad buffer is torch.float; gradients accumulate and all-reduce in it';

/** Bytes per parameter as the labels print them: whole numbers as they are, fractions to three decimals. */
function formatBytesPerParam(bytes: number): string {
  return Number.isInteger(bytes) ? String(bytes) : bytes.toFixed(3);
}

/**
 * torchao's CPUOffloadOptimizer keeps a pinned host copy of every parameter and of its gradient beside the host
 * moments (torchao 0.19.0 optim/cpu_offload.py: `p_host = torch.empty_like(p_device, device="cpu", pin_memory=True)`,
 * `p_host.grad = torch.empty_like(p_host, pin_memory=True)`); the GPU keeps its weights and gradients.
 */
function hostCopiesLine(
  r: Pick<StateInputs, 'words'>,
  params: number,
  bytesPerParam: number,
  moments: readonly MomentId[],
): MemoryLine {
  return line(
    'optimizer-host-copies',
    'optimizer',
    'cpu',
    r.words ? `Pinned host copies of the parameters and gradients × ${formatCount(params)} params` : '',
    aliveAt(params * bytesPerParam, moments),
    'torchao 0.19.0 optim/cpu_offload.py CPUOffloadOptimizer: p_host and p_host.grad, pinned',
  );
}

/**
 * Autocast's 16-bit copies of the matmul weights (`cached_cast` in torch's autocast_mode.cpp caches one per weight
 * inside the forward and drops the cache when the autocast region exits; the matmuls save the copies for backward),
 * freed as backward passes. Under full recompute a checkpointed layer saves none: after the forward its copies exist
 * only while it is rebuilt, one segment at a time.
 */
function autocastCopiesLine(r: AutocastInputs, moments: readonly MomentId[]): MemoryLine {
  const { model, stage } = r;
  const sp = stageParamsOf(model, r.paramsOnly, r.tp, r.pp, stage);
  const weightShard = zeroShards(sp.params, r.dp, r.zero).weights;
  const onGpu = offloadPlacement(r.offload).weightsOnGpu;
  const castBytes = r.castBytes;
  if (model === null) {
    // A bare parameter count has no shape to tell matmul weights from the rest: every weight is taken as cast.
    return line(
      'weights-autocast',
      'weights',
      'gpu',
      'Autocast 16-bit weight copies (every weight, no shape given)',
      lifetime(moments, [onGpu ? weightShard * castBytes : 0, UNTIL_BACKWARD]),
      'HF Transformers "Model training anatomy": mixed precision keeps fp32 and 16-bit weights (6 bytes/param)',
    );
  }
  const fraction = weightShard / sp.params;
  const perLayerParams = (matmulWeightParams(model, 'block') + matmulWeightParams(model, 'router')) / model.layers;
  const headParams = stage === 'first' ? 0 : matmulWeightParams(model) - perLayerParams * model.layers;
  const bytesOf = (params: number) => Math.ceil((params / r.tp) * fraction) * castBytes;
  const perLayer = bytesOf(perLayerParams);
  const outside = bytesOf(headParams);
  const all = outside + perLayer * sp.layers;
  const recomputes = r.segment > 0;
  const live: Lifetime = !onGpu
    ? aliveAt(0, moments)
    : recomputes
      ? // The cache holds every copy until the autocast region exits, after the loss; then only the graph's remain: a
        // rebuilt segment's, freed layer by layer as backward passes them.
        lifetime(
          moments,
          [all, FORWARD],
          [outside, ['backward-start']],
          [perLayer * r.segment, SEGMENT_REBUILT],
          [perLayer, ['backward-end']],
        )
      : lifetime(moments, [all, [...UNTIL_BACKWARD, 'backward-top']], [perLayer, ['backward-end']]);
  return line(
    'weights-autocast',
    'weights',
    'gpu',
    r.words
      ? `Autocast 16-bit copies of the matmul weights${recomputes ? ' (checkpointed layers: one segment at a time)' : ', forward until backward'}`
      : '',
    live,
    'torch.amp autocast_mode.cpp cached_cast: one 16-bit copy per weight, saved by the matmuls for backward',
  );
}

/**
 * Activations kept for backward on this stage, the recompute working set, and the loss's transients; with activation
 * offloading, what the layers keep moves to a host line, and the bytes one micro-batch sends there.
 */
function activationLines(r: ActivationInputs): { lines: MemoryLine[]; perLayer: number; offloadedPerMicroBatch: number } {
  const { model, stage } = r;
  const moments = trainingMoments(r.gradAccum > 1, r.segment > 1);
  const sp = stageParamsOf(model, null, r.tp, r.pp, stage);
  const traits = ARCH_TRAITS[model.arch];
  const e = r.activationBytes;
  const residual = r.residualBytes;
  const shapeAt = (mlpWidth: number): LayerActivationShape => ({
    seq: r.seq,
    microBatch: r.microBatch,
    hidden: model.hidden,
    heads: model.heads,
    widths: attentionWidths(model),
    mlpWidth,
    mlp: traits.mlp === 'swiglu' ? 'swiglu' : 'gelu',
    norm: traits.norm === 'rmsnorm' ? 'rmsnorm' : 'layernorm',
    pythonGelu: model.arch === 'gpt2',
    sinks: model.attentionSinks === true,
    dropout: r.dropout,
    attention: r.attention,
    kernels: r.kernels,
    bytesPerElement: e,
    residualBytes: residual,
    tp: r.tp,
    sp: r.sp,
    frozenWeights: r.adapterBytesPerToken !== null,
    linearInputBytes: r.linearInputBytes,
  });
  const layer: LayerActivationBytes = traits.transformer
    ? layerActivationBytes(shapeAt(routedMlpWidth(model)))
    : mlpLayerActivationBytes(r.microBatch, model.hidden, e);
  // A mixture-of-experts model's dense layers come first, so the first stage holds them (as in parallel.ts stageParams).
  const denseLayers = stage === 'last' ? 0 : Math.min(denseMlpLayers(model), sp.layers);
  const dense: OtherLayers =
    denseLayers === 0 || model.moe === undefined
      ? NO_OTHER_LAYERS
      : { layer: layerActivationBytes(shapeAt(model.moe.denseFfn)), count: denseLayers };
  const plan = planRecompute(layer, sp.layers, r.recompute, r.segment, dense);
  // Chunks in flight, each 1/v of the stage's layers: bytes held for all of them are rounded up to a whole byte.
  const chunks = chunksInFlight(r.pp, r.ppVirtual, r.gradAccum, stage);
  const inFlight = (stageBytes: number) => ceilDiv(stageBytes * chunks, r.ppVirtual);
  const outside = outsideActivationBytes({
    seq: r.seq,
    microBatch: r.microBatch,
    hidden: model.hidden,
    bytesPerElement: e,
    residualBytes: residual,
    dropout: r.dropout,
    embeddingNorm: model.arch === 'bert',
    finalNorm: traits.finalNorm,
    transformer: traits.transformer,
    tp: r.tp,
    sp: r.sp,
    trainsHead: r.trainsHead,
  });
  const flight =
    !r.words || chunks === 1
      ? ''
      : r.ppVirtual === 1
        ? ` × ${chunks} micro-batches in flight`
        : ` × ${chunks} chunks of ${sp.layers / r.ppVirtual} layers in flight (interleaved 1F1B)`;
  const what = !r.words ? '' : traits.transformer ? `s=${r.seq}${worstBatchWords(r)}, b=${r.microBatch}` : `b=${r.microBatch}`;
  const first = stage !== 'last';
  const last = stage !== 'first';
  const kept = inFlight(plan.keptForLayers);
  const lines: MemoryLine[] = [];
  const keptLabel = !r.words
    ? ''
    : r.recompute === 'full'
      ? `Checkpointed inputs: ${ceilDiv(sp.layers, plan.segment)} of ${sp.layers} layers (every ${plan.segment}), ${what}${flight}`
      : `Activations: ${sp.layers} layers${denseLayers === 0 ? ' ×' : ` (${denseLayers} with a dense MLP) × up to`} ${formatCount(plan.keptPerLayer)} B (${RECOMPUTE_WORDS[r.recompute]}, ${r.kernels} kernels, ${r.attention} attention, ${what})${flight}`;
  // Backward frees each layer's activations as it passes: in the first layers the first layer's (with its output where
  // its backward reads it) or, under full recompute, the first checkpoint's input remain, with the other in-flight
  // micro-batches'. Under full recompute the last segment's output is freed before that segment is rebuilt: only the
  // layers after it (the head) read the kept copy.
  const firstLayer = r.recompute === 'full' ? layer.input : plan.keptPerLayer + layer.output;
  const keptAtTop = r.recompute === 'full' ? kept - layer.output : kept;
  const offloaded = offloadActivations(r.activationOffload, kept, firstLayer);
  lines.push(
    line(
      'activations-layers',
      'activations',
      'gpu',
      keptLabel,
      r.activationOffload === 'none'
        ? lifetime(
            moments,
            [kept, UNTIL_BACKWARD],
            [keptAtTop, ['backward-top']],
            [firstLayer + ceilDiv(plan.keptForLayers * (chunks - 1), r.ppVirtual), ['backward-first-segment', 'backward-end']],
          )
        : lifetime(moments, [offloaded.onGpu, GRAPH]),
      r.linearInputBytes === e ? layerSource(r, traits.transformer) : `${layerSource(r, traits.transformer)}; ${FP8_SOURCES.te}`,
    ),
  );
  if (r.recompute !== 'none') {
    lines.push(
      line(
        'activations-recompute',
        'activations',
        'gpu',
        !r.words
          ? ''
          : r.recompute === 'full'
            ? `Recompute working set: one segment of ${plan.segment} layer(s) rebuilt in backward`
            : r.recompute === 'op'
              ? 'Recompute working set: what one layer did not save, rebuilt'
              : 'Recompute working set: one layer’s attention core rebuilt',
        lifetime(moments, [plan.workingSet, SEGMENT_REBUILT], [plan.firstLayerWorkingSet, ['backward-end']]),
        r.recompute === 'full'
          ? 'Chen et al. 2016 (arXiv 1604.06174): O(L/k + k) with segments of k layers'
          : r.recompute === 'op'
            ? 'torchtitan parallelize_llama.py (9dec370) _apply_ac_to_transformer_block: op-level selective checkpointing'
            : 'Korthikanti et al. 2022 §5: selective recompute',
      ),
    );
  }
  if (r.maskBytes > 0) {
    // sdpa's backward takes the boolean mask it was given, so it lives until backward ends; eager adds its float mask
    // to the scores, which keeps nothing, and the model's forward drops it on return.
    lines.push(
      line(
        'activations-mask',
        'activations',
        'gpu',
        r.words
          ? `Attention mask: (b, 1, s, s) ${r.attention === 'sdpa' ? 'booleans' : `in ${r.activationBytes}-byte floats`}, one for all layers (${r.batching === 'packed' ? 'block-diagonal over the packed documents' : 'padding'})${flight}`
          : '',
        lifetime(moments, [inFlight(r.maskBytes), r.attention === 'sdpa' ? GRAPH : FORWARD]),
        BATCHING_SOURCES.mask,
      ),
    );
  }
  if (traits.transformer) {
    lines.push(
      line(
        'activations-embedding',
        'activations',
        'gpu',
        r.words ? `Embedding output (dropout mask, norm input)${flight}` : '',
        lifetime(moments, [first ? inFlight(outside.embedding) : 0, GRAPH]),
        'Korthikanti et al. 2022 §4.3: embedding dropout mask sbh',
      ),
    );
    lines.push(
      line(
        'activations-head',
        'activations',
        'gpu',
        'Final-norm and head inputs',
        lifetime(moments, [last ? outside.headInputs : 0, UNTIL_BACKWARD]),
        'Korthikanti et al. 2022 §4.3: inputs of the final norm and output layer',
      ),
    );
  }
  // A classification head's loss reads one pooled row per sequence (transformers GenericForSequenceClassification:
  // logits[arange(b), last_non_pad_token]); its per-position score outputs, s·b·labels, are left out as negligible.
  const loss = lossBytes({
    kind: r.loss,
    positions: (traits.transformer && model.numLabels === undefined ? r.seq : 1) * r.microBatch,
    vocab: headWidth(model),
    hidden: model.hidden,
    logitBytes: e,
    tp: r.tp,
  });
  const words = LOSS_WORDS[r.loss];
  lines.push(
    line(
      'activations-logits',
      'activations',
      'gpu',
      r.words ? `Loss: ${words.kept}` : '',
      lifetime(moments, [last ? loss.kept : 0, UNTIL_BACKWARD]),
      words.source,
    ),
  );
  lines.push(
    line(
      'activations-loss',
      'activations',
      'gpu',
      r.words ? `Loss, for a moment: ${words.transient}` : '',
      lifetime(moments, [last ? loss.forward : 0, FORWARD], [last ? loss.backward : 0, ['backward-start']]),
      words.source,
    ),
  );
  let hostLora = 0;
  if (r.adapterBytesPerToken !== null) {
    // What the adapters keep beside the frozen layers (lora-activations.ts), spread evenly over the layers.
    const perLayer = Math.ceil((r.adapterBytesPerToken * r.seq * r.microBatch) / model.layers);
    const allLora = r.recompute === 'full' ? 0 : inFlight(perLayer * sp.layers);
    // Streamed offloading copies the adapters' saved inputs to the host too; one layer's are on the GPU in transit.
    const streamed = r.activationOffload === 'streamed';
    const keptLora = streamed ? Math.min(allLora, perLayer) : allLora;
    hostLora = streamed ? allLora : 0;
    const rebuilt = r.recompute === 'full' ? perLayer * plan.segment : 0;
    lines.push(
      line(
        'activations-lora',
        'activations',
        'gpu',
        r.words
          ? `LoRA adapters’ saved inputs, ${r.recompute === 'full' ? 'rebuilt with each segment' : `${sp.layers} layers`}`
          : '',
        lifetime(
          moments,
          [keptLora, UNTIL_BACKWARD],
          [perLayer, ['backward-end']],
          [rebuilt, ['backward-first-segment']],
          [keptLora + rebuilt, ['backward-top']],
        ),
        'peft tuners/lora/layer.py Linear.forward: x = self._cast_input_dtype(x, lora_A.weight.dtype); lora_B(lora_A(dropout(x)))',
      ),
    );
    if (r.adapterWorkingSet > 0) {
      lines.push(
        line(
          'activations-dora',
          'activations',
          'gpu',
          'DoRA, for a moment: one module’s B·A through an identity matrix and the weight norm',
          lifetime(moments, [r.adapterWorkingSet, r.recompute === 'full' ? [...FORWARD, ...LAYERS_BACKWARD] : FORWARD]),
          'PEFT 0.20.1.dev0 tuners/lora/dora.py DoraLinearLayer.forward: get_lora_weight (lora_B(lora_A(eye(in)))), the base weight in the adapter dtype and get_weight_norm (weight + scaling·lora_weight)',
        ),
      );
    }
  }
  lines.push(
    line(
      'activations-backward',
      'activations',
      'gpu',
      'Backward working set: one layer’s activation gradients in flight',
      lifetime(moments, [backwardWorkingSet(r, model, denseLayers > 0, e, residual), LAYERS_BACKWARD]),
      traits.transformer
        ? 'This site’s estimate (the residual gradient and the MLP’s widest gradients), held to the PyTorch fixtures'
        : 'The block output’s gradient and ReLU’s (threshold_backward), held to tests/fixtures/pytorch/cpu-mlp-*',
    ),
  );
  const onHost = r.activationOffload === 'none' ? 0 : offloaded.onHost + hostLora;
  if (onHost > 0) lines.push(offloadedActivationsLine(r, onHost, moments));
  return { lines, perLayer: plan.keptPerLayer, offloadedPerMicroBatch: Math.ceil((onHost * r.ppVirtual) / chunks) };
}

/** The saved activations on the host, from the forward that sends them to the backward that brings them back. */
function offloadedActivationsLine(
  r: Pick<ActivationInputs, 'activationOffload' | 'words'>,
  bytes: number,
  moments: readonly MomentId[],
): MemoryLine {
  const streamed = r.activationOffload === 'streamed';
  return line(
    'activations-offloaded',
    'activations',
    'cpu',
    !r.words
      ? ''
      : streamed
        ? 'Saved activations offloaded to the host (pinned), streamed back in backward'
        : 'Checkpointed layer inputs offloaded to the host, brought back as backward rebuilds each segment',
    lifetime(moments, [bytes, GRAPH]),
    streamed
      ? 'torchtune 0.7.0 training/_activation_offloading.py OffloadActivations: saved tensors ≥ 1 KiB to pinned CPU memory, the output head excluded'
      : 'unsloth_zoo gradient_checkpointing.py Unsloth_Offloaded_Gradient_Checkpointer: hidden_states.to("cpu") in forward, back in backward',
  );
}

/** Each loss's lines in words, and their source (loss.ts). */
const LOSS_WORDS: Readonly<Record<LossKind, { kept: string; transient: string; source: string }>> = {
  eager: {
    kept: 'fp32 log-softmax of the logits kept for backward (positions × V × 4 B)',
    transient: 'the logits and their fp32 upcast (forward), two fp32 gradients (backward)',
    source:
      'transformers loss_utils.py ForCausalLMLoss: logits.float() then cross_entropy (Korthikanti et al. 2022 §4.3: 4sbv/t)',
  },
  'vocab-parallel': {
    kept: 'fp32 softmax kept for backward (positions × V × 4 B)',
    transient: 'the 16-bit logits or their gradient beside the fp32 softmax',
    source: 'Megatron-LM tensor_parallel/cross_entropy.py: in-place softmax and gradient',
  },
  'in-place': {
    kept: '16-bit logits and an fp32 logsumexp per position, kept for backward',
    transient: 'nothing: the gradient is written into the logits',
    source: 'unsloth 015bdef kernels/cross_entropy_loss.py Fast_CrossEntropyLoss: save_for_backward(logits, logsumexp, labels)',
  },
  'flash-attn': {
    kept: '16-bit logits and an fp32 lse per position, kept for backward',
    transient: 'the logits’ 16-bit gradient, a new tensor beside them (backward)',
    source:
      'flash-attention 058ad35 flash_attn/ops/triton/cross_entropy.py CrossEntropyLoss: save_for_backward(logits, lse, labels); dlogits = torch.empty_like(logits)',
  },
  chunked: {
    kept: 'fp32 log-softmax of every chunk kept for backward (positions × V × 4 B)',
    transient: 'one chunk of 8: its logits and upcast (forward), its gradients (backward)',
    source: 'torchtune 0.7.0 modules/loss/cross_entropy_loss.py LinearCrossEntropyLoss, num_output_chunks=8',
  },
  'fused-linear': {
    kept: 'the head input’s gradient, computed in forward (positions × h)',
    transient: 'one chunk of tokens’ logits',
    source:
      'Liger-Kernel 0.8.2 ops/fused_linear_cross_entropy.py: grad_input in forward, chunk_size = next_power_of_2(BT / cdiv(V, H))',
  },
  cut: {
    kept: 'the head input and an fp32 log-sum-exp per position',
    transient: 'nothing: logits live in on-chip blocks',
    source: 'apple/ml-cross-entropy 3a79837 cce.py LinearCrossEntropyFunction: save_for_backward(e, c, bias, lse, …)',
  },
};

/** How the kept-activations line names each policy but full recompute (which has a label of its own). */
const RECOMPUTE_WORDS: Readonly<Record<Recompute, string>> = {
  none: 'no recompute',
  selective: 'selective recompute',
  op: 'op-level selective recompute: every other matmul and the attention output saved',
  full: 'full recompute',
};

/** Where the per-layer activation formula comes from, for the line's source. */
function layerSource(r: Pick<ActivationInputs, 'kernels'>, transformer: boolean): string {
  if (!transformer) return 'Plain MLP: each block’s b×h input, and the last block’s output (tests/fixtures/pytorch/cpu-mlp-*)';
  if (r.kernels === 'eager')
    return 'Autograd’s saved tensors for Hugging Face’s modules (activations.ts eagerLayerTerms; tests/fixtures/pytorch)';
  const korthikanti = 'Korthikanti et al. 2022 (arXiv 2205.05198) §4, Table 2: sbh(34 + 5as/h) per layer';
  return r.kernels === 'fused'
    ? korthikanti
    : `${korthikanti}; with flash attention, + 2·sbh for the output llm-foundry 4952183 attention.py flash_attn_fn pads back (bert_padding.pad_input) beside flash-attn’s own`;
}

/**
 * Gradients of one layer's activations while backward passes through it: for a transformer the residual stream's
 * gradient and the branch's (r bytes each per sbh), and the MLP's widest gradients (two f-wide tensors for SwiGLU's
 * gate and up, one for GELU, at the width a token passes through: a routed layer's experts, or a dense layer's MLP
 * when the stage holds one) in the compute dtype, divided by t like the layer's tensor-parallel part; for a plain-MLP
 * block the gradient of its output and ReLU's gradient of the Linear's output (b×h each, in the compute dtype).
 */
function backwardWorkingSet(
  r: Pick<ActivationInputs, 'seq' | 'microBatch' | 'tp'>,
  model: ModelConfig,
  holdsDenseLayers: boolean,
  e: number,
  residual: number,
): number {
  if (!ARCH_TRAITS[model.arch].transformer) return 2 * e * r.microBatch * model.hidden;
  const tokens = r.seq * r.microBatch;
  const wide = ARCH_TRAITS[model.arch].mlp === 'swiglu' ? 2 : 1;
  const mlpWidth = Math.max(routedMlpWidth(model), holdsDenseLayers ? (model.moe?.denseFfn ?? 0) : 0);
  return 2 * residual * tokens * model.hidden + ceilDiv(wide * e * tokens * mlpWidth, r.tp);
}

/** Frozen distillation teacher: weights all step and a forward working set during the student's forward. */
function teacherLines(r: ResolvedEstimate, moments: readonly MomentId[]): MemoryLine[] {
  if (r.teacher === null) return [];
  const t = r.teacher.config;
  const traits = ARCH_TRAITS[t.arch];
  const params = countParams(t).total;
  const e = PRECISION_BYTES[r.precision].activation;
  const seq = traits.transformer ? r.seq : 1;
  return [
    line(
      'teacher-weights',
      'weights',
      'gpu',
      `Teacher ${r.teacher.id} weights (${WEIGHT_FORMAT_SPECS[r.teacherWeights].label}, frozen)`,
      aliveAt(stageWeightBytes(t, params, params, r.teacherWeights), moments),
      'Hinton et al. 2015 (arXiv 1503.02531): teacher runs forward only; no gradients or optimizer states',
    ),
    line(
      'teacher-activations',
      'activations',
      'gpu',
      `Teacher forward working set and its logits (s·b·V × 4 B)`,
      lifetime(moments, [
        inferenceActivationBytes({
          seq,
          batch: r.microBatch,
          hidden: t.hidden,
          heads: t.heads,
          widths: attentionWidths(t),
          mlpWidth: widestMlp(t),
          mlp: traits.mlp,
          transformer: traits.transformer,
          attention: r.attention,
          bytesPerElement: e,
          vocab: t.vocab,
          logitPositions: seq,
          tp: 1,
        }),
        FORWARD,
      ]),
      'Under torch.no_grad() nothing is kept for backward; the soft targets are kept for the loss',
    ),
  ];
}
