import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  estimateMemory,
  estimateTotals,
  getGpuPreset,
  getModelPreset,
  GPU_PRESETS,
  type EstimateOptions,
} from '../../../src/memory/index.ts';
import type { Choice } from '../../../src/planner/dimensions.ts';
import { chooseMicroBatch, type Estimated, type Evaluation } from '../../../src/planner/micro-batch.ts';
import {
  PLANNER_WORDS,
  DIMENSIONS,
  divisors,
  microBatchPreference,
  secondsLowerBound,
  type PlanRequest,
  type SearchContext,
} from '../../../src/planner/index.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

/**
 * The two pruning rules of the search, each checked against estimating every micro-batch:
 * with accumulation, memory (and so the fit) never falls as the micro-batch grows at a fixed per-replica batch, and
 * with one pipeline stage the step time never rises with it.
 */
const configArbitrary = fc.record({
  model: fc.constantFrom('gpt2', 'gpt2-large', 'llama-2-7b', 'llama-3-8b', 'mixtral-8x7b', 'demo-mlp', 'demo-tiny-gpt'),
  gpu: fc.constantFrom(...GPU_PRESETS.map((g) => g.id)),
  precision: fc.constantFrom('fp32', 'amp-bf16', 'mixed-bf16', 'bf16', 'amp-fp16' as const),
  optimizer: fc.constantFrom('adamw', 'adamw-8bit' as const),
  optimizerImpl: fc.constantFrom('foreach', 'fused', 'for-loop' as const),
  finetune: fc.constantFrom('full', 'full', 'lora', 'qlora' as const),
  recompute: fc.constantFrom('none', 'selective', 'full' as const),
  attention: fc.constantFrom('sdpa', 'eager' as const),
  layout: fc.constantFrom<[number, number, number]>(
    [1, 1, 1],
    [1, 1, 4],
    [2, 1, 2],
    [1, 2, 2],
    [1, 4, 1],
    [2, 2, 1],
    [1, 2, 1],
    [1, 8, 1],
    [2, 4, 1],
  ),
  zeroOffload: fc.constantFrom(
    [0, 'none'],
    [0, 'none'],
    [1, 'none'],
    [1, 'optimizer'],
    [2, 'optimizer'],
    [3, 'none'],
    [3, 'optimizer'],
    [3, 'optimizer+params'] as const,
  ),
  perReplica: fc.constantFrom(1, 2, 4, 6, 8, 12, 16, 32),
  seq: fc.constantFrom(128, 512, 2048),
});

type Config = typeof configArbitrary extends fc.Arbitrary<infer T> ? T : never;

function options(c: Config, microBatch: number): EstimateOptions {
  const [tp, pp, dp] = c.layout;
  const mlp = c.model === 'demo-mlp';
  return {
    model: c.model,
    gpu: c.gpu,
    precision: c.precision,
    optimizer: c.optimizer,
    optimizerImpl: c.optimizerImpl,
    finetune: c.finetune,
    recompute: c.recompute,
    ...(mlp ? {} : { attention: c.attention }),
    tp: mlp ? 1 : tp,
    pp,
    dp,
    sp: !mlp && tp > 1,
    zero: c.zeroOffload[0],
    offload: c.zeroOffload[1],
    microBatch,
    gradAccum: c.perReplica / microBatch,
    ...(mlp ? {} : { seq: c.seq }),
  };
}

/** The search's context for a configuration: its GPUs and model, a fine-tuning request for its global batch. */
function searchContext(c: Config, maxHostBytes: number | null): SearchContext {
  const gpu = getGpuPreset(c.gpu);
  const model = getModelPreset(c.model)?.config;
  if (gpu === undefined || model === undefined) throw new Error('presets');
  return {
    request: { globalBatch: c.perReplica * c.layout[2], task: 'finetune', maxHostBytes } as PlanRequest,
    gpu,
    gpus: c.layout[0] * c.layout[1] * c.layout[2],
    model,
    words: PLANNER_WORDS,
  };
}

describe('the search’s pruning rules, against every micro-batch', () => {
  test('with accumulation (gradAccum > 1), per-GPU memory and the fit never fall as the micro-batch grows, and host RAM does not move (bisection is exact)', () => {
    fc.assert(
      fc.property(configArbitrary, (c) => {
        // The last divisor is the micro-batch without accumulation, which the search checks on its own.
        const accumulating = divisors(c.perReplica).slice(0, -1);
        const results = accumulating.map((b) => estimateMemory(options(c, b)));
        if (results.some((r) => !r.ok)) return;
        const ok = results.flatMap((r) => (r.ok ? [r.result] : []));
        for (let i = 1; i < ok.length; i++) {
          expect(ok[i]?.perGpu.total).toBeGreaterThanOrEqual(ok[i - 1]?.perGpu.total ?? 0);
          expect(ok[i]?.perCpu.total).toBe(ok[i - 1]?.perCpu.total);
          if (ok[i]?.fits === true) expect(ok[i - 1]?.fits).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  test('without accumulation a micro-batch can need less than a smaller one with it (why the search checks it on its own)', () => {
    // The engine's timeline: with gradAccum > 1 a later micro-batch's forward and backward run with the
    // earlier micro-batches' gradients alive (training-lines.ts, gradientLifetime). Found by the property above.
    const base = {
      ...options(
        {
          model: 'mixtral-8x7b',
          gpu: 't4',
          precision: 'fp32',
          optimizer: 'adamw',
          optimizerImpl: 'foreach',
          finetune: 'full',
          recompute: 'none',
          attention: 'sdpa',
          layout: [1, 4, 1],
          zeroOffload: [0, 'none'],
          perReplica: 32,
          seq: 512,
        },
        16,
      ),
    };
    const halves = estimateOrThrow(base);
    const whole = estimateOrThrow({ ...base, microBatch: 32, gradAccum: 1 });
    expect(whole.perGpu.total).toBeLessThan(halves.perGpu.total);
  });

  test("microBatchPreference(options): 'largest' where the step time never rises with the micro-batch, 'smallest' where it never falls", () => {
    fc.assert(
      fc.property(configArbitrary, (c) => {
        const results = divisors(c.perReplica).map((b) => estimateMemory(options(c, b)));
        const preference = microBatchPreference(options(c, 1));
        if (results.some((r) => !r.ok) || preference === 'any') return;
        const seconds = results.map((r) => (r.ok ? (r.result.stepTime?.totalSeconds ?? 0) : 0));
        for (let i = 1; i < seconds.length; i++) {
          if (preference === 'largest') expect(seconds[i]).toBeLessThanOrEqual(seconds[i - 1] ?? 0);
          else expect(seconds[i]).toBeGreaterThanOrEqual(seconds[i - 1] ?? 0);
        }
      }),
      { numRuns: 400 },
    );
  });

  test('chooseMicroBatch takes a fastest micro-batch that fits, or none when none does, against estimating every one', () => {
    let walked = 0;
    fc.assert(
      fc.property(configArbitrary, fc.boolean(), fc.constantFrom(8e9, 16e9, 24e9, 40e9, 80e9), (c, streamWeights, memory) => {
        // Half the runs stream the weights from the host with pipeline stages: where any micro-batch may win.
        const config: Config = streamWeights ? { ...c, layout: [1, 4, 1], zeroOffload: [3, 'optimizer+params'] } : c;
        const batches = divisors(config.perReplica);
        const values: Choice[] = batches.map((b) => ({
          value: String(b),
          patch: { microBatch: b, gradAccum: config.perReplica / b },
          lessons: [],
        }));
        const estimated: Estimated[] = batches.map((b) => {
          const outcome = estimateTotals(options(config, b));
          if (!outcome.ok) return { errors: 'invalid' };
          // A GPU of `memory` bytes: tight enough that some micro-batches do not fit.
          const fitsGpu = outcome.totals.perGpu.total <= memory;
          return { totals: outcome.totals, hostBytes: 0, fitsGpu, fitsHost: true };
        });
        if (estimated.some((e) => 'errors' in e)) return;
        const fits = (e: Evaluation) => e.fitsGpu && e.fitsHost;
        const seconds = (e: Estimated) => ('errors' in e ? Infinity : (e.totals.stepSeconds?.total ?? Infinity));
        const fitting = estimated.filter((e) => !('errors' in e) && fits(e));
        const fastest = Math.min(...fitting.map(seconds));
        const choice = chooseMicroBatch((i) => estimated[i] as Estimated, fits, values, options(config, 1));
        if (microBatchPreference(options(config, 1)) === 'any') walked += 1;
        if (fitting.length === 0) {
          expect(choice.kind).toBe('nothing-fits');
          return;
        }
        if (choice.kind !== 'plan') throw new Error(`expected a plan, got ${JSON.stringify(choice)}`);
        const chosen = estimated[choice.index] as Estimated;
        expect(!('errors' in chosen) && fits(chosen)).toBe(true);
        expect(seconds(chosen)).toBeLessThanOrEqual(fastest * (1 + 1e-12));
      }),
      { numRuns: 600 },
    );
    expect(walked).toBeGreaterThan(100);
  });

  test('every dominance rule: the twin never needs more GPU memory, host RAM or time, at every micro-batch, and is valid whenever the original is', () => {
    const ruled = DIMENSIONS.filter((d) => d.dominatedBy !== undefined);
    expect(ruled.map((d) => d.id)).toEqual(['attention', 'optimizer']);
    let compared = 0;
    fc.assert(
      fc.property(configArbitrary, (c) => {
        const ctx = searchContext(c, null);
        for (const b of divisors(c.perReplica)) {
          const original = options(c, b);
          for (const dimension of ruled) {
            const twin = dimension.dominatedBy?.(original, ctx) ?? null;
            if (twin === null) continue;
            const x = estimateMemory(original);
            if (!x.ok) continue;
            const y = estimateMemory({ ...original, ...twin.patch });
            expect(y.ok, `${dimension.id}: the twin of a valid configuration is valid`).toBe(true);
            if (!y.ok) continue;
            compared += 1;
            expect(y.result.perGpu.total, `${dimension.id}: GPU memory`).toBeLessThanOrEqual(x.result.perGpu.total);
            expect(y.result.perCpu.total, `${dimension.id}: host RAM`).toBeLessThanOrEqual(x.result.perCpu.total);
            expect(y.result.stepTime?.totalSeconds ?? Infinity, `${dimension.id}: step time`).toBeLessThanOrEqual(
              x.result.stepTime?.totalSeconds ?? 0,
            );
          }
        }
      }),
      { numRuns: 1000 },
    );
    expect(compared).toBeGreaterThan(100);
  });

  test('every memory floor: the twin value, listed before, never needs more GPU memory (nor host RAM under a host limit) at every micro-batch', () => {
    const floored = DIMENSIONS.filter((d) => d.memoryFloor !== undefined);
    expect(floored.map((d) => d.id)).toEqual(['offload', 'precision', 'recompute', 'optimizer']);
    let compared = 0;
    fc.assert(
      fc.property(configArbitrary, fc.boolean(), (c, hostLimit) => {
        const ctx = searchContext(c, hostLimit ? 64e9 : null);
        for (const b of divisors(c.perReplica)) {
          const original = options(c, b);
          for (const dimension of floored) {
            const floor = dimension.memoryFloor?.(original, ctx) ?? null;
            if (floor === null) continue;
            // The twin as the search builds it: this dimension's options replaced by the twin value's.
            const values = dimension.choices(ctx, original);
            const twinValue = values.find((v) => v.value === floor.value);
            expect(twinValue, `${dimension.id}: the twin is one of its values`).toBeDefined();
            const own = values.findIndex((v) =>
              Object.entries(v.patch).every(([key, value]) => original[key as keyof EstimateOptions] === value),
            );
            expect(
              values.indexOf(twinValue as (typeof values)[number]),
              `${dimension.id}: the twin is listed before`,
            ).toBeLessThan(own);
            const keys = new Set(values.flatMap((v) => Object.keys(v.patch)));
            const twin = Object.fromEntries(Object.entries(original).filter(([key]) => !keys.has(key)));
            const x = estimateMemory(original);
            if (!x.ok) continue;
            // An invalid twin is never estimated, so never found to fit nowhere: no claim to check.
            const y = estimateMemory({ ...twin, ...twinValue?.patch });
            if (!y.ok) continue;
            compared += 1;
            expect(y.result.perGpu.total, `${dimension.id}: GPU memory`).toBeLessThanOrEqual(x.result.perGpu.total);
            // Under a host limit the host RAM decides the fit too.
            if (hostLimit) expect(y.result.perCpu.total, `${dimension.id}: host RAM`).toBeLessThanOrEqual(x.result.perCpu.total);
          }
        }
      }),
      { numRuns: 2000 },
    );
    expect(compared).toBeGreaterThan(500);
  });

  test('secondsLowerBound never exceeds the step time of any micro-batch, from an estimate at any other', () => {
    let bounded = 0;
    fc.assert(
      fc.property(configArbitrary, fc.nat(), (c, pick) => {
        const batches = divisors(c.perReplica);
        const results = batches.map((b) => estimateMemory(options(c, b)));
        const ok = results.flatMap((r) => (r.ok ? [r.result] : []));
        const seen = estimateTotals(options(c, batches[pick % batches.length] ?? 1));
        if (ok.length !== results.length || !seen.ok) return;
        batches.forEach((b, i) => {
          const bound = secondsLowerBound(seen.totals, options(c, b), c.perReplica / b);
          expect(bound).toBeGreaterThanOrEqual(0);
          expect(bound).toBeLessThanOrEqual((ok[i]?.stepTime?.totalSeconds ?? 0) * (1 + 1e-12));
          if (bound > 0) bounded += 1;
        });
      }),
      { numRuns: 400 },
    );
    expect(bounded).toBeGreaterThan(100);
  });
});

/**
 * The search checks a dimension's rule and dominance as soon as its value is picked and counts the whole subtree
 * below (Dimension.rule, Dimension.dominatedBy). That is sound only if they read no later dimension, and if no later
 * rule reads a dimension that has twins (else a twin could be ruled out below where the original is not).
 */
describe('the order the search decides in', () => {
  const contexts: SearchContext[] = [
    ['llama-2-7b', 'a100-80gb', 8],
    ['gpt2-xl', 'rtx-4090', 1],
    ['demo-mlp', 't4', 4],
  ].map(([model, gpu, gpus]) => ({
    request: { globalBatch: 16, task: 'finetune', maxHostBytes: null } as unknown as PlanRequest,
    gpu: getGpuPreset(String(gpu)) ?? GPU_PRESETS[0]!,
    gpus: Number(gpus),
    model: getModelPreset(String(model))?.config ?? getModelPreset('gpt2')!.config,
    words: PLANNER_WORDS,
  }));
  const each = DIMENSIONS.filter((d) => d.search === 'each');
  /** A combination: one value index per dimension, wrapped to each dimension's size. */
  const combination = fc.array(fc.nat(), { minLength: each.length, maxLength: each.length });
  const build = (ctx: SearchContext, picks: readonly number[]): EstimateOptions =>
    each.reduce<EstimateOptions>((options, d, i) => {
      const values = d.choices(ctx, options);
      return { ...options, ...values[(picks[i] ?? 0) % values.length]?.patch };
    }, {});

  test('a rule or a twin reads only its own dimension and earlier ones', () => {
    fc.assert(
      fc.property(fc.constantFrom(...contexts), combination, combination, (ctx, picks, others) => {
        for (const [depth, d] of each.entries()) {
          // The same values up to this depth, any values after it.
          const a = build(ctx, picks);
          const b = build(ctx, [...picks.slice(0, depth + 1), ...others.slice(depth + 1)]);
          expect(d.rule?.(b, ctx) ?? null, d.id).toEqual(d.rule?.(a, ctx) ?? null);
          expect(d.dominatedBy?.(b, ctx) ?? null, d.id).toEqual(d.dominatedBy?.(a, ctx) ?? null);
        }
      }),
      { numRuns: 500 },
    );
  });

  test('no later rule reads a dimension that has twins', () => {
    fc.assert(
      fc.property(fc.constantFrom(...contexts), combination, (ctx, picks) => {
        const options = build(ctx, picks);
        for (const [depth, d] of each.entries()) {
          const twin = d.dominatedBy?.(options, ctx) ?? null;
          if (twin === null) continue;
          const swapped = { ...options, ...twin.patch };
          for (const later of each.slice(depth + 1))
            expect(later.rule?.(swapped, ctx) ?? null, `${later.id} after ${d.id}`).toEqual(later.rule?.(options, ctx) ?? null);
        }
      }),
      { numRuns: 500 },
    );
  });
});
