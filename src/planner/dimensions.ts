/**
 * The choices the planner makes, one entry per dimension: its values, the lessons each value uses,
 * and the rules that keep a value out of a combination. A new engine option becomes a new entry.
 */
import { estimateTotals, type EstimateOptions, type GpuSpec, type ModelConfig, type Precision } from '../memory/index.ts';
import { GPUS_PER_SERVER } from '../memory/gpus.ts';
import type { LessonSlug } from '../base/lessons.ts';
import type { PlannerWords } from './messages.ts';
import type { PlanRequest } from './request.ts';
import { changesNumerics, searchesLossyNumerics } from './numerics.ts';

/** One value of a dimension. */
export interface Choice {
  /** Short label, as plans list it (e.g. `amp-bf16`, `tp 2 · pp 1 · dp 4`). */
  readonly value: string;
  /** The `estimate` options this value sets. */
  readonly patch: EstimateOptions;
  /** Lessons that explain this value (none for the plain default). */
  readonly lessons: readonly LessonSlug[];
}

/** What the rules and value lists may look at. */
export interface SearchContext {
  readonly request: PlanRequest;
  /** The GPU searched (the reader's, or one offered for rent). */
  readonly gpu: GpuSpec;
  /** GPUs searched. */
  readonly gpus: number;
  /** The resolved model shape. */
  readonly model: ModelConfig;
  /** The words of the choices' labels and of the reasons (messages.ts), in the language that shows them. */
  readonly words: PlannerWords;
}

/** One dimension of the search. */
export interface Dimension {
  /** Stable id, e.g. `precision`. */
  readonly id: string;
  /**
   * `each`: every value is tried. `monotone`: the micro-batch, in an order in which memory never falls
   * except at the last value (no accumulation), which the search checks on its own; it bisects the rest
   * (one such dimension, the last, whose values set `microBatch` and `gradAccum` and nothing else).
   */
  readonly search: 'each' | 'monotone';
  /**
   * The values to try. For `each` dimensions they depend only on the context, so that the size of any subtree of the
   * search is a product of counts; the monotone micro-batch may read the options chosen before it.
   */
  readonly choices: (ctx: SearchContext, options: EstimateOptions) => readonly Choice[];
  /**
   * Whether the engine checks each value alone before the dimensions after it are enumerated, so
   * that a value the model cannot take (heads not divisible by tp) is rejected once, not per combination.
   */
  readonly checkEarly?: boolean;
  /**
   * Why a combination may not use this value of this dimension, or null. It reads only this dimension's options and
   * earlier ones': the search checks it as soon as the value is picked and counts the whole subtree below as ruled out.
   */
  readonly rule?: (options: EstimateOptions, ctx: SearchContext) => string | null;
  /**
   * Another value of this dimension, listed before this one, that everything else the same never needs more GPU memory
   * nor more host RAM at any micro-batch (a property test holds the engine to each such claim), or null. Where that
   * twin fits at no micro-batch, neither does this combination: it is counted, not estimated.
   */
  readonly memoryFloor?: (options: EstimateOptions, ctx: SearchContext) => MemoryFloor | null;
  /**
   * Another value of this dimension that, everything else the same, never needs more memory nor more
   * time at any micro-batch (a property test holds the engine to each such claim), or null. It reads only this
   * dimension's options and earlier ones', and no later dimension's rule reads this one's options: so the search
   * decides it as soon as the value is picked, and where the twin passes the rules so far, the whole subtree is
   * counted, not estimated (its twins are searched and never worse).
   */
  readonly dominatedBy?: (options: EstimateOptions, ctx: SearchContext) => Dominance | null;
}

/** A twin value (its label) that never needs more memory, and what to say of a combination that its failure rules out. */
export interface MemoryFloor {
  readonly value: string;
  readonly reason: string;
}

/** A twin that is never worse, and why, in words. */
export interface Dominance {
  /** The options that turn the combination into its twin. */
  readonly patch: EstimateOptions;
  /** Why the combination is not estimated. */
  readonly reason: string;
}

/**
 * Whether eager attention keeps more activation bytes per layer than SDPA at every micro-batch, everything else as
 * in `options`. The engine's per-layer bytes are three terms, each linear in the micro-batch b before its ceiling
 * division by the tensor-parallel degree t (src/memory/activations.ts `layerActivationBytes`), and the layer input,
 * which the attention kernel does not change. So if eager keeps at least 6 bytes more at b = 1, it keeps more than
 * 3 more before rounding, and so more at every b; every activation line (kept layers, in-flight micro-batches, the
 * recompute working set) grows with the per-layer bytes. The property test in
 * tests/unit/planner/dimensions.pruning.test.ts holds every dominance rule against the engine at every micro-batch. Two
 * estimates per layer shape in a request.
 */
function eagerKeepsMore(options: EstimateOptions, ctx: SearchContext): boolean {
  let cache = eagerKeepsMoreCache.get(ctx.request);
  if (cache === undefined) {
    // Within one request's searches only the dimensions' values change: the answer is cached on those that shape a
    // layer, for every set of GPUs searched (a layer's activations do not depend on the GPU).
    const varying = DIMENSIONS.flatMap((d) =>
      d.search === 'each' ? d.choices(ctx, {}).flatMap((c) => Object.keys(c.patch)) : [],
    );
    const keys = [...new Set(varying)].filter((key) => !OUTSIDE_LAYER_SHAPE.has(key)) as (keyof EstimateOptions)[];
    cache = { keys, answers: new Map() };
    eagerKeepsMoreCache.set(ctx.request, cache);
  }
  const key = cache.keys.map((k) => String(options[k])).join('|');
  const cached = cache.answers.get(key);
  if (cached !== undefined) return cached;
  const shape = Object.fromEntries(Object.entries(options).filter(([k]) => !OUTSIDE_LAYER_SHAPE.has(k))) as EstimateOptions;
  const perLayer = (attention: 'eager' | 'sdpa') => {
    const outcome = estimateTotals({ ...shape, microBatch: 1, gradAccum: 1, recompute: 'none', attention });
    return outcome.ok ? outcome.totals.perGpu.activationsPerLayer : null;
  };
  const eager = perLayer('eager');
  const sdpa = perLayer('sdpa');
  const answer = eager !== null && sdpa !== null && eager - sdpa >= 6;
  cache.answers.set(key, answer);
  return answer;
}
const eagerKeepsMoreCache = new WeakMap<PlanRequest, { keys: (keyof EstimateOptions)[]; answers: Map<string, boolean> }>();
/** Options a layer's activation bytes do not depend on (the probe sets the micro-batch, recompute and attention itself). */
const OUTSIDE_LAYER_SHAPE: ReadonlySet<string> = new Set([
  'microBatch',
  'gradAccum',
  'recompute',
  'attention',
  'zero',
  'offload',
  'optimizer',
  'optimizerImpl',
  'dp',
  'pp',
]);

const microBatchChoices = new WeakMap<SearchContext, Map<number, readonly Choice[]>>();

/** Divisors of n, ascending. */
export function divisors(n: number): number[] {
  const small: number[] = [];
  const large: number[] = [];
  for (let d = 1; d * d <= n; d++) {
    if (n % d !== 0) continue;
    small.push(d);
    if (d * d !== n) large.unshift(n / d);
  }
  return [...small, ...large];
}

const choice = (value: string, patch: EstimateOptions, lessons: readonly LessonSlug[] = []): Choice => ({
  value,
  patch,
  lessons,
});
/** The twins and floors in one language's words. */
interface TwinsAndFloors {
  readonly sdpaTwin: Dominance;
  readonly fusedTwin: Dominance;
  readonly eightBitFloor: MemoryFloor;
  readonly optimizerOffloadFloor: MemoryFloor;
  readonly weightsOffloadFloor: MemoryFloor;
  readonly fullRecomputeFloor: MemoryFloor;
  readonly bf16Floor: MemoryFloor;
}
// The twins and floors, made once per language: the search asks for them at every combination.
const twinsAndFloorsCache = new WeakMap<PlannerWords, TwinsAndFloors>();
function twinsAndFloors(words: PlannerWords): TwinsAndFloors {
  let made = twinsAndFloorsCache.get(words);
  if (made === undefined) {
    const { choices, dominance } = words;
    made = {
      sdpaTwin: { patch: { attention: 'sdpa' }, reason: dominance.sdpa },
      fusedTwin: { patch: { optimizerImpl: 'fused' }, reason: dominance.fused },
      eightBitFloor: { value: choices.adamw8bit, reason: dominance.eightBitFloor },
      optimizerOffloadFloor: { value: choices.offloadOptimizer, reason: dominance.offloadFloor },
      weightsOffloadFloor: { value: choices.offloadWeights, reason: dominance.offloadFloor },
      fullRecomputeFloor: { value: choices.fullRecompute, reason: dominance.recomputeFloor },
      bf16Floor: { value: 'bf16', reason: dominance.bf16Floor },
    };
    twinsAndFloorsCache.set(words, made);
  }
  return made;
}
const BF16_PRECISIONS: readonly Precision[] = ['amp-bf16', 'mixed-bf16', 'bf16'];
const FP16_PRECISIONS: readonly Precision[] = ['amp-fp16', 'mixed-fp16'];
const dataParallel = (o: EstimateOptions) => o.dp ?? 1;

/**
 * Largest tensor-parallel degree tried: tensor parallelism stays inside one 8-GPU server, pipeline
 * parallelism goes across (Narayanan et al. 2021, arXiv 2104.04473, takeaway #1).
 */
export const MAX_TENSOR_PARALLEL = GPUS_PER_SERVER;

/**
 * Whether a tensor-parallel group of `tp` GPUs fits the hardware and the model (issue #31 item 5). It stays inside one
 * server: tp divides GPUS_PER_SERVER, so that groups tile the servers and none crosses the network at NVLink's price
 * (Narayanan et al. 2021, arXiv 2104.04473, takeaway #1; a degree of 6 on 8-GPU servers would split a group). Each GPU
 * holds whole attention heads and whole KV heads: Megatron-core's attention asserts `num_attention_heads % tp == 0`
 * and `num_query_groups % tp == 0` (megatron/core/transformer/attention.py). An `mlp` model has no heads.
 */
export function tensorParallelFits(tp: number, model: Pick<ModelConfig, 'arch' | 'heads' | 'kvHeads'>): boolean {
  if (tp > MAX_TENSOR_PARALLEL || GPUS_PER_SERVER % tp !== 0) return false;
  return model.arch === 'mlp' || (model.heads % tp === 0 && model.kvHeads % tp === 0);
}

/**
 * Every dimension, in search order; the monotone micro-batch comes last because it needs the data-parallel degree.
 * The order lets every rule and every twin read only earlier dimensions (what is trained before ZeRO, whose twin reads
 * it; offload before ZeRO, whose rules read it; recompute before attention, whose twin reads it), so that the search
 * decides each as soon as its value is picked (tests/unit/planner/dimensions.pruning.test.ts holds the order).
 * Not searched, left at the engine's defaults: `grads` (`keep` holds the gradients between steps, which never
 * needs less memory and the engine's time does not depend on it) and `kernels` (`fused` means Megatron-style
 * kernels, another training code base rather than a setting of the reader's PyTorch / Transformers code).
 */
export const DIMENSIONS: readonly Dimension[] = [
  {
    id: 'layout',
    search: 'each',
    checkEarly: true,
    // Every split of the GPUs into tensor × pipeline × data parallel degrees whose tensor-parallel degree the hardware
    // and the model can take (tensorParallelFits); the engine rejects degrees the layers cannot take.
    choices: (ctx) =>
      divisors(ctx.gpus)
        .filter((tp) => tensorParallelFits(tp, ctx.model))
        .flatMap((tp) =>
          divisors(ctx.gpus / tp).map((pp) => {
            const dp = ctx.gpus / (tp * pp);
            // With tensor parallelism, sequence parallelism replaces each all-reduce by a reduce-scatter and
            // an all-gather of the same volume (Korthikanti et al. 2022, arXiv 2205.05198 §4.2.2): it saves
            // activation memory for no extra communication, so it is always on with tp > 1.
            const patch: EstimateOptions = tp > 1 ? { tp, pp, dp, sp: true } : { tp, pp, dp };
            return choice(
              ctx.gpus === 1 ? ctx.words.choices.oneGpu : ctx.words.choices.layout(tp, pp, dp),
              patch,
              ctx.gpus > 1 ? ['parallelism'] : [],
            );
          }),
        ),
    rule: (o, ctx) =>
      ctx.request.globalBatch % dataParallel(o) === 0
        ? null
        : ctx.words.rules.unevenBatch(ctx.request.globalBatch, dataParallel(o)),
  },
  {
    id: 'finetune',
    search: 'each',
    // Only fine-tuning may train adapters instead of the weights: LoRA and QLoRA change what is trained.
    // Rank and targets stay at the engine's defaults, r = 16 on every Linear layer (PEFT's
    // `target_modules="all-linear"`), as common recipes set them; they are not searched.
    choices: (ctx) =>
      ctx.request.task !== 'finetune'
        ? [choice(ctx.words.choices.everyWeight, {})]
        : [
            choice(ctx.words.choices.everyWeight, {}),
            choice(ctx.words.choices.lora, { finetune: 'lora' }, ['lora-and-qlora']),
            choice(ctx.words.choices.qlora, { finetune: 'qlora' }, ['lora-and-qlora']),
          ],
  },
  {
    id: 'offload',
    search: 'each',
    choices: (ctx) => [
      choice(ctx.words.choices.offloadWeights, { offload: 'optimizer+params' }, ['offload']),
      choice(ctx.words.choices.offloadOptimizer, { offload: 'optimizer' }, ['offload']),
      choice(ctx.words.choices.noOffload, { offload: 'none' }),
    ],
    // Offloading more never needs more GPU memory, but needs more host RAM: without a host limit the GPU alone decides
    // the fit, and where the combination with more offloaded fits nowhere, this one does not fit either.
    memoryFloor: (o, ctx) =>
      ctx.request.maxHostBytes !== null
        ? null
        : o.offload === 'none'
          ? twinsAndFloors(ctx.words).optimizerOffloadFloor
          : o.offload === 'optimizer'
            ? twinsAndFloors(ctx.words).weightsOffloadFloor
            : null,
  },
  {
    id: 'zero',
    search: 'each',
    choices: (ctx) => [
      choice(ctx.gpus === 1 ? ctx.words.choices.noZero : ctx.words.choices.zero0, { zero: 0 }),
      choice(ctx.words.choices.zero1, { zero: 1 }, ['parallelism']),
      choice(ctx.words.choices.zero2, { zero: 2 }, ['parallelism']),
      choice(ctx.words.choices.zero3, { zero: 3 }, ['parallelism']),
    ],
    // No twin: ZeRO-2 holds only a shard of the gradients, so under accumulation it reduce-scatters in every
    // micro-batch where ZeRO-0/1 reduce once per step (src/memory/time.ts): ZeRO-0 and ZeRO-1 can be faster.
    // The engine's own rules (src/memory/validate.ts), checked here so that no estimate is spent on them, and ZeRO's
    // reason to exist on one GPU.
    rule: (o, ctx) =>
      o.offload === 'optimizer+params' && o.zero !== 3
        ? ctx.words.rules.weightsOffloadNeedsZero3
        : o.offload === 'optimizer' && (o.zero ?? 0) === 0
          ? ctx.words.rules.optimizerOffloadNeedsZero
          : (o.zero ?? 0) > 0 && dataParallel(o) === 1 && (o.offload ?? 'none') === 'none'
            ? ctx.words.rules.zeroOnOneGpu
            : null,
  },
  {
    id: 'precision',
    search: 'each',
    // Pure bf16 first, the others' memory floor; mixed bf16 next to it, whose activation lines are the same. Pure bf16
    // changes the training numerics: pretraining searches it only when allowed (numerics.ts).
    choices: (ctx) =>
      (['bf16', 'mixed-bf16', 'amp-bf16', 'mixed-fp16', 'amp-fp16', 'fp32'] as const)
        .filter((p) => searchesLossyNumerics(ctx.request) || !changesNumerics({ precision: p }))
        .map((p) => choice(p, { precision: p }, p === 'fp32' ? [] : ['mixed-precision'])),
    // Pure bf16 keeps every part in as few bytes as any other precision or fewer (weights, gradients and Adam's states in
    // 16 bits, no fp32 master copy, no autocast copies, a 16-bit residual stream: src/memory/precision.ts), on the GPU
    // and, offloaded, on the host: where it fits nowhere, no other precision fits. Only on GPUs with bf16, and not for
    // LoRA/QLoRA: without autocast, PEFT's fp32 adapters compute in fp32 and keep fp32 inputs (src/memory/lora-activations.ts).
    memoryFloor: (o, ctx) =>
      ctx.gpu.bf16 && o.precision !== 'bf16' && (o.finetune ?? 'full') === 'full' && searchesLossyNumerics(ctx.request)
        ? twinsAndFloors(ctx.words).bf16Floor
        : null,
    rule: (o, ctx) => {
      const precision = o.precision ?? 'fp32';
      if (ctx.gpu.bf16 && FP16_PRECISIONS.includes(precision)) {
        return ctx.words.rules.fp16WithBf16(ctx.gpu.name);
      }
      if (!ctx.gpu.bf16 && BF16_PRECISIONS.includes(precision)) return ctx.words.rules.noBf16(ctx.gpu.name);
      return null;
    },
  },
  {
    id: 'recompute',
    search: 'each',
    choices: (ctx) => [
      choice(ctx.words.choices.fullRecompute, { recompute: 'full' }, ['gradient-checkpointing']),
      choice(ctx.words.choices.selectiveRecompute, { recompute: 'selective' }, ['gradient-checkpointing']),
      choice(ctx.words.choices.noRecompute, { recompute: 'none' }),
    ],
    // A transformer layer's checkpoint is its input, one of the tensors it keeps, and the segment rebuilt in backward
    // shares that input (src/memory/activations.ts planRecompute): full recompute never keeps more than selective or
    // none, on the GPU, and the host holds no activations. (An mlp block's checkpoint is all it keeps: not there.)
    memoryFloor: (o, ctx) =>
      o.recompute !== 'full' && ctx.model.arch !== 'mlp' ? twinsAndFloors(ctx.words).fullRecomputeFloor : null,
    rule: (o, ctx) => (o.recompute === 'selective' && ctx.model.arch === 'mlp' ? ctx.words.rules.selectiveOnMlp : null),
  },
  {
    id: 'attention',
    search: 'each',
    choices: (ctx) => [
      choice(ctx.words.choices.eager, { attention: 'eager' }),
      choice(ctx.words.choices.sdpa, { attention: 'sdpa' }, ['mixed-precision']),
    ],
    rule: (o, ctx) =>
      o.attention === 'eager' && ctx.model.arch === 'mlp'
        ? ctx.words.rules.noAttentionInMlp
        : o.attention === 'sdpa' && o.recompute === 'selective'
          ? ctx.words.rules.selectiveWithSdpa
          : null,
    // The engine's step time does not depend on the attention kernel (the FLOPs are the same), so eager is worse
    // wherever it keeps more: SDPA keeps no s×s scores but saves its output and softmax statistics, so only at
    // short sequences can eager keep less. Selective recompute with eager has no SDPA twin (SDPA has no scores to drop).
    dominatedBy: (o, ctx) =>
      o.attention === 'eager' && o.recompute !== 'selective' && eagerKeepsMore(o, ctx)
        ? twinsAndFloors(ctx.words).sdpaTwin
        : null,
  },
  {
    id: 'optimizer',
    search: 'each',
    // AdamW's update rule is kept: SGD would change the training, not only its memory. torch.optim's AdamW has three
    // implementations (PyTorch docs, torch.optim "Algorithms"); bitsandbytes' 8-bit AdamW is its own kernel, so it
    // takes only the engine's default. 8-bit AdamW changes the training numerics: pretraining searches it only when
    // allowed (numerics.ts).
    choices: (ctx) => [
      ...(searchesLossyNumerics(ctx.request)
        ? [choice(ctx.words.choices.adamw8bit, { optimizer: 'adamw-8bit' }, ['lora-and-qlora'])]
        : []),
      choice(ctx.words.choices.fused, { optimizer: 'adamw', optimizerImpl: 'fused' }, [
        'where-the-memory-goes',
        'putting-it-together',
      ]),
      choice(ctx.words.choices.foreach, { optimizer: 'adamw', optimizerImpl: 'foreach' }, ['where-the-memory-goes']),
      choice(ctx.words.choices.forLoop, { optimizer: 'adamw', optimizerImpl: 'for-loop' }, ['where-the-memory-goes']),
    ],
    // 8-bit AdamW keeps the same states as AdamW in fewer bytes (1 byte per moment against 2 or 4, src/memory/optimizer.ts)
    // and allocates no temporaries, on the GPU or, offloaded, on the host: where it fits nowhere, AdamW does not fit.
    memoryFloor: (o, ctx) =>
      o.optimizer === 'adamw' && searchesLossyNumerics(ctx.request) ? twinsAndFloors(ctx.words).eightBitFloor : null,
    // Fused AdamW allocates no temporaries and makes the fewest passes over the states (src/memory/optimizer.ts, time.ts).
    dominatedBy: (o, ctx) =>
      o.optimizerImpl === 'foreach' || o.optimizerImpl === 'for-loop' ? twinsAndFloors(ctx.words).fusedTwin : null,
  },
  {
    id: 'micro-batch',
    search: 'monotone',
    // Per-GPU memory never falls as the micro-batch grows while there is accumulation; without it (the
    // last value) no earlier micro-batch's gradients are alive, so it can need less (property tests hold both).
    // Listed once per per-replica batch of a search: every combination asks for them.
    choices: (ctx, o) => {
      const perReplica = ctx.request.globalBatch / dataParallel(o);
      if (!Number.isInteger(perReplica)) return [];
      let listed = microBatchChoices.get(ctx);
      if (listed === undefined) microBatchChoices.set(ctx, (listed = new Map()));
      let values = listed.get(perReplica);
      if (values === undefined) {
        values = divisors(perReplica).map((microBatch) => {
          const gradAccum = perReplica / microBatch;
          return choice(
            ctx.words.choices.microBatch(microBatch, gradAccum),
            { microBatch, gradAccum },
            gradAccum > 1 ? ['gradient-accumulation'] : [],
          );
        });
        listed.set(perReplica, values);
      }
      return values;
    },
  },
];
