/** The entry points: options in, a labelled, sourced memory breakdown out (estimateMemory), or its numbers alone (estimateTotals). */
import { ruleError } from './rule-words.ts';
import type { GpuSpec } from './gpus.ts';
import { inferenceLines } from './inference-lines.ts';
import { line, LINE_CATEGORIES, type MemoryLine } from './lines.ts';
import { countParams } from './params.ts';
import type { FieldError, EstimateOptions, Mode } from './options.ts';
import { CUDA_CONTEXT_BYTES, cublasWorkspaceBytes, headroomBytes } from './overhead.ts';
import { zeroShards, type PipelineStage } from './parallel.ts';
import { adapterBytes } from './lora.ts';
import { momentBytesPerParam, momentCount } from './optimizer.ts';
import { gradientBytes, PRECISION_BYTES } from './precision.ts';
import {
  inferenceTime,
  trainingStepSeconds,
  trainingStepTime,
  type InferenceTimeInput,
  type StepTimeEstimate,
  type TrainingTimeInput,
} from './time.ts';
import { EFFICIENCY_CEILING } from './step-time/compute-efficiency.ts';
import { trainingLines } from './training-lines.ts';
import { batchTokens } from './batching.ts';
import {
  aliveAt,
  evaluateTimeline,
  lineGroup,
  timelineTotals,
  type LineGroup,
  type MomentId,
  type Phase,
  type TimelineMoment,
} from './timeline.ts';
import { memo } from './memo.ts';
import { isByteCount } from '../base/bytes.ts';
import { weightFormatBytes } from './weight-formats.ts';
import { createOptionReader } from './option-reader.ts';
import { resolveEstimateOptions, type ResolvedEstimate } from './validate.ts';
import { ARCH_TRAITS, type ModelConfig } from './model.ts';
import { flagName } from './flag-table.ts';
import { wordNotice, type Notice } from './warnings.ts';

/** Per-GPU totals by category, bytes. */
export interface PerGpuTotals {
  weights: number;
  gradients: number;
  optimizer: number;
  activations: number;
  /** Activation bytes kept per layer for one micro-batch (0 for inference and `params` alone). */
  activationsPerLayer: number;
  kvCache: number;
  overhead: number;
  /** The step's peak: bytes alive at its worst moment, overhead included (excludes the recommended free margin). */
  total: number;
  /** Every GPU line at its largest, added up: the upper bound `total` would be if everything lived at once. */
  sumOfParts: number;
}

/** The estimate. Every size is a safe, non-negative integer number of bytes. */
export interface EstimateResult {
  mode: Mode;
  /** Preset id (with "(modified)" when shape flags override it), or null. */
  modelId: string | null;
  /** Resolved model shape, or null for `params` alone. */
  model: ModelConfig | null;
  /** Total parameters. */
  params: number;
  /** Parameters a token uses (MoE: top-k experts); equals `params` for dense models. */
  activeParams: number;
  /** Parameters that receive gradients (all of them unless a LoRA fine-tune freezes the base). */
  trainableParams: number;
  /** Parameters held by one GPU before ZeRO sharding (tensor/pipeline split applied). */
  paramsPerGpu: number;
  /** Pipeline stage the per-GPU figures describe. */
  stage: PipelineStage;
  /** Every line of the breakdown, GPU and host. */
  lines: MemoryLine[];
  /** Per GPU: each part at its largest during the step, the peak (`total`) and the sum of parts. */
  perGpu: PerGpuTotals;
  /** The phase of the worst moment. */
  peakPhase: Phase;
  /** The worst moment itself. */
  peakMoment: MomentId;
  /** Bytes alive on one GPU at each moment of the step (training) or of generation (inference). */
  timeline: TimelineMoment[];
  /** Host RAM per GPU process (offloaded states); with pipeline stages, the larger stage's. */
  perCpu: { total: number };
  /** NVMe per GPU process (ZeRO-Infinity); with pipeline stages, the larger stage's. */
  perNvme: { total: number };
  /** GPU checked against, or null. */
  gpu: GpuSpec | null;
  /** Recommended free margin against fragmentation, or null without a GPU. */
  headroom: { percent: number; bytes: number } | null;
  /** Whether the peak (perGpu.total) plus the headroom fits the GPU; null without a GPU. */
  fits: boolean | null;
  /**
   * Whether the peak alone fits the GPU's total, the free margin aside; null without a GPU. The margin is advice for
   * planning, not a limit: a configuration that fits the card but not the margin can run, and a published run that ran
   * is judged by this (tests/unit/memory/step-time.published-runs.test.ts).
   */
  fitsCard: boolean | null;
  /** Bytes left after total and headroom (negative values are reported as `shortfall`), or null. */
  spare: number | null;
  /** Bytes missing to fit, or null. */
  shortfall: number | null;
  /** Odd-but-legal input and what to do about it: the English sentences of `notices`. */
  warnings: string[];
  /** The same warnings as data, for a page to word in its language (warnings.ts). */
  notices: Notice[];
  /** Step-time estimate (needs a GPU), or null; with pipeline stages, the slower stage's. */
  stepTime: StepTimeEstimate | null;
  /** The resolved configuration (all defaults filled in). */
  resolved: ResolvedEstimate;
}

/** Outcome of `estimateMemory`. */
export type EstimateOutcome = { ok: true; result: EstimateResult } | { ok: false; errors: FieldError[] };

/** A step's seconds, without the lines that explain them. */
export interface StepSeconds {
  /** The whole step (training: the slower stage's with pipeline stages; inference: prefill and one decoded token). */
  readonly total: number;
  /** Of which compute and recomputation (inference: prefill): what a pipeline bubble is a fraction of. */
  readonly work: number;
  /**
   * The least `work` any micro-batch of the same tokens per step could take: the compute efficiency grows with the
   * tokens per micro-batch (step-time/compute-efficiency.ts) up to its ceiling, or stays at the reader's --mfu.
   */
  readonly leastWork: number;
  /** Of which, data-parallel traffic left exposed, which depends on the micro-batches (0 or more at any other m). */
  readonly dataParallel: number;
  /**
   * Of which, the seconds each micro-batch adds (weights streamed from the host, ZeRO-Infinity; a QLoRA base
   * dequantized for its matmuls; else 0). With m micro-batches a training step's stage takes at least
   * K + leastWork·(1 + (p−1)/m) + m·perMicroBatch for a K that does not depend on m (src/memory/time.ts), which bounds
   * the step at any other m from below.
   */
  readonly perMicroBatch: number;
  /** The m above: micro-batches a step runs (its gradient accumulation). */
  readonly microBatches: number;
}

/**
 * What an estimate comes to, without its report (lines, timeline, words): the same numbers as `estimateMemory`'s, for
 * a caller that runs thousands of estimates and reads only these (the planner's search, npm run bench -- planner).
 */
export interface EstimateTotals {
  /** As EstimateResult's. */
  readonly perGpu: PerGpuTotals;
  readonly perCpu: { readonly total: number };
  readonly perNvme: { readonly total: number };
  readonly headroom: { readonly percent: number; readonly bytes: number } | null;
  readonly fits: boolean | null;
  readonly fitsCard: boolean | null;
  readonly spare: number | null;
  readonly shortfall: number | null;
  /** Step time (needs a GPU), or null. */
  readonly stepSeconds: StepSeconds | null;
}

/** Outcome of `estimateTotals`. */
export type TotalsOutcome = { ok: true; totals: EstimateTotals } | { ok: false; errors: FieldError[] };

/**
 * Estimate the memory of a training step or of inference, per GPU and per host.
 * @example estimateMemory({ model: 'llama-2-7b', zero: 3, dp: 8, gpu: 'a100-80gb' })
 */
export function estimateMemory(options: EstimateOptions = {}): EstimateOutcome {
  const outcome = estimateCore(options, true);
  if (!outcome.ok) return outcome;
  const { r, totals, best, slowest, params, activeParams } = outcome.core;
  const notices = [...outcome.core.notices];
  if (r.mode === 'train' && r.pp > 1) notices.push({ code: 'pipelineStage', params: { stage: best.stage } });
  const timeline = evaluateTimeline(best.groups, best.moments);
  const peak = timeline[best.peakIndex];
  if (peak === undefined) return { ok: false, errors: [ruleError('model', { code: 'nothingToEstimate' })] };
  const gpu = r.gpu;
  if (totals.fits === false && gpu !== null && totals.shortfall !== null) {
    const miss = { gpu: gpu.name, headroom: r.headroom, shortfallBytes: totals.shortfall };
    notices.push(
      totals.fitsCard === true
        ? { code: 'overMargin', params: { ...miss, capacityBytes: gpu.memoryBytes } }
        : { code: 'doesNotFit', params: miss },
    );
  }
  return {
    ok: true,
    result: {
      mode: r.mode,
      modelId: r.modelId,
      model: r.model,
      params,
      activeParams,
      trainableParams: best.trainableParams,
      paramsPerGpu: best.paramsPerGpu,
      stage: best.stage,
      lines: stageLines(best),
      perGpu: totals.perGpu,
      peakPhase: peak.phase,
      peakMoment: peak.moment,
      timeline,
      perCpu: totals.perCpu,
      perNvme: totals.perNvme,
      gpu,
      headroom: totals.headroom,
      fits: totals.fits,
      fitsCard: totals.fitsCard,
      spare: totals.spare,
      shortfall: totals.shortfall,
      warnings: notices.map((notice) => wordNotice(notice)),
      notices,
      stepTime: gpu === null || slowest === null ? null : stepTimeFor(r, gpu, activeParams, slowest),
      resolved: r,
    },
  };
}

/**
 * estimateMemory's numbers alone: the same checks and totals, without building its lines, timeline and words.
 * @example estimateTotals({ model: 'llama-2-7b', zero: 3, dp: 8, gpu: 'a100-80gb' }).ok
 */
export function estimateTotals(options: EstimateOptions = {}): TotalsOutcome {
  const outcome = estimateCore(options, false);
  return outcome.ok ? { ok: true, totals: outcome.core.totals } : outcome;
}

/** A training step's split of each replica's batch: `microBatch` sequences a pass, `gradAccum` passes a step. */
export interface BatchSplit {
  readonly microBatch: number;
  readonly gradAccum: number;
}

/**
 * estimateTotals of `options` with a split of the batch over them, on each of `gpus` (the options' own GPU ignored):
 * one outcome per GPU, in their order. The options are checked once, each split's two counts on their own, and the
 * step is built once for all the GPUs: among the memory lines a GPU changes only the cuBLAS workspace, alive the whole
 * step (overheadGroup), so the peak and each category it falls in move by the same bytes on another GPU; the rest is
 * the headroom, the fit and the step time. The planner estimates several splits of every combination it searches, on
 * the reader's GPUs and those offered for rent at once, and checking the options and building the lines are most of an
 * estimate (why: see docs/PERFORMANCE.md § Planner search). A property test holds every outcome to estimateTotals'.
 * `options` are copied.
 * @example totalsOnGpus({ model: 'gpt2-xl' }, [rtx4090, a100])({ microBatch: 2, gradAccum: 4 })[1]?.ok
 */
export function totalsOnGpus(options: EstimateOptions, gpus: readonly GpuSpec[]): (split: BatchSplit) => TotalsOutcome[] {
  const first = gpus[0];
  if (first === undefined) return () => [];
  const base: EstimateOptions = { ...options, gpu: first.id };
  const resolved = resolveEstimateOptions(base);
  /** Each GPU's outcome by the whole check: the same errors, in the same order, as estimateTotals gives. */
  const each = (split: BatchSplit) => gpus.map((gpu) => estimateTotals({ ...base, ...split, gpu: gpu.id }));
  return (split) => {
    const read = createOptionReader(split);
    const microBatch = read.count('microBatch');
    const gradAccum = read.count('gradAccum');
    if (!resolved.ok || microBatch === undefined || gradAccum === undefined) return each(split);
    const r: ResolvedEstimate = { ...resolved.value, microBatch, gradAccum };
    const outcome = coreOf(r, resolved.notices, () => ({ ...base, ...split }), false);
    if (!outcome.ok) return each(split);
    const core = outcome.core;
    const outcomes: TotalsOutcome[] = [{ ok: true, totals: core.totals }];
    for (let i = 1; i < gpus.length; i++) {
      const gpu = gpus[i] as GpuSpec;
      const totals = totalsOnAnotherGpu(core, gpu);
      outcomes.push(
        totals === null ? (estimateTotals({ ...base, ...split, gpu: gpu.id }) as TotalsOutcome) : { ok: true, totals },
      );
    }
    return outcomes;
  };
}

/** `core`'s totals on `gpu` instead of its own, or null where the shifted sum of parts is no byte count (then ask the engine). */
function totalsOnAnotherGpu(core: EstimateCore, gpu: GpuSpec): EstimateTotals | null {
  const shift = cublasWorkspaceBytes(gpu) - cublasWorkspaceBytes(core.r.gpu);
  const own = core.best.perGpu;
  const perGpu: PerGpuTotals =
    shift === 0
      ? own
      : {
          weights: own.weights,
          gradients: own.gradients,
          optimizer: own.optimizer,
          activations: own.activations,
          kvCache: own.kvCache,
          overhead: own.overhead + shift,
          activationsPerLayer: own.activationsPerLayer,
          total: own.total + shift,
          sumOfParts: own.sumOfParts + shift,
        };
  if (!isByteCount(perGpu.sumOfParts)) return null;
  return totalsOf(core.r, gpu, core.built, perGpu, core.activeParams).totals;
}

/** What both estimateMemory and estimateTotals compute: the stages built, the reported one, and the totals. */
interface EstimateCore {
  readonly r: ResolvedEstimate;
  /** The validator's warnings. */
  readonly notices: readonly Notice[];
  readonly params: number;
  readonly activeParams: number;
  /** Every stage built (a pipeline's first and last, or the one). */
  readonly built: readonly BuiltStage[];
  /** The stage the per-GPU figures describe: the one with the larger peak. */
  readonly best: BuiltStage;
  /** The stage whose step is slower (the step time's), or null without a GPU. */
  readonly slowest: BuiltStage | null;
  readonly totals: EstimateTotals;
}

/** The stages, totals and step seconds of `options`; the lines get their labels only with `words` (the report's). */
function estimateCore(
  options: EstimateOptions,
  words: boolean,
): { ok: true; core: EstimateCore } | { ok: false; errors: FieldError[] } {
  const resolved = resolveEstimateOptions(options);
  if (!resolved.ok) return resolved;
  return coreOf(resolved.value, resolved.notices, () => options, words);
}

/** estimateCore once the options are checked and resolved to `r` (`options` gives them, for an error's field). */
function coreOf(
  r: ResolvedEstimate,
  notices: readonly Notice[],
  options: () => EstimateOptions,
  words: boolean,
): { ok: true; core: EstimateCore } | { ok: false; errors: FieldError[] } {
  const counts = r.model === null ? null : countParams(r.model);
  const params = counts?.total ?? r.paramsOnly ?? 0;
  const activeParams = counts?.active ?? params;
  const stages = r.mode === 'train' && r.pp > 1 ? PIPELINE_STAGES : ONE_STAGE;
  // Index loops, here and below, and no closures: a cold search runs this in V8's interpreter, where each iterator
  // result is an allocation (why: see docs/PERFORMANCE.md § Planner search).
  const built: BuiltStage[] = [];
  let best: BuiltStage | null = null;
  for (let i = 0; i < stages.length; i++) {
    const stage = buildStage(r, stages[i] as PipelineStage, params, words);
    built.push(stage);
    if (best === null || stage.perGpu.total > best.perGpu.total) best = stage;
  }
  if (best === null) return { ok: false, errors: [ruleError('model', { code: 'nothingToEstimate' })] };
  if (!best.exact || !isByteCount(best.perGpu.sumOfParts)) {
    return {
      ok: false,
      errors: [ruleError(largestSizeFlag(options()), { code: 'tooLargeToCount' })],
    };
  }
  const { totals, slowest } = totalsOf(r, r.gpu, built, best.perGpu, activeParams);
  return { ok: true, core: { r, notices, params, activeParams, built, best, slowest, totals } };
}

/**
 * The totals of the stages `built` (from `r`) on `gpu`, the peak stage's figures being `perGpu`; and the stage whose
 * step is slower (the step time's), or null without a GPU.
 */
function totalsOf(
  r: ResolvedEstimate,
  gpu: GpuSpec | null,
  built: readonly BuiltStage[],
  perGpu: PerGpuTotals,
  activeParams: number,
): { totals: EstimateTotals; slowest: BuiltStage | null } {
  const headroom = gpu === null ? null : { percent: r.headroom, bytes: headroomBytes(gpu, r.headroom) };
  const room = gpu === null || headroom === null ? null : gpu.memoryBytes - headroom.bytes - perGpu.total;
  // A pipeline runs at the pace of its slowest stage, and each stage's process needs its own host RAM: time and host
  // figures are the worst stage's, whichever stage has the larger GPU peak.
  let slowest: BuiltStage | null = null;
  let stepSeconds: StepSeconds | null = null;
  let cpu = 0;
  let nvme = 0;
  for (let i = 0; i < built.length; i++) {
    const stage = built[i] as BuiltStage;
    const seconds = gpu === null ? null : stepSecondsFor(r, gpu, activeParams, stage);
    if (seconds !== null && (stepSeconds === null || seconds.total > stepSeconds.total)) {
      stepSeconds = seconds;
      slowest = stage;
    }
    cpu = Math.max(cpu, stage.cpu);
    nvme = Math.max(nvme, stage.nvme);
  }
  const totals: EstimateTotals = {
    perGpu,
    perCpu: { total: cpu },
    perNvme: { total: nvme },
    headroom,
    fits: room === null ? null : room >= 0,
    fitsCard: gpu === null ? null : perGpu.total <= gpu.memoryBytes,
    spare: room === null ? null : Math.max(0, room),
    shortfall: room === null ? null : Math.max(0, -room),
    stepSeconds,
  };
  return { totals, slowest };
}

/** The stages the engine builds: a pipeline's first and last, or the one stage of a step without a pipeline. */
const PIPELINE_STAGES: readonly PipelineStage[] = ['first', 'last'];
const ONE_STAGE: readonly PipelineStage[] = ['only'];

/** The size flag the reader gave the largest value, which an overflow most likely comes from; `model` when none. */
function largestSizeFlag(options: EstimateOptions): string {
  const sizes = (['seq', 'microBatch', 'tokens', 'hidden', 'layers', 'ffn', 'vocab', 'params'] as const)
    .map((key) => ({ key, value: options[key] }))
    .filter((entry): entry is { key: typeof entry.key; value: number } => typeof entry.value === 'number');
  sizes.sort((a, b) => b.value - a.value);
  return sizes[0] === undefined ? 'model' : flagName(sizes[0].key);
}

interface BuiltStage {
  stage: PipelineStage;
  /** The stage's lines, in groups; its lines and timeline are drawn for the stage the estimate reports only. */
  groups: LineGroup[];
  moments: readonly MomentId[];
  perGpu: PerGpuTotals;
  /** Index of the peak moment in `moments`. */
  peakIndex: number;
  paramsPerGpu: number;
  trainableParams: number;
  /** Host RAM and NVMe per GPU process (offloaded states). */
  cpu: number;
  nvme: number;
  /** Trainable parameters on this GPU before ZeRO sharding. */
  trainableParamsPerGpu: number;
  /** Bytes of saved activations one micro-batch sends to the host and back (activation offloading; else 0). */
  activationsOffloaded: number;
  /** Whether every line's size is a byte count the engine may print (LineGroup.exact). */
  exact: boolean;
}

function buildStage(r: ResolvedEstimate, stage: PipelineStage, params: number, words: boolean): BuiltStage {
  const built = r.mode === 'train' ? trainingLines(r, stage, words) : inferenceStage(r);
  const groups = built.groups; // a fresh array per stage: the overhead joins it
  groups.push(sharedOverheadGroup({ gpu: r.gpu, moments: built.moments }));
  let sumOfParts = 0;
  let cpu = 0;
  let nvme = 0;
  let exact = true;
  for (let i = 0; i < groups.length; i++) {
    const group = groups[i] as LineGroup;
    sumOfParts += group.gpuParts;
    cpu += group.cpu;
    nvme += group.nvme;
    exact &&= group.exact;
  }
  const totals = timelineTotals(groups, built.moments);
  const most = totals.mostByCategory;
  // Field by field rather than a spread: this runs for every estimate the planner makes.
  const perGpu: PerGpuTotals = {
    weights: most.weights,
    gradients: most.gradients,
    optimizer: most.optimizer,
    activations: most.activations,
    kvCache: most.kvCache,
    overhead: most.overhead,
    activationsPerLayer: built.activationsPerLayer,
    total: totals.peakBytes,
    sumOfParts,
  };
  return {
    stage,
    groups,
    moments: built.moments,
    perGpu,
    peakIndex: totals.peakIndex,
    cpu,
    nvme,
    paramsPerGpu: built.stage.params,
    trainableParams: r.mode === 'train' ? (r.lora?.trainableParams ?? params) : 0,
    trainableParamsPerGpu: 'trainable' in built ? built.trainable : 0,
    activationsOffloaded: 'activationsOffloaded' in built ? built.activationsOffloaded : 0,
    exact,
  };
}

/** The reported stage's lines by category (LINE_CATEGORIES' order), each category's in the order their groups built them. */
function stageLines(stage: BuiltStage): MemoryLine[] {
  const lines: MemoryLine[] = [];
  for (const group of stage.groups) for (const l of group.lines) lines.push(l);
  // Array.prototype.sort is stable: groups split a category (autocast's copies, a teacher's weights) without moving it.
  return lines.sort((a, b) => LINE_CATEGORIES.indexOf(a.category) - LINE_CATEGORIES.indexOf(b.category));
}

/** Inference's lines as one group (not memoized: the planner does not search inference). */
function inferenceStage(r: ResolvedEstimate) {
  const inference = inferenceLines(r);
  return { ...inference, groups: [lineGroup(inference.lines, inference.moments)], activationsPerLayer: 0 };
}

/** The overhead, shared among estimates on one GPU (a planner search has one, and two step shapes). */
const sharedOverheadGroup = memo(overheadGroup, 4);

/** The process's fixed overhead on one GPU, alive all step. */
function overheadGroup({ gpu, moments }: { gpu: GpuSpec | null; moments: readonly MomentId[] }): LineGroup {
  const lines = [
    line(
      'cuda-context',
      'overhead',
      'gpu',
      'CUDA context (per process)',
      aliveAt(CUDA_CONTEXT_BYTES, moments),
      'PyTorch forums (discuss.pytorch.org/t/73021, /t/81330) and CUDA lazy loading; this site takes 500 MiB',
    ),
    line(
      'cublas-workspace',
      'overhead',
      'gpu',
      'cuBLAS workspace',
      aliveAt(cublasWorkspaceBytes(gpu), moments),
      'PyTorch ATen CUDABlas.cpp (PR #120925): 32 MiB on Hopper+, 4 MiB on ≥24 GiB Ampere, else 1 MiB',
    ),
  ];
  return lineGroup(lines, moments);
}

/** The step time's report for `built`: its lines and words (training or inference). */
function stepTimeFor(r: ResolvedEstimate, gpu: GpuSpec, activeParams: number, built: BuiltStage): StepTimeEstimate {
  return r.mode === 'infer'
    ? inferenceTime(inferenceTimeInput(r, gpu, activeParams, built))
    : trainingStepTime(trainingTimeInput(r, gpu, activeParams, built));
}

/** The step time's numbers for `built`, without its report. */
function stepSecondsFor(r: ResolvedEstimate, gpu: GpuSpec, activeParams: number, built: BuiltStage): StepSeconds {
  if (r.mode === 'infer') {
    const time = inferenceTime(inferenceTimeInput(r, gpu, activeParams, built));
    const work = time.lines[0]?.seconds ?? 0;
    return { total: time.totalSeconds, work, leastWork: work, dataParallel: 0, perMicroBatch: 0, microBatches: r.gradAccum };
  }
  const seconds = trainingStepSeconds(trainingTimeInput(r, gpu, activeParams, built));
  const work = seconds.compute + seconds.recompute + seconds.padding;
  return {
    total: seconds.total,
    work,
    leastWork: r.mfu === null ? (work * seconds.efficiency) / EFFICIENCY_CEILING : work,
    dataParallel: seconds.dataParallel,
    perMicroBatch: seconds.perMicroBatch,
    microBatches: r.gradAccum,
  };
}

function inferenceTimeInput(r: ResolvedEstimate, gpu: GpuSpec, activeParams: number, built: BuiltStage): InferenceTimeInput {
  return {
    gpu,
    activeParams,
    promptTokens: Math.min(r.seq, r.tokens),
    batch: r.microBatch,
    weightBytes: built.perGpu.weights,
    kvCacheBytes: built.perGpu.kvCache,
    hidden: r.model?.hidden ?? 0,
    tp: r.tp,
    pp: r.pp,
  };
}

function trainingTimeInput(r: ResolvedEstimate, gpu: GpuSpec, activeParams: number, built: BuiltStage): TrainingTimeInput {
  const precision = PRECISION_BYTES[r.precision];
  const transformer = r.model !== null && ARCH_TRAITS[r.model.arch].transformer;
  // A LoRA base is stored in 16 bits (fp32 with --precision fp32, as training-lines.ts counts it), a QLoRA base in
  // about half a byte (4-bit weights plus their scales).
  const weightBytes = r.lora === null ? precision.weights : r.finetune === 'qlora' ? 0.5 : r.precision === 'fp32' ? 4 : 2;
  // Named fields rather than a spread of batchTimeInput's: one object of one shape, built for every estimate.
  const batch = batchTimeInput(r, transformer);
  return {
    gpu,
    activeParams,
    layers: transformer ? (r.model?.layers ?? 0) : 0,
    hidden: transformer ? (r.model?.hidden ?? 0) : 0,
    seq: r.seq,
    microBatch: r.microBatch,
    microBatches: r.gradAccum,
    computedPerMicroBatch: batch.computedPerMicroBatch,
    trainedPerMicroBatch: batch.trainedPerMicroBatch,
    attentionSpan: batch.attentionSpan,
    dp: r.dp,
    shardGroup: r.shardGroup,
    tp: r.tp,
    pp: r.pp,
    ppVirtual: r.ppVirtual,
    zero: r.zero,
    recompute: r.recompute,
    stageParams: built.paramsPerGpu,
    gradientParams: built.trainableParamsPerGpu,
    gradientBytes: r.lora !== null ? adapterBytes(r.loraDtype) : gradientBytes(r.precision, r.gradDtype),
    weightBytes,
    offload: r.offload,
    activationOffloadBytes: built.activationsOffloaded,
    keepGatheredWeights: r.keepGatheredWeights,
    optimizer: r.optimizer,
    optimizerImpl: r.optimizerImpl,
    optimizerParams: zeroShards(built.trainableParamsPerGpu, r.shardGroup, r.zero).optimizer,
    // Bytes per moment element the step streams (a factored Adafactor's statistics are few; its traffic is the update's).
    stateBytes:
      momentBytesPerParam(r.optimizer, r.lora !== null ? adapterBytes(r.loraDtype) : precision.momentBytes, 1) /
      Math.max(1, momentCount(r.optimizer)),
    frozenBase: r.lora !== null,
    dequantizedParams: r.finetune === 'qlora' && r.model !== null ? quantizedShare(r.model, built.paramsPerGpu) : 0,
    // A LoRA base the reader keeps in fp32 (--precision fp32, base weights fp32) multiplies in fp32 too.
    fp32Matmuls: r.precision === 'fp32',
    mfu: r.mfu === null ? null : r.mfu / 100,
    fp8Matmuls: r.fp8 !== 'none',
    // torchao's float8 all-gather: every gathered weight counted at 1 byte, the few unconverted ones (embeddings, head)
    // included, so the traffic saved is an upper bound (the memory lines keep them in 16 bits).
    gatheredWeightBytes: r.fp8AllGather ? 1 : weightBytes,
  };
}

/** The positions a micro-batch computes and trains and the attention span (batching.ts); the mlp has no sequence. */
function batchTimeInput(
  r: ResolvedEstimate,
  transformer: boolean,
): Pick<TrainingTimeInput, 'computedPerMicroBatch' | 'trainedPerMicroBatch' | 'attentionSpan'> {
  const t = batchTokens(r.batching, r.microBatch, r.seq, r.meanSeq, r.attention);
  if (!transformer) return { computedPerMicroBatch: t.held, trainedPerMicroBatch: t.held, attentionSpan: r.seq };
  return { computedPerMicroBatch: t.computed, trainedPerMicroBatch: t.trained, attentionSpan: t.attentionSpan };
}

/**
 * Of `stageParams` parameters of `model` on a GPU, those QLoRA stores in NF4 (the block Linear weights, as the memory
 * lines count them), in proportion to the whole model's.
 */
function quantizedShare(model: ModelConfig, stageParams: number): number {
  return Math.round(quantizedFraction({ model }) * stageParams);
}

/** The share of `model`'s parameters NF4 quantizes; the planner asks for it for every QLoRA estimate. */
const quantizedFraction = memo(({ model }: { model: ModelConfig }) => {
  const total = countParams(model).total;
  return total === 0 ? 0 : weightFormatBytes(model, 'nf4-dq').quantizedParams / total;
}, 2);
