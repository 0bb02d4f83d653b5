import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { countParams, getModelPreset, type ModelConfig } from '../../../src/memory/index.ts';
import {
  DEFAULT_LORA_RANK,
  DEFAULT_LORA_TARGETS,
  loraParams,
  LORA_TARGETS,
  parseLoraTargets,
  parseModulesToSave,
  type LoraPlan,
  type LoraTargets,
} from '../../../src/memory/lora.ts';

const model = (id: string): ModelConfig => getModelPreset(id)!.config;

function plan(id: string, rank: number, targets: LoraTargets): LoraPlan {
  const outcome = loraParams(model(id), rank, targets);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.errors));
  return outcome.plan;
}

function errors(id: string, rank: number, targets: LoraTargets) {
  const outcome = loraParams(model(id), rank, targets);
  return outcome.ok ? [] : outcome.errors;
}

const ALL_SEVEN = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'] as const;

describe('loraParams reproduces published print_trainable_parameters() outputs', () => {
  test('meta-llama/llama-recipes peft_finetuning.ipynb (07feee1): Llama 2 7B in 8-bit, r=8 on q_proj,v_proj → "trainable params: 4194304 || all params: 6742609920"', () => {
    const trainable = plan('llama-2-7b', 8, ['q', 'v']).trainableParams;
    expect(trainable).toBe(4_194_304);
    // Int8Params hold one int8 per weight, so "all params" is the full count plus the adapters.
    expect(countParams(model('llama-2-7b')).total + trainable).toBe(6_742_609_920);
  });

  test('meta-llama/llama-recipes llama_guard/inference_varying_sys_prompt.ipynb (3bb39ba): Llama Guard 2 8B (Llama 3 8B shape), r=8 on q_proj,v_proj → "trainable params: 3,407,872 || all params: 8,033,669,120"', () => {
    const trainable = plan('llama-3-8b', 8, ['q', 'v']).trainableParams;
    expect(trainable).toBe(3_407_872);
    expect(countParams(model('llama-3-8b')).total + trainable).toBe(8_033_669_120);
  });

  test('PEFT examples/KappaTune/README.md: Mixtral 8x7B, r=256 on q/k/v/o/gate_proj/up_proj/down_proj → "trainable params: 218,103,808 || all params: 46,920,896,512"', () => {
    // Mixtral's experts are named w1/w3/w2, so PEFT's gate_proj/up_proj/down_proj match nothing: only attention is adapted.
    const trainable = plan('mixtral-8x7b', 256, ['q', 'k', 'v', 'o']).trainableParams;
    expect(trainable).toBe(218_103_808);
    expect(countParams(model('mixtral-8x7b')).total + trainable).toBe(46_920_896_512);
  });

  test('PEFT examples/dora_finetuning/QDoRA_finetuning.ipynb: Llama 3 8B, r=8 on the 7 projections, DoRA → "trainable params: 22347776"', () => {
    expect(plan('llama-3-8b', 8, ALL_SEVEN).trainableParams).toBe(20_971_520);
    const dora = loraParams(model('llama-3-8b'), 8, ALL_SEVEN, { dora: true, modulesToSave: [] });
    expect(dora.ok && dora.plan.trainableParams).toBe(22_347_776);
  });

  test('PEFT defaults for GPT-2 (r=8, target c_attn; peft utils/constants.py) → "trainable params: 294,912 || all params: 124,734,720"', () => {
    const trainable = plan('gpt2', 8, ['q', 'k', 'v']).trainableParams;
    expect(trainable).toBe(294_912);
    expect(countParams(model('gpt2')).total + trainable).toBe(124_734_720);
  });
});

describe('loraParams(all-linear, r=16) on the presets: r · Σ(in + out) over every block Linear', () => {
  test.each<[string, number, string]>([
    ['llama-2-7b', 39_976_960, '16 · 32 · (4·8192 + 2·15104 + 15104)'],
    ['llama-3-8b', 41_943_040, '16 · 32 · (2·8192 + 2·5120 + 3·18432), GQA k/v are 1024 wide'],
    ['mistral-7b', 41_943_040, 'same shape as Llama 3 8B apart from the vocabulary, which LoRA does not touch'],
  ])('loraParams(%s, 16, all-linear) = %d (%s)', (id, params) => {
    expect(plan(id, 16, 'all-linear').trainableParams).toBe(params);
    expect(plan(id, 16, ALL_SEVEN).trainableParams).toBe(params);
  });

  test('all-linear on Mixtral adapts every expert and the router (block_sparse_moe.gate is an nn.Linear)', () => {
    const perLayer = 16 * ((4096 + 4096) * 2 + (4096 + 1024) * 2 + 8 * 3 * (4096 + 14336) + (4096 + 8));
    expect(plan('mixtral-8x7b', 16, 'all-linear').trainableParams).toBe(32 * perLayer);
    expect(plan('mixtral-8x7b', 16, 'all-linear').trainableParams - plan('mixtral-8x7b', 16, ALL_SEVEN).trainableParams).toBe(
      32 * 16 * (4096 + 8),
    );
  });

  test('all-linear on BertModel includes pooler.dense (BertModel has no output embedding to exclude)', () => {
    const modules = plan('bert-base-uncased', 8, 'all-linear').modules.map((m) => m.linear.module);
    expect(modules).toContain('pooler.dense');
    expect(modules).toContain('encoder.layer.{i}.intermediate.dense');
  });

  test('all-linear never adapts the LM head (PEFT excludes get_output_embeddings())', () => {
    for (const id of ['gpt2', 'llama-2-7b', 'mixtral-8x7b']) {
      expect(plan(id, 16, 'all-linear').modules.map((m) => m.linear.module)).not.toContain('lm_head');
    }
  });
});

describe('loraParams errors name the field', () => {
  test('GPT-2 fuses q, k and v in attn.c_attn: a partial choice is refused', () => {
    const found = errors('gpt2', 8, ['q', 'v']);
    expect(found).toEqual([
      {
        field: 'lora-targets',
        message: expect.stringContaining('transformer.h.{i}.attn.c_attn'),
        problem: { code: 'fusedProjections', params: expect.objectContaining({ arch: 'gpt2' }) },
      },
    ]);
  });

  test.each([['gpt2'], ['bert-base-uncased']])('%s has no gate projection', (id) => {
    const found = errors(id, 8, ['gate']);
    expect(found[0]).toMatchObject({ field: 'lora-targets' });
    expect(found[0]!.message).toContain('no gate');
  });

  test('the plain MLP has no projections to adapt', () => {
    expect(errors('demo-mlp', 8, 'all-linear')[0]).toMatchObject({ field: 'lora-targets' });
  });

  test.each([[0], [-4], [2.5], [Number.NaN], [Number.POSITIVE_INFINITY]])('rank %d is refused on lora-rank', (rank) => {
    expect(errors('llama-2-7b', rank, 'all-linear')).toEqual([
      {
        field: 'lora-rank',
        message: expect.stringContaining(String(rank)),
        problem: { code: 'loraRankWhole', params: { rank } },
      },
    ]);
  });
});

describe('parseLoraTargets', () => {
  test.each<[string, LoraTargets]>([
    ['all-linear', 'all-linear'],
    ['attention', ['q', 'k', 'v', 'o']],
    ['q,v', ['q', 'v']],
    [' V , q ,q', ['q', 'v']],
    ['down,up,gate', ['gate', 'up', 'down']],
  ])('parseLoraTargets(%j)', (text, targets) => {
    expect(parseLoraTargets(text)).toEqual({ ok: true, targets });
  });

  test.each([[''], ['q,x'], ['q_proj'], [',']])('parseLoraTargets(%j) names lora-targets', (text) => {
    const parsed = parseLoraTargets(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.field).toBe('lora-targets');
  });

  test('the defaults are rank 16 on all-linear, as lesson 7 states them', () => {
    expect(DEFAULT_LORA_RANK).toBe(16);
    expect(DEFAULT_LORA_TARGETS).toBe('all-linear');
  });
});

describe('modules_to_save', () => {
  test('Llama 2 7B with embed,head: the copies add 2 × V·h = 262,144,000 trainable parameters to the adapters', () => {
    const saved = loraParams(model('llama-2-7b'), 8, ['q', 'v'], { dora: false, modulesToSave: ['embed', 'head'] });
    expect(saved.ok && saved.plan.trainableParams).toBe(4_194_304 + 2 * 32_000 * 4096);
  });

  test('GPT-2 ties its head to wte: embed,head trains one V·h copy', () => {
    const saved = loraParams(model('gpt2'), 8, ['q', 'k', 'v'], { dora: false, modulesToSave: ['embed', 'head'] });
    expect(saved.ok && saved.plan.savedModuleParams).toBe(50_257 * 768);
  });

  test.each([
    ['none', []],
    ['head', ['head']],
    [' Head , embed ', ['embed', 'head']],
  ])('parseModulesToSave(%j)', (text, modules) => {
    expect(parseModulesToSave(text)).toEqual({ ok: true, modules });
  });

  test.each([[''], ['lm_head'], ['embed,x']])('parseModulesToSave(%j) names modules-to-save', (text) => {
    const parsed = parseModulesToSave(text);
    expect(parsed.ok ? null : parsed.error.field).toBe('modules-to-save');
  });
});

const targetsArbitrary: fc.Arbitrary<LoraTargets> = fc.oneof(
  fc.constant('all-linear' as const),
  fc.subarray([...LORA_TARGETS], { minLength: 1 }),
);

describe('loraParams properties', () => {
  test('results are safe integers, linear in the rank, or errors that name lora-targets / lora-rank', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('gpt2', 'bert-base-uncased', 'llama-2-7b', 'llama-3-8b', 'mixtral-8x7b', 'demo-mlp'),
        fc.integer({ min: 1, max: 1024 }),
        targetsArbitrary,
        (id, rank, targets) => {
          const outcome = loraParams(model(id), rank, targets);
          if (!outcome.ok) {
            for (const error of outcome.errors) expect(['lora-targets', 'lora-rank']).toContain(error.field);
            return;
          }
          expect(Number.isSafeInteger(outcome.plan.trainableParams)).toBe(true);
          const single = loraParams(model(id), 1, targets);
          expect(single.ok && single.plan.trainableParams * rank).toBe(outcome.plan.trainableParams);
          expect(outcome.plan.trainableParams).toBeLessThan(countParams(model(id)).total * rank);
        },
      ),
    );
  });

  test('adding a target never lowers the count', () => {
    fc.assert(
      fc.property(fc.subarray([...LORA_TARGETS], { minLength: 1 }), fc.constantFrom(...LORA_TARGETS), (targets, extra) => {
        const before = plan('llama-3-8b', 16, targets).trainableParams;
        const after = plan('llama-3-8b', 16, [...new Set([...targets, extra])]).trainableParams;
        expect(after).toBeGreaterThanOrEqual(before);
      }),
    );
  });
});
