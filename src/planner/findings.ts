/**
 * What a search has found on one set of GPUs while it walks: plans, rejection groups and counts. A walk over several
 * sets of GPUs at once (searchParts) keeps one of these per set, so that each comes out as if searched alone.
 */
import type { EstimateOptions, ModelConfig, TotalsOutcome } from '../memory/index.ts';
import type { SearchContext } from './dimensions.ts';
import { PLANNER_WORDS, type PlannerWords } from './messages.ts';
import type { Estimated, Evaluation } from './micro-batch.ts';
import type { PlanRequest } from './request.ts';
import type { FittingPlan, Hardware, PlanChoice, RejectionKind, SearchPart, ShortOf } from './search.ts';

/** A rejection group while the search fills it. */
interface OpenGroup {
  readonly kind: RejectionKind;
  readonly reason: string;
  count: number;
  smallestGap: number | null;
  closest: EstimateOptions | null;
  closestShortOf: ShortOf | null;
  closestAt: number | null;
}

/** A memory gap: bytes short, of which memory, and the combination's options (built only when it is the group's closest). */
interface Gap {
  readonly bytes: number;
  readonly shortOf: ShortOf;
  readonly options: () => EstimateOptions;
}

/** One set of GPUs' findings, filled in walk order. */
export class HardwareFindings {
  /** What the dimensions' values and rules read on this set of GPUs. */
  readonly ctx: SearchContext;
  /** The options every plan starts from (the request's, with this GPU and the sequence), shared by the plans. */
  readonly base: EstimateOptions;
  readonly plans: FittingPlan[] = [];
  /** Each plan's number in the walk. */
  readonly plansAt: number[] = [];
  /** Combinations that fit at no micro-batch, by their number in the walk (for the memory floors). */
  readonly fitsNowhere = new Set<number>();
  combinations = 0;
  evaluations = 0;
  // One map of groups per kind: a group is found by its reason without building a key per rejection.
  private readonly groups = new Map<RejectionKind, Map<string, OpenGroup>>();

  readonly hardware: Hardware;
  private readonly request: PlanRequest;

  constructor(request: PlanRequest, hardware: Hardware, model: ModelConfig, words: PlannerWords = PLANNER_WORDS) {
    this.request = request;
    this.hardware = hardware;
    this.ctx = { request, gpu: hardware.gpu, gpus: hardware.gpus, model, words };
    this.base = { ...request.base, gpu: hardware.gpu.id, seq: request.seq };
  }

  /** Count `count` combinations, the one numbered `at` in the walk first, as left out for `reason`. */
  reject(kind: RejectionKind, reason: string, at: number, count = 1, gap: Gap | null = null): void {
    let byReason = this.groups.get(kind);
    if (byReason === undefined) this.groups.set(kind, (byReason = new Map()));
    let group = byReason.get(reason);
    if (group === undefined) {
      group = { kind, reason, count: 0, smallestGap: null, closest: null, closestShortOf: null, closestAt: null };
      byReason.set(reason, group);
    }
    group.count += count;
    if (gap !== null && (group.smallestGap === null || gap.bytes < group.smallestGap)) {
      group.smallestGap = gap.bytes;
      group.closest = gap.options();
      group.closestShortOf = gap.shortOf;
      group.closestAt = at;
    }
  }

  /** An engine outcome on these GPUs, counted, with whether it fits the GPU and the host RAM allowed. */
  evaluate(outcome: TotalsOutcome | undefined): Estimated {
    this.evaluations += 1;
    if (outcome === undefined) throw new Error('an outcome for every set of GPUs estimated');
    if (!outcome.ok) return { errors: outcome.errors.map((e) => `${e.field}: ${this.ctx.words.fieldError(e)}`).join('; ') };
    const totals = outcome.totals;
    const hostBytes = totals.perCpu.total * this.hardware.gpus;
    return {
      totals,
      hostBytes,
      fitsGpu: totals.fits === true,
      fitsHost: this.request.maxHostBytes === null || hostBytes <= this.request.maxHostBytes,
    };
  }

  /**
   * Bytes short of fitting: GPU memory missing plus host RAM over the limit. Counting both keeps the gap from falling
   * when a combination needs more of either memory, which the dominance rules' skipped twins rely on.
   */
  gapOf(e: Evaluation): number {
    return (e.fitsGpu ? 0 : (e.totals.shortfall ?? 0)) + this.hostOver(e);
  }

  /** A combination (numbered `at`) that fits at no micro-batch, `e` being its closest estimate, with `closest` its options. */
  rejectMemory(e: Evaluation, at: number, closest: () => EstimateOptions): void {
    this.fitsNowhere.add(at);
    const r = e.totals;
    const bytes = this.gapOf(e);
    if (!e.fitsGpu) {
      const usable = this.hardware.gpu.memoryBytes - (r.headroom?.bytes ?? 0);
      const states = r.perGpu.weights + r.perGpu.gradients + r.perGpu.optimizer + r.perGpu.overhead;
      const kind: RejectionKind = states > usable ? 'model-states' : 'activations';
      const shortOf: ShortOf = this.hostOver(e) > 0 ? 'gpu+host' : 'gpu';
      const reason = kind === 'model-states' ? this.ctx.words.rejections.modelStates : this.ctx.words.rejections.activations;
      return this.reject(kind, reason, at, 1, { bytes, shortOf, options: closest });
    }
    return this.reject('host-memory', this.ctx.words.rejections.hostMemory, at, 1, { bytes, shortOf: 'host', options: closest });
  }

  /** A combination (numbered `at`) that fits, with `choices`, as `e` estimated it. */
  addPlan(choices: readonly PlanChoice[], e: Evaluation, at: number): void {
    const stepSeconds = e.totals.stepSeconds;
    if (stepSeconds === null) throw new Error('the engine gives a step time whenever a GPU is set');
    this.plans.push({
      hardware: this.hardware,
      choices,
      base: this.base,
      perGpu: e.totals.perGpu,
      hostBytes: e.hostBytes,
      stepTimeSeconds: stepSeconds.total,
    });
    this.plansAt.push(at);
  }

  /** What was found, as the search's share. */
  part(): SearchPart {
    const rejected = [...this.groups.values()].flatMap((byReason) => [...byReason.values()]);
    const { hardware, plans, plansAt, combinations, evaluations } = this;
    return { hardware, plans, plansAt, rejected, combinations, evaluations };
  }

  private hostOver(e: Evaluation): number {
    return this.request.maxHostBytes === null ? 0 : Math.max(0, e.hostBytes - this.request.maxHostBytes);
  }
}
