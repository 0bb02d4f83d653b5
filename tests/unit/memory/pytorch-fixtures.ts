/**
 * The PyTorch reference fixtures (tests/fixtures/pytorch, made by tools/pytorch-harness) and the engine's
 * prediction for each: the same configuration through `estimateMemory`, moment by moment.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EstimateOptions, EstimateResult, MomentId } from '../../../src/memory/index.ts';
import { lossBytes } from '../../../src/memory/loss.ts';
import { estimateOrThrow } from '../support/estimate-or-throw.ts';

const DIR = join(import.meta.dirname, '../../fixtures/pytorch');

/** One recorded moment of a step. */
export interface FixtureMoment {
  phase: 'start' | 'forward' | 'backward' | 'optimizer' | 'zeroGrad';
  microBatch?: number;
  peakBytes: number;
  endBytes: number;
  byCategory: Record<'weights' | 'gradients' | 'optimizer' | 'activations', number>;
}

/** One fixture file. */
export interface Fixture {
  name: string;
  meta: { command: string; torch: string; device: string };
  config: Record<string, string | number | boolean | null>;
  unavailable: string[];
  params: number;
  trainableParams: number;
  bufferBytes: number;
  inputBytes: number;
  steps: { step: number; moments: FixtureMoment[] }[];
}

/** Every whole-step fixture of `arch` that ran: the language models by default, or the lab's MLP. */
export function loadFixtures(arch: 'language-models' | 'mlp' = 'language-models'): Fixture[] {
  const name = arch === 'mlp' ? /^(cpu|cuda)-mlp-.*\.json$/ : /^(cpu|cuda)-(gpt2|llama)-.*\.json$/;
  return readdirSync(DIR)
    .filter((f) => name.test(f))
    .map((f) => ({
      name: f.replace(/\.json$/, ''),
      ...(JSON.parse(readFileSync(join(DIR, f), 'utf8')) as Omit<Fixture, 'name'>),
    }))
    .filter((f) => f.unavailable.length === 0);
}

/** The engine options for a fixture's configuration (the harness records them in the engine's vocabulary). */
export function fixtureOptions(fixture: Fixture): EstimateOptions {
  const c = fixture.config;
  const num = (key: string) => Number(c[key]);
  return {
    arch: c['arch'] as 'gpt2' | 'llama',
    hidden: num('hidden'),
    layers: num('layers'),
    heads: num('heads'),
    kvHeads: num('kvHeads'),
    ffn: num('ffn'),
    vocab: num('vocab'),
    positions: c['arch'] === 'gpt2' ? num('positions') : 0,
    seq: num('seq'),
    microBatch: num('microBatch'),
    dropout: Boolean(c['dropout']),
    precision: c['precision'] as 'fp32' | 'amp-bf16' | 'bf16',
    optimizer: 'adamw',
    optimizerImpl: c['optimizerImpl'] as 'foreach',
    grads: c['grads'] as 'free',
    gradAccum: num('gradAccum'),
    recompute: c['recompute'] as 'none',
    ...(typeof c['checkpointEvery'] === 'number' ? { checkpointEvery: c['checkpointEvery'] } : {}),
    attention: c['attention'] as 'eager',
    kernels: c['kernels'] as 'eager',
    ...(c['finetune'] === 'lora'
      ? {
          finetune: 'lora' as const,
          loraRank: num('loraRank'),
          loraTargets: String(c['loraTargets']),
          // The harness's adapters are fp32 (PEFT's autocast_adapter_dtype=True); dropout 0 unless the fixture says.
          loraDtype: 'fp32' as const,
          loraDropout: Number(c['loraDropout'] ?? 0),
        }
      : {}),
  };
}

/** The engine options for a lab-MLP fixture (tools/pytorch-harness run.py MLP): every option its step depends on. */
export function mlpFixtureOptions(fixture: Fixture): EstimateOptions {
  const c = fixture.config;
  const num = (key: string) => Number(c[key]);
  return {
    arch: 'mlp',
    hidden: num('hidden'),
    layers: num('layers'),
    vocab: num('vocab'),
    microBatch: num('microBatch'),
    precision: 'fp32',
    optimizer: 'sgd',
    optimizerImpl: 'for-loop',
    attention: 'sdpa',
    grads: 'free',
    gradAccum: 1,
    ...(c['recompute'] === 'full'
      ? { recompute: 'full' as const, checkpointEvery: num('checkpointEvery') }
      : { recompute: 'none' as const }),
  };
}

/** The engine's result for a fixture. */
export function engineFor(fixture: Fixture): EstimateResult {
  return estimateOrThrow(fixtureOptions(fixture));
}

/** Bytes the engine has alive at `moment`, less the CUDA context and workspace a CPU run does not have. */
export function engineBytesAt(result: EstimateResult, moment: MomentId): number {
  const found = result.timeline.find((m) => m.moment === moment);
  return found === undefined ? 0 : found.bytes - found.byCategory.overhead;
}

/** The step-2 (steady state) peak of a phase in a fixture; for accumulation, the largest micro-batch's. */
export function fixturePeak(fixture: Fixture, phase: FixtureMoment['phase'], microBatch?: number): number {
  const step = fixture.steps.find((s) => s.step === 2) ?? fixture.steps[0];
  const moments = (step?.moments ?? []).filter(
    (m) => m.phase === phase && (microBatch === undefined || m.microBatch === microBatch),
  );
  return Math.max(0, ...moments.map((m) => m.peakBytes));
}

/** A difference between the PyTorch build that recorded a fixture and what the engine describes (CUDA, current PyTorch). */
export interface Adjustment {
  /** What differs and where it comes from. */
  reason: string;
  /** Bytes to add to the engine's figure at each moment (negative to take away). */
  bytes: Partial<Record<MomentId, number>>;
}

const KEPT_MOMENTS: readonly MomentId[] = ['forward', 'forward-accumulating', 'backward-start', 'backward-top'];
const at = (moments: readonly MomentId[], bytes: number) =>
  Object.fromEntries(moments.map((m) => [m, bytes])) as Partial<Record<MomentId, number>>;

/**
 * Bytes `perLayer` of every layer's kept activations: at the moments they are kept, or, under full recompute, for the
 * layers rebuilt during backward (a whole segment, then the first layer alone).
 */
function perLayerAdjustment(fixture: Fixture, perLayer: number): Partial<Record<MomentId, number>> {
  const layers = Number(fixture.config['layers']);
  const segment = Number(fixture.config['checkpointEvery'] ?? 1);
  return fixture.config['recompute'] === 'full'
    ? { ...at(['backward-top', 'backward-first-segment'], segment * perLayer), 'backward-end': perLayer }
    : at(KEPT_MOMENTS, layers * perLayer);
}

/**
 * The documented differences between a CPU / torch 1.13 fixture and the engine, each from the harness README
 * (tools/pytorch-harness/README.md) and the source it cites. Applied to the engine before comparing.
 */
export function adjustmentsFor(fixture: Fixture): Adjustment[] {
  const c = fixture.config;
  const n = (key: string) => Number(c[key]);
  const [s, b, h, f, a] = [n('seq'), n('microBatch'), n('hidden'), n('ffn'), n('heads')];
  const sbh = s * b * h;
  const amp = c['precision'] === 'amp-bf16';
  const e = amp ? 2 : 4;
  const out: Adjustment[] = [];
  if (fixture.meta.torch.startsWith('1.') && c['optimizerImpl'] === 'foreach') {
    out.push({
      reason:
        'torch 1.13 _multi_tensor_adamw adds eps out of place: two sqrt(v)-sized lists, not one (current torch/optim/adamw.py adds in place)',
      bytes: { optimizer: fixture.trainableParams * 4 },
    });
  }
  if (fixture.meta.device.startsWith('cpu') && c['arch'] === 'gpt2' && amp && c['kernels'] === 'eager') {
    out.push({
      reason:
        'CPU autocast keeps softmax and pow in bf16 (CUDA runs both in fp32: torch.amp "CUDA ops that can autocast to float32"): gelu_new keeps 10·sbf, not 16; scores 5 B, not 7',
      bytes: perLayerAdjustment(fixture, -(6 * s * b * f + 2 * a * s * s * b)),
    });
  }
  if (fixture.meta.device.startsWith('cpu') && c['arch'] === 'gpt2' && c['dropout'] === true && c['dropoutKernel'] !== 'native') {
    out.push({
      reason: 'CPU F.dropout keeps full-width noise in the activation dtype, CUDA a 1-byte mask (aten native_dropout)',
      bytes: sumAdjustments(perLayerAdjustment(fixture, (e - 1) * (2 * sbh + a * s * s * b)), at(KEPT_MOMENTS, 3 * sbh)),
    });
  }
  if (c['kernels'] === 'fused') {
    const shape = { positions: s * b, vocab: n('vocab'), hidden: h, logitBytes: e, tp: 1 };
    const eager = lossBytes({ ...shape, kind: 'eager' });
    const fused = lossBytes({ ...shape, kind: 'vocab-parallel' });
    out.push({
      reason:
        'the harness fuses the layers only and keeps Hugging Face’s loss; the engine’s fused kernels also use Megatron’s in-place cross-entropy',
      bytes: { forward: eager.forward - fused.forward, 'backward-start': eager.backward - fused.backward },
    });
  }
  if (fixture.meta.torch.startsWith('1.') && c['arch'] === 'llama') {
    out.push({
      reason: 'torch 1.13 mean() saves its input, so each RMSNorm also keeps x² in fp32 (current PyTorch keeps only sizes)',
      bytes: sumAdjustments(perLayerAdjustment(fixture, 8 * sbh), at(KEPT_MOMENTS, 4 * sbh)),
    });
  }
  return out;
}

/** Two adjustments' bytes added moment by moment. */
function sumAdjustments(...parts: Partial<Record<MomentId, number>>[]): Partial<Record<MomentId, number>> {
  const total: Partial<Record<MomentId, number>> = {};
  for (const part of parts) for (const [m, v] of Object.entries(part) as [MomentId, number][]) total[m] = (total[m] ?? 0) + v;
  return total;
}

/** The engine's bytes at `moment` with the fixture's documented adjustments, in the fixture's terms (buffers and batch included). */
export function adjustedEngineBytesAt(fixture: Fixture, result: EstimateResult, moment: MomentId): number {
  const adjustments = adjustmentsFor(fixture).reduce((sum, adj) => sum + (adj.bytes[moment] ?? 0), 0);
  return engineBytesAt(result, moment) + adjustments + fixture.bufferBytes + fixture.inputBytes;
}
