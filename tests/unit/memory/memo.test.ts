import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { estimateMemory, estimateTotals, GPU_PRESETS, type EstimateOptions } from '../../../src/memory/index.ts';
import { clearMemo } from '../../../src/memory/memo.ts';
import { getModelPreset } from '../../../src/memory/presets.ts';
import {
  sameActivationInputs,
  sameAutocastInputs,
  sameFullStateInputs,
  type ActivationInputs,
  type AutocastInputs,
  type FullStateInputs,
} from '../../../src/memory/training-lines.ts';

/**
 * The engine builds its line groups once per inputs and shares them (memo.ts). If a builder read an option its inputs
 * leave out, two estimates differing only in that option would share lines they should not. So: estimate many
 * neighbouring configurations one after another, caches warm (the planner's pattern), and hold each to the same
 * estimate with every cache emptied first.
 */
const base: fc.Arbitrary<EstimateOptions> = fc
  .record({
    model: fc.constantFrom('gpt2', 'gpt2-xl', 'llama-2-7b', 'llama-3-8b', 'mixtral-8x7b', 'demo-mlp', 'bert-base-uncased'),
    gpu: fc.constantFrom(...GPU_PRESETS.map((g) => g.id)),
    seq: fc.constantFrom(128, 512, 2048),
    // A shape override makes a model of its own (not the preset's shared shape).
    layers: fc.option(fc.constantFrom(2, 4, 8), { nil: null }),
  })
  .map(({ layers, ...options }) => (layers === null ? options : { ...options, layers }));

/** One option changed at a time, over everything a training or inference estimate reads. */
const change: fc.Arbitrary<EstimateOptions> = fc.oneof(
  fc.record({ precision: fc.constantFrom('fp32', 'amp-bf16', 'amp-fp16', 'mixed-bf16', 'mixed-fp16', 'bf16' as const) }),
  fc.record({
    optimizer: fc.constantFrom(
      'adamw',
      'adamw-8bit',
      'sgd',
      'sgd-momentum',
      'paged-adamw',
      'adamw-4bit-torchao',
      'adamw-cpu-offload',
      'adafactor',
      'lion' as const,
    ),
  }),
  fc.record({ optimizerInBackward: fc.boolean(), gradAccum: fc.constant(1) }),
  fc.record({
    loss: fc.constantFrom('eager', 'vocab-parallel', 'in-place', 'flash-attn', 'chunked', 'fused-linear', 'cut' as const),
  }),
  fc.record({ optimizerImpl: fc.constantFrom('foreach', 'fused', 'for-loop' as const) }),
  fc.record({ recompute: fc.constantFrom('none', 'selective', 'op', 'full' as const) }),
  fc.record({ checkpointEvery: fc.constantFrom(1, 2) }),
  fc.record({ attention: fc.constantFrom('sdpa', 'eager' as const) }),
  fc.record({ kernels: fc.constantFrom('eager', 'fused' as const) }),
  fc.record({ dropout: fc.boolean() }),
  fc.record({ grads: fc.constantFrom('free', 'keep' as const) }),
  fc.record({ microBatch: fc.constantFrom(1, 2, 3), gradAccum: fc.constantFrom(1, 2, 4) }),
  fc.record({ tp: fc.constantFrom(1, 2), sp: fc.boolean() }),
  fc.record({ pp: fc.constantFrom(1, 2) }),
  fc.record({ dp: fc.constantFrom(1, 2, 4) }),
  fc.record({
    zero: fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<0 | 1 | 2 | 3>,
    offload: fc.constantFrom('none', 'optimizer', 'optimizer+params' as const),
    offloadDevice: fc.constantFrom('cpu', 'nvme' as const),
  }),
  fc.record({ finetune: fc.constantFrom('full', 'lora', 'qlora' as const), loraRank: fc.constantFrom(8, 16) }),
  fc.record({
    finetune: fc.constantFrom('lora', 'qlora' as const),
    loraDropout: fc.constantFrom(0, 0.05),
    loraDtype: fc.constantFrom('fp32', 'bf16' as const),
    modulesToSave: fc.constantFrom('none', 'head', 'embed,head'),
    dora: fc.boolean(),
  }),
  fc.record({ teacher: fc.constantFrom('gpt2', 'gpt2-medium') }),
  fc.record({ mode: fc.constantFrom('train', 'infer' as const), tokens: fc.constantFrom(64, 256) }),
  fc.record({ headroom: fc.constantFrom(0, 10) }),
);

describe('memoized line groups', () => {
  test('every estimate with warm caches equals the same estimate with empty ones, across neighbouring configurations', () => {
    let shared = 0;
    let estimated = 0;
    fc.assert(
      fc.property(base, fc.array(change, { minLength: 2, maxLength: 12 }), (start, changes) => {
        // A walk through neighbouring configurations: each step keeps the changes before it.
        const walk: EstimateOptions[] = [];
        let options: EstimateOptions = { ...start };
        for (const patch of changes) walk.push((options = { ...options, ...patch }));
        clearMemo();
        // The planner's numbers-only estimates (unlabelled lines) between the reports, as a page with both would run.
        const warm = walk.map((o) => {
          estimateTotals(o);
          return estimateMemory(o);
        });
        for (const [i, o] of walk.entries()) {
          clearMemo();
          expect(warm[i], JSON.stringify(o)).toEqual(estimateMemory(o));
        }
        // The walk did share lines (the same object in two estimates), so the comparison tested the caches.
        const seen = new Set<object>();
        for (const outcome of warm) {
          if (!outcome.ok) continue;
          estimated += 1;
          for (const line of outcome.result.lines) {
            if (seen.has(line)) shared += 1;
            seen.add(line);
          }
        }
      }),
      { numRuns: 300 },
    );
    expect(estimated).toBeGreaterThan(1000);
    expect(shared).toBeGreaterThan(1000);
  });
});

/**
 * The hot builders compare their inputs field by field, written out (memo.ts). A field left out would let two
 * estimates share lines they should not: each comparison must tell apart inputs that differ in any one field. The
 * samples are typed as the inputs, so a field added to the inputs must be added here too.
 */
describe('the written-out comparisons of memoized inputs', () => {
  const model = getModelPreset('llama-2-7b')?.config ?? null;
  if (model === null) throw new Error('the preset exists');
  const states: FullStateInputs = {
    stage: 'first',
    words: false,
    precision: 'amp-bf16',
    optimizer: 'adamw',
    optimizerImpl: 'fused',
    accumulates: true,
    segment: 0,
    dp: 8,
    tp: 2,
    pp: 2,
    zero: 1,
    offload: 'none',
    offloadDevice: 'cpu',
    keepGatheredWeights: false,
    grads: 'free',
    optimizerInBackward: false,
    model,
    paramsOnly: null,
    gradDtype: 'param',
    fp8AllGather: false,
  };
  const autocast: AutocastInputs = {
    stage: 'first',
    words: false,
    accumulates: true,
    segment: 0,
    castBytes: 2,
    zero: 1,
    offload: 'none',
    tp: 2,
    pp: 2,
    dp: 8,
    model,
    paramsOnly: null,
  };
  const activations: ActivationInputs = {
    model,
    stage: 'first',
    words: false,
    seq: 4096,
    microBatch: 2,
    gradAccum: 4,
    activationBytes: 2,
    residualBytes: 4,
    dropout: false,
    attention: 'sdpa',
    kernels: 'eager',
    tp: 2,
    sp: false,
    pp: 2,
    ppVirtual: 1,
    recompute: 'none',
    segment: 0,
    adapterBytesPerToken: null,
    adapterWorkingSet: 0,
    trainsHead: true,
    loss: 'eager',
    activationOffload: 'none',
    maskBytes: 0,
    batching: 'padded',
    meanSeq: 4096,
    linearInputBytes: 2,
  };
  /** Another value of the same field: any difference must count, whatever the type. */
  const other = (value: unknown): unknown =>
    typeof value === 'number'
      ? value + 1
      : typeof value === 'string'
        ? `${value}′`
        : typeof value === 'boolean'
          ? !value
          : value === null
            ? 1
            : { ...(value as object) };

  test.each<[string, Record<string, unknown>, (a: never, b: never) => boolean]>([
    ['model states', states as unknown as Record<string, unknown>, sameFullStateInputs],
    ['autocast copies', autocast as unknown as Record<string, unknown>, sameAutocastInputs],
    ['activations', activations as unknown as Record<string, unknown>, sameActivationInputs],
  ])('%s: equal inputs are the same, and a change in any one field is not', (_name, sample, same) => {
    const compare = same as (a: Record<string, unknown>, b: Record<string, unknown>) => boolean;
    expect(compare(sample, { ...sample })).toBe(true);
    for (const field of Object.keys(sample)) {
      const changed = { ...sample, [field]: other(sample[field]) };
      expect(compare(sample, changed), field).toBe(false);
      expect(compare(changed, sample), field).toBe(false);
    }
  });
});
