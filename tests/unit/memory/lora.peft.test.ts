import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { countParams, getModelPreset } from '../../../src/memory/index.ts';
import {
  KBIT_TRAINING_KEPT_BYTES,
  LORA_DEFAULT_DROPOUT,
  adapterBytes,
  DEFAULT_ADAPTER_DTYPE,
  loraParams,
  type LoraTargets,
} from '../../../src/memory/lora.ts';

/** One case of tools/peft-counts/peft_counts.py: PEFT's own counts for a preset built on the meta device. */
interface PeftCase {
  id: string;
  preset: string;
  rank: number;
  trainable: number;
  all: number;
  adapted_modules: number;
}

/** The fixture file the script prints. */
interface PeftFixture {
  versions: { transformers: string; peft: string };
  cases: PeftCase[];
  dtypes: Record<string, string | number>;
}

function readFixture(name: string): PeftFixture {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as PeftFixture;
}

const transformers4 = readFixture('peft-counts-transformers-4.json');
const transformers5 = readFixture('peft-counts-transformers-5.json');

const SEVEN: LoraTargets = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'];

/** Our target words for each case's target_modules (the script passes the module names readers write). */
const OUR_TARGETS: Readonly<Record<string, LoraTargets>> = {
  'llama-2-7b r8 q_proj,v_proj': ['q', 'v'],
  'llama-2-7b r16 all-linear': 'all-linear',
  'llama-2-7b r16 seven projections': SEVEN,
  'llama-3-8b r8 q_proj,v_proj': ['q', 'v'],
  'llama-3-8b r16 all-linear': 'all-linear',
  'mistral-7b r16 all-linear': 'all-linear',
  'mixtral-8x7b r16 all-linear': 'all-linear',
  // Mixtral names its expert projections w1/w3/w2, so the llama names reach attention only.
  'mixtral-8x7b r256 seven llama names': ['q', 'k', 'v', 'o'],
  'gpt2 r8 c_attn': ['q', 'k', 'v'],
  'gpt2 r16 all-linear': 'all-linear',
  'bert-base-uncased r8 query,value': ['q', 'v'],
  'bert-base-uncased r16 all-linear': 'all-linear',
};

function ours(peftCase: PeftCase) {
  const targets = OUR_TARGETS[peftCase.id];
  if (targets === undefined) throw new Error(`no mapping for fixture case ${peftCase.id}`);
  const outcome = loraParams(getModelPreset(peftCase.preset)!.config, peftCase.rank, targets);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.errors));
  return outcome.plan;
}

describe(`loraParams equals PEFT ${transformers4.versions.peft} on Transformers ${transformers4.versions.transformers} (tools/peft-counts, meta device)`, () => {
  test.each(transformers4.cases.map((c) => [c.id, c] as const))('%s', (_id, peftCase) => {
    const plan = ours(peftCase);
    expect(plan.trainableParams).toBe(peftCase.trainable);
    expect(countParams(getModelPreset(peftCase.preset)!.config).total + plan.trainableParams).toBe(peftCase.all);
    expect(plan.modules.reduce((sum, m) => sum + m.linear.copies, 0)).toBe(peftCase.adapted_modules);
  });
});

describe(`Transformers ${transformers5.versions.transformers} (fused MoE experts) with PEFT ${transformers5.versions.peft}`, () => {
  const dense = transformers5.cases.filter((c) => c.id !== 'mixtral-8x7b r16 all-linear');

  test.each(dense.map((c) => [c.id, c] as const))('%s: same count as the 4.x layout', (_id, peftCase) => {
    expect(ours(peftCase).trainableParams).toBe(peftCase.trainable);
  });

  test('Mixtral all-linear differs: PEFT adapts the 3-D expert tensors with rank r per expert (2r for the fused gate_up_proj)', () => {
    const mixtral = transformers5.cases.find((c) => c.id === 'mixtral-8x7b r16 all-linear')!;
    const [r, h, f, E, kv] = [16, 4096, 14336, 8, 1024];
    // Per layer: q, k, v, o and the router as Linear LoRA; gate_up_proj [E, 2f, h] and down_proj [E, h, f] as ParamWrapper
    // (peft tuners/lora/layer.py: lora_A in × r·E, lora_B r·E × out).
    const perLayer = r * (2 * (h + h) + 2 * (h + kv) + (h + E)) + 2 * r * E * (h + 2 * f) + r * E * (f + h);
    expect(mixtral.trainable).toBe(32 * perLayer);
    const layout4 = transformers4.cases.find((c) => c.id === 'mixtral-8x7b r16 all-linear')!;
    expect(ours(mixtral).trainableParams).toBe(layout4.trainable);
    expect(mixtral.trainable).toBeGreaterThan(layout4.trainable);
  });
});

describe('PEFT defaults the memory facts rest on (measured by tools/peft-counts)', () => {
  const BOTH = [
    [transformers4.versions.transformers, transformers4],
    [transformers5.versions.transformers, transformers5],
  ] as const;

  test.each(BOTH)(
    'Transformers %s: adapters are fp32 on a bf16 model unless autocast_adapter_dtype=False',
    (_version, fixture) => {
      expect(fixture.dtypes['adapter_dtype_default']).toBe('torch.float32');
      expect(adapterBytes(DEFAULT_ADAPTER_DTYPE)).toBe(4);
      expect(fixture.dtypes['adapter_dtype_autocast_off']).toBe('torch.bfloat16');
    },
  );

  test.each(BOTH)('Transformers %s: lora_dropout defaults to 0, an nn.Identity', (_version, fixture) => {
    expect(fixture.dtypes['lora_dropout_default']).toBe(LORA_DEFAULT_DROPOUT);
    expect(fixture.dtypes['lora_dropout_module']).toBe('Identity');
  });

  test.each(BOTH)(
    'Transformers %s: prepare_model_for_kbit_training upcasts bf16 embeddings and norms to fp32',
    (_version, fixture) => {
      expect(fixture.dtypes['kbit_prepared_embedding_dtype']).toBe('torch.float32');
      expect(fixture.dtypes['kbit_prepared_norm_dtype']).toBe('torch.float32');
      expect(KBIT_TRAINING_KEPT_BYTES).toBe(4);
    },
  );
});
