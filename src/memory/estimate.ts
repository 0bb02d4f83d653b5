/** The single entry point: options in, a labelled, sourced memory breakdown out. */
import type { GpuSpec } from './gpus.ts';
import { inferenceLines } from './inference-lines.ts';
import { line, type MemoryLine } from './lines.ts';
import { countParams } from './params.ts';
import type { FieldError, EstimateOptions, Mode } from './options.ts';
import { CUDA_CONTEXT_BYTES, cublasWorkspaceBytes, headroomBytes } from './overhead.ts';
import { zeroShards, type PipelineStage } from './parallel.ts';
import { LORA_GRADIENT_BYTES } from './lora.ts';
import { PRECISION_BYTES } from './precision.ts';
import { inferenceTime, trainingStepTime, type StepTimeEstimate } from './time.ts';
import { trainingLines } from './training-lines.ts';
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
import { isByteCount } from './units.ts';
import { resolveEstimateOptions, type ResolvedEstimate } from './validate.ts';
import { ARCH_TRAITS, type ModelConfig } from './model.ts';
import { formatBytes } from './format.ts';
import { flagName } from './flag-table.ts';

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
  /** Bytes left after total and headroom (negative values are reported as `shortfall`), or null. */
  spare: number | null;
  /** Bytes missing to fit, or null. */
  shortfall: number | null;
  /** Odd-but-legal input and what to do about it. */
  warnings: string[];
  /** Step-time estimate (needs a GPU), or null; with pipeline stages, the slower stage's. */
  stepTime: StepTimeEstimate | null;
  /** The resolved configuration (all defaults filled in). */
  resolved: ResolvedEstimate;
}

/** Outcome of `estimateMemory`. */
export type EstimateOutcome = { ok: true; result: EstimateResult } | { ok: false; errors: FieldError[] };

/**
 * Estimate the memory of a training step or of inference, per GPU and per host.
 * @example estimateMemory({ model: 'llama-2-7b', zero: 3, dp: 8, gpu: 'a100-80gb' })
 */
export function estimateMemory(options: EstimateOptions = {}): EstimateOutcome {
  const resolved = resolveEstimateOptions(options);
  if (!resolved.ok) return resolved;
  const r = resolved.value;
  const warnings = [...resolved.warnings];
  const counts = r.model === null ? null : countParams(r.model);
  const params = counts?.total ?? r.paramsOnly ?? 0;
  const activeParams = counts?.active ?? params;
  const stages: PipelineStage[] = r.mode === 'train' && r.pp > 1 ? ['first', 'last'] : ['only'];
  const built = stages.map((stage) => buildStage(r, stage, params));
  let best: BuiltStage | null = null;
  for (const stage of built) if (best === null || stage.perGpu.total > best.perGpu.total) best = stage;
  if (best === null) return { ok: false, errors: [{ field: 'model', message: 'nothing to estimate' }] };
  if (stages.length > 1) {
    warnings.push(
      `pipeline parallel: per-GPU figures are for the ${best.stage} stage, the larger of first and last; the step time and host RAM are the slower and larger stage's`,
    );
  }
  const lines = stageLines(best);
  const bad = lines.find((l) => !isByteCount(l.bytes)) ?? (isByteCount(best.perGpu.sumOfParts) ? undefined : lines[0]);
  if (bad !== undefined) {
    return {
      ok: false,
      errors: [
        {
          field: largestSizeFlag(options),
          message: 'this configuration is too large to count exactly (one part alone would exceed 9 PB); check the sizes',
        },
      ],
    };
  }
  const timeline = evaluateTimeline(best.groups, best.moments);
  const peak = timeline[best.peakIndex];
  if (peak === undefined) return { ok: false, errors: [{ field: 'model', message: 'nothing to estimate' }] };
  const gpu = r.gpu;
  const headroom = gpu === null ? null : { percent: r.headroom, bytes: headroomBytes(gpu, r.headroom) };
  const room = gpu === null || headroom === null ? null : gpu.memoryBytes - headroom.bytes - best.perGpu.total;
  const fits = room === null ? null : room >= 0;
  if (fits === false && gpu !== null && room !== null) {
    warnings.push(`does not fit on the ${gpu.name}: ${formatBytes(-room, 'GiB')} over, counting the ${r.headroom} % free margin`);
  }
  // A pipeline runs at the pace of its slowest stage, and each stage's process needs its own host RAM: time and host
  // figures are the worst stage's, whichever stage has the larger GPU peak.
  let stepTime: StepTimeEstimate | null = null;
  for (const stage of built) {
    const time = gpu === null ? null : stepTimeFor(r, gpu, activeParams, stage);
    if (time !== null && (stepTime === null || time.totalSeconds > stepTime.totalSeconds)) stepTime = time;
  }
  let cpu = 0;
  let nvme = 0;
  for (const stage of built) {
    cpu = Math.max(cpu, stage.cpu);
    nvme = Math.max(nvme, stage.nvme);
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
      lines,
      perGpu: best.perGpu,
      peakPhase: peak.phase,
      peakMoment: peak.moment,
      timeline,
      perCpu: { total: cpu },
      perNvme: { total: nvme },
      gpu,
      headroom,
      fits,
      spare: room === null ? null : Math.max(0, room),
      shortfall: room === null ? null : Math.max(0, -room),
      warnings,
      stepTime,
      resolved: r,
    },
  };
}

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
}

function buildStage(r: ResolvedEstimate, stage: PipelineStage, params: number): BuiltStage {
  const built = r.mode === 'train' ? trainingLines(r, stage) : inferenceStage(r);
  const groups = built.groups; // a fresh array per stage: the overhead joins it
  groups.push(sharedOverheadGroup({ gpu: r.gpu, moments: built.moments }));
  let sumOfParts = 0;
  let cpu = 0;
  let nvme = 0;
  for (const group of groups) {
    sumOfParts += group.gpuParts;
    cpu += group.cpu;
    nvme += group.nvme;
  }
  const totals = timelineTotals(groups, built.moments);
  const perGpu: PerGpuTotals = {
    ...totals.mostByCategory,
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
  };
}

/** The reported stage's lines, in order. */
function stageLines(stage: BuiltStage): MemoryLine[] {
  const lines: MemoryLine[] = [];
  for (const group of stage.groups) for (const l of group.lines) lines.push(l);
  return lines;
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

function stepTimeFor(r: ResolvedEstimate, gpu: GpuSpec, activeParams: number, built: BuiltStage): StepTimeEstimate {
  if (r.mode === 'infer') {
    return inferenceTime({
      gpu,
      activeParams,
      promptTokens: Math.min(r.seq, r.tokens),
      batch: r.microBatch,
      weightBytes: built.perGpu.weights,
      kvCacheBytes: built.perGpu.kvCache,
      tp: r.tp,
      pp: r.pp,
    });
  }
  const precision = PRECISION_BYTES[r.precision];
  const transformer = r.model !== null && ARCH_TRAITS[r.model.arch].transformer;
  return trainingStepTime({
    gpu,
    activeParams,
    layers: transformer ? (r.model?.layers ?? 0) : 0,
    hidden: transformer ? (r.model?.hidden ?? 0) : 0,
    seq: r.seq,
    microBatch: r.microBatch,
    microBatches: r.gradAccum,
    dp: r.dp,
    tp: r.tp,
    pp: r.pp,
    zero: r.zero,
    recompute: r.recompute,
    stageParams: built.paramsPerGpu,
    gradientParams: built.trainableParamsPerGpu,
    gradientBytes: r.lora !== null ? LORA_GRADIENT_BYTES : precision.gradients,
    // A LoRA base is stored in 16 bits, a QLoRA base in about half a byte (4-bit weights plus their scales).
    weightBytes: r.lora === null ? precision.weights : r.finetune === 'qlora' ? 0.5 : 2,
    offload: r.offload,
    optimizer: r.optimizer,
    optimizerImpl: r.optimizerImpl,
    optimizerParams: zeroShards(built.trainableParamsPerGpu, r.dp, r.zero).optimizer,
    stateBytes: r.optimizer === 'adamw-8bit' ? 1 : r.lora !== null ? 4 : precision.momentBytes,
    frozenBase: r.lora !== null,
    // A LoRA base is stored in 16 bits, so its matmuls run in 16 bits whatever the adapters' precision.
    fp32Matmuls: r.precision === 'fp32' && r.lora === null,
  });
}
