import { describe, expect, test } from 'vitest';
import { runCommand } from '../../../src/cli/command.ts';
import { planCommand } from '../../../src/cli/plan-command.ts';
import { getGpuPreset } from '../../../src/memory/index.ts';
import {
  PLANNER_WORDS,
  DIMENSIONS,
  planModel,
  planOptions,
  planTraining,
  tensorParallelFits,
  type RawFlagValues,
  type SearchContext,
} from '../../../src/planner/index.ts';
import { planRequest } from '../support/plan-request.ts';

/** The tensor-parallel degrees the layout dimension lists for a request. */
function listedTensorParallel(raw: RawFlagValues): number[] {
  const request = planRequest(raw);
  const gpu = getGpuPreset(request.gpu);
  if (gpu === undefined) throw new Error('a preset GPU');
  const ctx: SearchContext = { request, gpu, gpus: request.gpus, model: planModel(request), words: PLANNER_WORDS };
  const layout = DIMENSIONS.find((d) => d.id === 'layout');
  const degrees = (layout?.choices(ctx, {}) ?? []).map((c) => c.patch.tp ?? 1);
  return [...new Set(degrees)].sort((a, b) => a - b);
}

// Every request gives its stack: the planner's plans depend on it.
const BASE = { gpu: 'h100-80gb', 'global-batch': '48', seq: '2048', stack: 'pytorch' } as const;

describe('layouts respect the hardware', () => {
  test('24 GPUs: tensor-parallel degrees divide the 8 GPUs of a server (no 3 or 6)', () => {
    // llama-2-7b: 32 heads, 32 KV heads; 24 GPUs have divisors 3 and 6, which would split a server's group.
    expect(listedTensorParallel({ ...BASE, model: 'llama-2-7b', gpus: '24' })).toEqual([1, 2, 4, 8]);
  });

  test('tensor-parallel degrees divide the KV heads', () => {
    // Two KV heads: a degree of 4 or 8 would leave a GPU without a whole KV head.
    expect(listedTensorParallel({ ...BASE, model: 'llama-2-7b', 'kv-heads': '2', gpus: '16' })).toEqual([1, 2]);
    expect(tensorParallelFits(4, { arch: 'llama', heads: 32, kvHeads: 2 })).toBe(false);
  });

  test('tensor-parallel degrees divide the attention heads', () => {
    // gpt2: 12 heads, so 8 is out though it divides the server.
    expect(listedTensorParallel({ ...BASE, model: 'gpt2', gpus: '8' })).toEqual([1, 2, 4]);
  });

  test('ZeRO-0 and ZeRO-1 with data parallelism are searched and can fit', () => {
    const plans = planTraining(planRequest({ ...BASE, model: 'llama-2-7b', gpus: '8' })).plans.map(planOptions);
    for (const zero of [0, 1])
      expect(plans.some((o) => (o.zero ?? 0) === zero && (o.dp ?? 1) > 1 && o.offload === 'none')).toBe(true);
  });

  test('plan --no-dropout plans with dropout off, as plan --help lists it', () => {
    const argv = ['--model', 'gpt2', '--gpu', 'rtx-4090', '--global-batch', '4', '--seq', '512', '--stack', 'pytorch'];
    const help = runCommand(planCommand, ['--help']).stdout;
    expect(help).toContain('--no-dropout');
    const run = (extra: string[]) => runCommand(planCommand, [...argv, ...extra, '--json']);
    const off = run(['--no-dropout']);
    expect(off.code, off.stderr).toBe(0);
    const plans = (JSON.parse(off.stdout) as { plans: { flags: Record<string, string>; perGpu: { activations: number } }[] })
      .plans;
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) expect(plan.flags['dropout']).toBe('false');
    // gpt2 keeps dropout masks by default: without them the best plan keeps fewer activation bytes.
    const on = JSON.parse(run([]).stdout) as { plans: { flags: Record<string, string>; perGpu: { activations: number } }[] };
    const combination = (flags: Record<string, string>) =>
      JSON.stringify(
        Object.entries(flags)
          .filter(([name]) => name !== 'dropout')
          .sort(),
      );
    const same = on.plans.find((p) => combination(p.flags) === combination(plans[0]?.flags ?? {}));
    if (same === undefined || plans[0] === undefined) throw new Error('the same combination fits with dropout on');
    expect(plans[0].perGpu.activations).toBeLessThan(same.perGpu.activations);
  });
});
