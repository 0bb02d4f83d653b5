/**
 * The step timeline: each breakdown line says how many of its bytes are alive at each moment of a step, and
 * the answer is the peak over those moments rather than the sum of every line.
 */
import { LINE_CATEGORIES, type LineCategory, type MemoryLine } from './lines.ts';
import { isByteCount } from '../base/bytes.ts';

/** Phase of a step a moment belongs to. */
export type Phase = 'forward' | 'backward' | 'optimizer' | 'prefill' | 'decode';

/** The moments the engine evaluates. */
export type MomentId =
  | 'forward'
  | 'forward-accumulating'
  | 'backward-start'
  | 'backward-top'
  | 'backward-first-segment'
  | 'backward-end'
  | 'optimizer'
  | 'prefill'
  | 'decode';

/** Phase and plain-words label of each moment. */
export const MOMENTS: Readonly<Record<MomentId, { phase: Phase; label: string }>> = {
  forward: { phase: 'forward', label: 'end of forward: the loss is computed' },
  'forward-accumulating': { phase: 'forward', label: 'a later micro-batch’s forward, gradients alive' },
  'backward-start': {
    phase: 'backward',
    label:
      'start of backward: the loss gradient, every activation still kept (with accumulation, earlier micro-batches’ gradients too)',
  },
  'backward-top': {
    phase: 'backward',
    label: 'backward through the last layer: its activations in use (or rebuilt), their gradients in flight',
  },
  'backward-first-segment': {
    phase: 'backward',
    label: 'backward rebuilds the first checkpoint segment: all its layers’ activations back, their gradients not made yet',
  },
  'backward-end': { phase: 'backward', label: 'end of backward: every gradient, activations freed' },
  optimizer: { phase: 'optimizer', label: 'optimizer step' },
  prefill: { phase: 'prefill', label: 'prefill: the prompt in one forward pass' },
  decode: { phase: 'decode', label: 'decode: one token per step, the KV cache full' },
};

/** Bytes a line holds at each moment of its step, in the step's order (the estimate's `timeline`). */
export type Lifetime = readonly number[];

/**
 * Gradients between optimizer steps. `free`: `optimizer.zero_grad(set_to_none=True)`, PyTorch's default since 2.0
 * (torch/optim/optimizer.py), so no gradient exists during the next forward. `keep`: `set_to_none=False` or a
 * framework's contiguous gradient buffer (DeepSpeed, Megatron-LM), alive through the whole step.
 */
export type GradientLifetime = 'free' | 'keep';

/** Every gradient lifetime. */
export const GRADIENT_LIFETIMES: readonly GradientLifetime[] = ['free', 'keep'];

/** Memory alive at one moment. */
export interface TimelineMoment {
  /** Phase of the step. */
  phase: Phase;
  /** Which moment. */
  moment: MomentId;
  /** Plain-words description. */
  label: string;
  /** Bytes alive on one GPU. */
  bytes: number;
  /** The same bytes by category. */
  byCategory: Record<LineCategory, number>;
}

/**
 * Lines built together (one line builder's output) and what the timeline needs of them, summed once: an estimate adds
 * a few groups' sums instead of every line's lifetime, and the engine shares groups between estimates (memo.ts).
 */
export interface LineGroup {
  readonly lines: readonly MemoryLine[];
  /** GPU bytes alive at each moment of the step, by category: moment-major, in LINE_CATEGORIES' order. */
  readonly gpu: readonly number[];
  /** The GPU lines at their largest, added up. */
  readonly gpuParts: number;
  /** Host RAM and NVMe lines at their largest, added up (per GPU process). */
  readonly cpu: number;
  readonly nvme: number;
  /** Whether every line's size is a byte count the engine may print (src/base/bytes.ts isByteCount); else the estimate is refused. */
  readonly exact: boolean;
}

/** Group `lines`, alive over `moments`. */
export function lineGroup(lines: readonly MemoryLine[], moments: readonly MomentId[]): LineGroup {
  const width = LINE_CATEGORIES.length;
  // A plain array of pushed zeros: small typed arrays cost far more to allocate and collect, and new Array(n).fill(0)
  // makes a holey array, slower to build and fill (why: see docs/PERFORMANCE.md § Planner search).
  const gpu: number[] = [];
  for (let i = moments.length * width; i > 0; i--) gpu.push(0);
  let gpuParts = 0;
  let cpu = 0;
  let nvme = 0;
  let exact = true;
  for (let k = 0; k < lines.length; k++) {
    const l = lines[k] as MemoryLine;
    exact &&= isByteCount(l.bytes);
    if (l.device === 'cpu') cpu += l.bytes;
    else if (l.device === 'nvme') nvme += l.bytes;
    else {
      gpuParts += l.bytes;
      const column = categoryIndex(l.category);
      for (let i = 0; i < moments.length; i++) gpu[i * width + column] = (gpu[i * width + column] ?? 0) + (l.live[i] ?? 0);
    }
  }
  return { lines, gpu, gpuParts, cpu, nvme, exact };
}

/** Bytes alive on one GPU at each of `moments`, by category: the groups' sums added. */
export function evaluateTimeline(groups: readonly LineGroup[], moments: readonly MomentId[]): TimelineMoment[] {
  const sums = addGroups(groups, moments);
  const width = LINE_CATEGORIES.length;
  // Records built field by field: adding into a record by a varying key is a slow keyed access.
  return moments.map((moment, i) => {
    const row = i * width;
    const byCategory: Record<LineCategory, number> = {
      weights: sums[row] ?? 0,
      gradients: sums[row + 1] ?? 0,
      optimizer: sums[row + 2] ?? 0,
      activations: sums[row + 3] ?? 0,
      kvCache: sums[row + 4] ?? 0,
      overhead: sums[row + 5] ?? 0,
    };
    const bytes =
      byCategory.weights +
      byCategory.gradients +
      byCategory.optimizer +
      byCategory.activations +
      byCategory.kvCache +
      byCategory.overhead;
    return { phase: MOMENTS[moment].phase, moment, label: MOMENTS[moment].label, bytes, byCategory };
  });
}

/** What a timeline comes to, without its records: its peak (the first moment of the most bytes) and each category at its largest. */
export interface TimelineTotals {
  /** Index of the peak moment in the step's moments. */
  readonly peakIndex: number;
  /** Bytes alive at the peak. */
  readonly peakBytes: number;
  /** Each category at its largest over the step (at any moment). */
  readonly mostByCategory: Record<LineCategory, number>;
}

/**
 * evaluateTimeline's totals (peakMoment's moment and bytes, each category's largest), from the sums alone: a pipeline
 * estimate weighs two stages and keeps the records of one.
 */
export function timelineTotals(groups: readonly LineGroup[], moments: readonly MomentId[]): TimelineTotals {
  const sums = addGroups(groups, moments);
  const width = LINE_CATEGORIES.length;
  const most: Record<LineCategory, number> = { weights: 0, gradients: 0, optimizer: 0, activations: 0, kvCache: 0, overhead: 0 };
  let peakIndex = 0;
  let peakBytes = -1;
  for (let i = 0; i < moments.length; i++) {
    const row = i * width;
    const weights = sums[row] ?? 0;
    const gradients = sums[row + 1] ?? 0;
    const optimizer = sums[row + 2] ?? 0;
    const activations = sums[row + 3] ?? 0;
    const kvCache = sums[row + 4] ?? 0;
    const overhead = sums[row + 5] ?? 0;
    const bytes = weights + gradients + optimizer + activations + kvCache + overhead;
    if (bytes > peakBytes) {
      peakBytes = bytes;
      peakIndex = i;
    }
    if (weights > most.weights) most.weights = weights;
    if (gradients > most.gradients) most.gradients = gradients;
    if (optimizer > most.optimizer) most.optimizer = optimizer;
    if (activations > most.activations) most.activations = activations;
    if (kvCache > most.kvCache) most.kvCache = kvCache;
    if (overhead > most.overhead) most.overhead = overhead;
  }
  return { peakIndex, peakBytes: Math.max(0, peakBytes), mostByCategory: most };
}

/** The groups' sums added, moment-major, in one buffer reused (read it before the next call). */
function addGroups(groups: readonly LineGroup[], moments: readonly MomentId[]): Float64Array {
  const length = moments.length * LINE_CATEGORIES.length;
  // One buffer reused rather than a new typed array per timeline (a costly allocation, thousands per planner search).
  if (sumsBuffer.length < length) sumsBuffer = new Float64Array(length);
  const sums = sumsBuffer;
  sums.fill(0, 0, length);
  for (let g = 0; g < groups.length; g++) {
    const gpu = (groups[g] as LineGroup).gpu;
    for (let i = 0; i < length; i++) sums[i] = (sums[i] ?? 0) + (gpu[i] ?? 0);
  }
  return sums;
}
let sumsBuffer = new Float64Array(64);

/** Column of a category in a group's sums (LINE_CATEGORIES' order). */
function categoryIndex(category: LineCategory): number {
  switch (category) {
    case 'weights':
      return 0;
    case 'gradients':
      return 1;
    case 'optimizer':
      return 2;
    case 'activations':
      return 3;
    case 'kvCache':
      return 4;
    case 'overhead':
      return 5;
  }
}

/** Bytes alive at each of some moments: one part of a lifetime. */
export type Span = readonly [bytes: number, during: readonly MomentId[]];

/**
 * A lifetime over a step's `moments`: at each, the bytes of the span that names it (spans do not overlap), else 0.
 * An array in the step's order rather than a record by moment: the calculators rebuild every line on each keystroke
 * and the planner runs thousands of estimates per search (npm run bench).
 */
export function lifetime(moments: readonly MomentId[], ...spans: readonly Span[]): Lifetime {
  const live: number[] = [];
  // Index loops: for…of and destructuring here allocated iterators on every line the planner builds.
  for (let m = 0; m < moments.length; m++) {
    const moment = moments[m] as MomentId;
    let bytes = 0;
    for (let s = 0; s < spans.length; s++) {
      const span = spans[s] as Span;
      if (span[1].includes(moment)) {
        bytes = span[0];
        break;
      }
    }
    live.push(bytes);
  }
  return live;
}

/** A lifetime holding `bytes` at every moment of the step. */
export function aliveAt(bytes: number, moments: readonly MomentId[]): Lifetime {
  // Pushed rather than mapped: a map's callback is a call per moment (why: see docs/PERFORMANCE.md § Planner search).
  const live: number[] = [];
  for (let i = 0; i < moments.length; i++) live.push(bytes);
  return live;
}
