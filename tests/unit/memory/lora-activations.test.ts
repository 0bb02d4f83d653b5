/**
 * What LoRA's adapters and a frozen base keep for backward, derived by hand from PEFT's `Linear.forward`
 * (tuners/lora/layer.py) and autograd's rule that an op keeps an input only for a gradient it must compute.
 * The same configurations measured in PyTorch are held in pytorch.test.ts (the `*-bf16base` fixtures).
 */
import { describe, expect, test } from 'vitest';
import { estimateMemory, getModelPreset, layerActivationBytes, type LayerActivationShape } from '../../../src/memory/index.ts';
import { adapterActivationBytes, type AdapterActivationShape } from '../../../src/memory/lora-activations.ts';
import { loraParams, type LoraPlan, type LoraTargets } from '../../../src/memory/lora.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

const llama2 = getModelPreset('llama-2-7b')!.config;
const ALL_SEVEN = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'] as const;

function plan(targets: LoraTargets, dora = false): LoraPlan {
  const outcome = loraParams(llama2, 8, targets, { dora, modulesToSave: [] });
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.errors));
  return outcome.plan;
}

/** Trainer(bf16=True) on a bf16 base with PEFT's fp32 adapters: autocast, e = 2, a = 4, a bf16 residual stream. */
const amp: AdapterActivationShape = {
  autocast: true,
  computeBytes: 2,
  adapterBytes: 4,
  residualBytes: 2,
  dropout: 0,
  baseCopied: true,
  tp: 1,
};

describe('adapterActivationBytes: Llama 2 7B (h 4096, f 11008, 32 layers), r = 8', () => {
  test('q,v under autocast: each module keeps its own bf16 cast of x (4096) and lora_A’s bf16 output (8)', () => {
    expect(adapterActivationBytes(llama2, plan(['q', 'v']), amp).perToken).toBe(32 * 2 * (2 * 4096 + 2 * 8));
  });

  test('q,v without autocast, bf16 adapters on the bf16 base: q and v keep the one norm output they share', () => {
    const shape = { ...amp, autocast: false, adapterBytes: 2 };
    expect(adapterActivationBytes(llama2, plan(['q', 'v']), shape).perToken).toBe(32 * (2 * 4096 + 2 * (2 * 8)));
  });

  test('q,v without autocast, fp32 adapters on the bf16 base: _cast_input_dtype makes an fp32 copy per module', () => {
    const shape = { ...amp, autocast: false };
    expect(adapterActivationBytes(llama2, plan(['q', 'v']), shape).perToken).toBe(32 * 2 * (4 * 4096 + 4 * 8));
  });

  test('lora_dropout 0.05 under autocast: the dropped copy’s bf16 cast and a 1-byte mask per module', () => {
    const shape = { ...amp, dropout: 0.05 };
    expect(adapterActivationBytes(llama2, plan(['q', 'v']), shape).perToken).toBe(32 * 2 * ((2 + 1) * 4096 + 2 * 8));
  });

  test('all-linear under autocast: inputs 4096 for q, k, v, o, gate, up and 11008 for down', () => {
    const inputs = 6 * 4096 + 11008;
    expect(adapterActivationBytes(llama2, plan(ALL_SEVEN), amp).perToken).toBe(32 * (2 * inputs + 7 * 2 * 8));
  });

  test('tensor parallelism splits only the row-parallel adapters’ inputs: o reads 4096 / 4, q and v the whole 4096', () => {
    const split = { ...amp, tp: 4 };
    const perLayer = (targets: LoraTargets, shape: AdapterActivationShape) =>
      adapterActivationBytes(llama2, plan(targets), shape).perToken / 32;
    // Under autocast each module keeps its e-byte input and its r-wide lora_A output (e·r).
    expect(perLayer(['o'], split)).toBe(2 * (4096 / 4) + 2 * 8);
    expect(perLayer(['down'], split)).toBe(2 * (11008 / 4) + 2 * 8);
    expect(perLayer(['q', 'v'], split)).toBe(perLayer(['q', 'v'], amp));
  });

  test('DoRA with tensor parallelism is refused on its field, as PEFT’s LoraParallelLinear refuses it', () => {
    const outcome = estimateMemory({ model: 'llama-2-7b', stack: 'pytorch', finetune: 'lora', dora: true, tp: 2 });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.errors.map((e) => e.field)).toEqual(['dora']);
  });

  test('DoRA under autocast: base_result and lora_result (out wide, bf16) per module; down_proj’s weight norm is the largest transient', () => {
    const outs = 4096 + 4096 + 4096 + 4096 + 11008 + 11008 + 4096;
    const plain = adapterActivationBytes(llama2, plan(ALL_SEVEN), amp).perToken;
    const dora = adapterActivationBytes(llama2, plan(ALL_SEVEN, true), amp);
    expect(dora.perToken - plain).toBe(32 * (2 + 2) * outs);
    // down_proj (in 11008, out 4096) in get_weight_norm: the identity's bf16 cast kept by lora_weight's graph, then four
    // fp32 in×out tensors: lora_weight.to(fp32), the bf16 base copied to fp32, scaling·lora_weight and the sum.
    expect(dora.workingSet).toBe(2 * 11008 * 11008 + 4 * 4 * 11008 * 4096);
  });

  test('DoRA in pure bf16 (no autocast, bf16 adapters on a bf16 base): the identity, lora_weight, the scaled copy and the sum', () => {
    const bf16: AdapterActivationShape = { ...amp, autocast: false, adapterBytes: 2, baseCopied: false };
    const dora = adapterActivationBytes(llama2, plan(['down'], true), bf16);
    expect(dora.workingSet).toBe(2 * 11008 * 11008 + 3 * 2 * 11008 * 4096);
  });

  test('DoRA on a module four times wider in than out: get_lora_weight’s eye(in) and its cast beside B·A are the larger stage', () => {
    // GPT-2 small with an 8h MLP: down_proj reads 6144 and writes 768. Under autocast the identity stage holds
    // 4·in² + 2·in² + 2·in·out = 2.36e8 B, the norm stage 2·in² + 16·in·out = 1.51e8 B.
    const wide = { ...getModelPreset('gpt2')!.config, ffn: 8 * 768 };
    const outcome = loraParams(wide, 8, ['down'], { dora: true, modulesToSave: [] });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.errors));
    const [inWidth, outWidth] = [6144, 768];
    const eyeStage = 6 * inWidth * inWidth + 2 * inWidth * outWidth;
    expect(eyeStage).toBeGreaterThan(2 * inWidth * inWidth + 16 * inWidth * outWidth);
    expect(adapterActivationBytes(wide, outcome.plan, amp).workingSet).toBe(eyeStage);
  });
});

describe('layerActivationBytes with frozen weights (LoRA’s base)', () => {
  test('Llama eager, bf16 without autocast: no norm output for the norm weights, no Linear input for the weights', () => {
    const shape: LayerActivationShape = {
      seq: 512,
      microBatch: 1,
      hidden: 4096,
      heads: 32,
      widths: { query: 4096, key: 4096, value: 4096, output: 4096, latents: [] },
      mlpWidth: 11008,
      mlp: 'swiglu',
      norm: 'rmsnorm',
      pythonGelu: false,
      sinks: false,
      dropout: false,
      attention: 'sdpa',
      kernels: 'eager',
      bytesPerElement: 2,
      residualBytes: 2,
      tp: 1,
      sp: false,
      frozenWeights: false,
    };
    const sbh = 512 * 4096;
    const sbf = 512 * 11008;
    const full = layerActivationBytes(shape).full;
    const frozen = layerActivationBytes({ ...shape, frozenWeights: true }).full;
    // Two normalised outputs (2 B), the q/k/v input, the o_proj input, the gate/up input (2 B each), the down input.
    expect(full - frozen).toBe(2 * 2 * sbh + 3 * 2 * sbh + 2 * sbf);
  });
});

describe('estimateMemory: q,v LoRA keeps far less than a full fine-tune', () => {
  const options = {
    model: 'llama-2-7b',
    seq: 2048,
    microBatch: 4,
    precision: 'amp-bf16',
    optimizer: 'adamw',
    optimizerImpl: 'fused',
    recompute: 'none',
    attention: 'sdpa',
    kernels: 'eager',
  } as const;
  test('a frozen layer keeps under 60 % of a fully trained one (amp-bf16, SDPA: 32·sbh + 4as·b of 57.5·sbh)', () => {
    const full = estimateOrThrow(options);
    const lora = estimateOrThrow({ ...options, finetune: 'lora', loraRank: 8, loraTargets: 'q,v', loraDtype: 'fp32' });
    expect(lora.perGpu.activationsPerLayer).toBeLessThan(0.6 * full.perGpu.activationsPerLayer);
  });

  test('--lora-dropout adds each adapted module’s mask (1 B per input element) to what is kept', () => {
    const base = { ...options, finetune: 'lora', loraRank: 8, loraTargets: 'q,v', loraDtype: 'fp32' } as const;
    const plain = estimateOrThrow(base).lines.find((l) => l.id === 'activations-lora')!;
    const dropped = estimateOrThrow({ ...base, loraDropout: 0.1 }).lines.find((l) => l.id === 'activations-lora')!;
    expect(Math.max(...dropped.live) - Math.max(...plain.live)).toBe(2048 * 4 * 32 * 2 * 4096);
  });
});
