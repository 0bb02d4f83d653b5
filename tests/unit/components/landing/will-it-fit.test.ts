import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { formatBytes } from '../../../../src/base/bytes';
import { compute, fromQuery } from '../../../../src/components/calculators/calculator-state';
import { SITE_DEFAULTS } from '../../../../src/components/calculators/site-defaults';
import { CALCULATORS } from '../../../../src/components/calculators/specs';
import { estimateFigure } from '../../../../src/components/estimate/estimate-figure';
import {
  calculatorHref,
  JOBS,
  remediesFor,
  willItFit,
  type FitRequest,
  type Remedy,
} from '../../../../src/components/landing/will-it-fit';
import { EN } from '../../../../src/i18n/messages/en';
import { DEFAULT_STACK, LINE_CATEGORIES, type Stack } from '../../../../src/memory';
import { readLoadedModel } from '../../../../src/components/model-source/loaded-model';

/** The technique a remedy names, as the English page prints it ('' for a whole lesson). */
const techniqueName = (remedy: Remedy): string =>
  remedy.technique === undefined ? '' : EN.willItFit.techniques[remedy.technique];

const request = (overrides: Partial<FitRequest>): FitRequest => ({
  model: SITE_DEFAULTS.model,
  gpu: SITE_DEFAULTS.gpu,
  gpus: 1,
  job: 'full',
  stack: DEFAULT_STACK,
  ...overrides,
});

/** The peak lesson 1's calculator computes from a URL's query. */
function calculatorTotal(href: string): number {
  const computed = compute('breakdown', fromQuery('breakdown', new URL(href, 'https://example.org').search));
  if (!computed.ok) throw new Error(computed.errors.map((e) => e.message).join('; '));
  return computed.results.at(-1)?.result.perGpu.total ?? Number.NaN;
}

describe('willItFit(request)', () => {
  test('Llama 2 70B does not train on one H100 80GB: 16 bytes/param of mixed-precision Adam states alone are 1.1 TB (ZeRO, Rajbhandari et al. 2020, §3.1)', () => {
    const verdict = willItFit(request({ model: 'llama-2-70b', gpu: 'h100-80gb', stack: 'deepspeed' }));
    expect(verdict?.result.resolved.precision).toBe('mixed-bf16');
    expect(verdict?.fits).toBe(false);
    expect(verdict?.marginBytes).toBeGreaterThan(16 * 69e9 - 80 * 2 ** 30);
  });

  test('GPT-2 (124M) inference fits on an RTX 4090: its bf16 weights are 0.25 GB of 24 GB', () => {
    const verdict = willItFit(request({ model: 'gpt2', job: 'infer' }));
    expect(verdict?.fits).toBe(true);
    expect(Number.isSafeInteger(verdict?.marginBytes) && (verdict?.marginBytes ?? -1) > 0).toBe(true);
  });

  test('the largest part is the largest line of the per-GPU totals, with its share of the total', () => {
    const verdict = willItFit(request({ model: 'llama-2-7b', gpu: 'a100-80gb' }));
    if (!verdict) throw new Error('the engine refused llama-2-7b on a100-80gb');
    const { perGpu } = verdict.result;
    const parts = [perGpu.weights, perGpu.gradients, perGpu.optimizer, perGpu.activations, perGpu.kvCache, perGpu.overhead];
    expect(verdict.largest.bytes).toBe(Math.max(...parts));
    expect(verdict.largest.share).toBeCloseTo(verdict.largest.bytes / perGpu.total, 12);
  });

  test('the job picks what is trained: LoRA and QLoRA train adapters, inference trains nothing', () => {
    const full = willItFit(request({ job: 'full' }))?.result;
    const lora = willItFit(request({ job: 'lora' }))?.result;
    const qlora = willItFit(request({ job: 'qlora' }))?.result;
    const infer = willItFit(request({ job: 'infer' }))?.result;
    expect([full?.resolved.finetune, lora?.resolved.finetune, qlora?.resolved.finetune]).toEqual(['full', 'lora', 'qlora']);
    expect(infer?.mode).toBe('infer');
    expect(lora?.trainableParams).toBeLessThan(full?.trainableParams ?? 0);
    expect(qlora?.perGpu.weights).toBeLessThan(lora?.perGpu.weights ?? 0);
  });

  test('an unknown preset gives no verdict rather than a made-up one', () => {
    expect(willItFit(request({ model: 'no-such-model', gpu: 'h100-80gb' }))).toBeNull();
  });
});

describe('one default everywhere (issue #28, item 4)', () => {
  test("the landing page's default state is lesson 1's calculator's default state, and gives its figure", () => {
    const landing = willItFit(request({}));
    const calculator = compute('breakdown', { ...CALCULATORS.breakdown.defaults });
    if (!calculator.ok || !landing) throw new Error('the default state did not compute');
    expect(calculator.results.at(-1)?.result.perGpu.total).toBe(landing.result.perGpu.total);
    // Lesson 1 states the calculator's default figure with the stack pinned; it is the landing's figure too.
    const lessonFigure = estimateFigure(
      '--model llama-3.1-8b --gpu rtx-4090 --micro-batch 1 --seq 2048 --stack hf-trainer',
      'perGpu.total',
      'GiB',
    );
    expect(lessonFigure).toBe(formatBytes(landing.result.perGpu.total, 'GiB', 2));
  });

  const stacks: readonly Stack[] = ['hf-trainer', 'pytorch', 'torchtune', 'megatron'];
  test.each(JOBS.flatMap((job) => stacks.map((stack) => [job, stack] as const)))(
    'the link to the full calculator opens it in the same state, with the same figure: %s on %s',
    (job, stack) => {
      const req = request({ model: 'qwen3-8b', gpu: 'a100-80gb', job, stack });
      const landing = willItFit(req);
      expect(calculatorTotal(calculatorHref(req))).toBe(landing?.result.perGpu.total);
    },
  );
});

describe('remediesFor(part, gpus): only what applies to the reader’s GPU count', () => {
  test('one GPU: no ZeRO or FSDP, for any part (nothing to shard over)', () => {
    for (const part of LINE_CATEGORIES)
      for (const remedy of remediesFor(part, 1)) expect(techniqueName(remedy)).not.toMatch(/ZeRO|FSDP/);
  });

  test('several GPUs: gradients and optimizer states are sharded (ZeRO-2, ZeRO)', () => {
    expect(remediesFor('gradients', 8).map(techniqueName)).toContain('ZeRO-2');
    expect(remediesFor('optimizer', 2).map((r) => r.lesson)).toContain('parallelism');
  });
});

describe('willItFit with a model read from a config.json', () => {
  test('a shape read from Qwen3 8B’s config.json gives the verdict of the preset generated from that file', () => {
    const text = readFileSync(new URL('../../../../src/memory/model-configs/qwen3-8b.json', import.meta.url), 'utf8');
    const loaded = readLoadedModel(text, null);
    if (!loaded.ok) throw new Error('qwen3-8b.json reads');
    const fromFile = willItFit(request({ loaded: loaded.model, gpu: 'rtx-4090', job: 'infer' }));
    const fromPreset = willItFit(request({ model: 'qwen3-8b', gpu: 'rtx-4090', job: 'infer' }));
    expect(fromFile?.result.params).toBe(fromPreset?.result.params);
    expect(fromFile?.result.perGpu.total).toBe(fromPreset?.result.perGpu.total);
    expect(fromFile?.fits).toBe(fromPreset?.fits);
  });

  test('its link to the full calculator carries the config, and opens with the same figure', () => {
    const text = readFileSync(new URL('../../../../src/memory/model-configs/qwen3-8b.json', import.meta.url), 'utf8');
    const loaded = readLoadedModel(text, null);
    if (!loaded.ok) throw new Error('qwen3-8b.json reads');
    const href = calculatorHref(request({ loaded: loaded.model, gpu: 'a100-80gb' }));
    expect(new URL(href, 'https://example.org').searchParams.has('model')).toBe(false);
    expect(new URL(href, 'https://example.org').searchParams.has('config')).toBe(true);
  });
});
