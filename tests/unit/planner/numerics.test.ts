import { describe, expect, test } from 'vitest';
import { runCommand } from '../../../src/cli/command.ts';
import { planCommand } from '../../../src/cli/plan-command.ts';
import { changesNumerics, planOptions, planTraining, type RawFlagValues } from '../../../src/planner/index.ts';
import { planRequest } from '../support/plan-request.ts';

// A tight case, so that pure bf16 and 8-bit AdamW fit where they are searched; the stack is given.
const TIGHT: RawFlagValues = {
  model: 'llama-2-7b',
  gpu: 'a100-80gb',
  gpus: '2',
  'global-batch': '8',
  seq: '2048',
  stack: 'pytorch',
};

/** The precisions and optimizers a request's plans use. */
function numericsOf(raw: RawFlagValues) {
  const plans = planTraining(planRequest(raw)).plans.map(planOptions);
  return {
    count: plans.length,
    precisions: new Set(plans.map((o) => o.precision)),
    optimizers: new Set(plans.map((o) => o.optimizer)),
    lossy: plans.filter(changesNumerics).length,
  };
}

describe('training numerics: pretraining keeps fp32 master weights and 32-bit AdamW unless --allow-lossy', () => {
  test('pretraining searches mixed precision and 32-bit AdamW only', () => {
    const found = numericsOf({ ...TIGHT, task: 'pretrain' });
    expect(found.count).toBeGreaterThan(0);
    expect(found.lossy).toBe(0);
    expect(found.precisions.has('bf16')).toBe(false);
    expect(found.optimizers).toEqual(new Set(['adamw']));
    expect(found.precisions.has('mixed-bf16') || found.precisions.has('amp-bf16')).toBe(true);
  });

  test('--allow-lossy adds pure bf16 weights and 8-bit AdamW to pretraining', () => {
    const standard = numericsOf({ ...TIGHT, task: 'pretrain' });
    const lossy = numericsOf({ ...TIGHT, task: 'pretrain', 'allow-lossy': true });
    expect(lossy.count).toBeGreaterThan(standard.count);
    expect(lossy.precisions.has('bf16')).toBe(true);
    expect(lossy.optimizers.has('adamw-8bit')).toBe(true);
    expect(lossy.lossy).toBe(lossy.count - standard.count);
  });

  test('fine-tuning may use them without the flag', () => {
    const found = numericsOf({ ...TIGHT, task: 'finetune' });
    expect(found.precisions.has('bf16')).toBe(true);
    expect(found.optimizers.has('adamw-8bit')).toBe(true);
  });

  test('plan labels every plan that changes the numerics, in --json and in the table', () => {
    const argv = ['--model', 'gpt2-xl', '--gpu', 'rtx-4090', '--global-batch', '4', '--seq', '512'];
    const run = (extra: string[]) => runCommand(planCommand, [...argv, '--stack', 'pytorch', ...extra]);
    const json = JSON.parse(run(['--task', 'finetune', '--json']).stdout) as {
      request: { allowLossy: boolean };
      plans: { flags: Record<string, string>; changesNumerics: boolean }[];
    };
    expect(json.request.allowLossy).toBe(false);
    const labelled = json.plans.filter((p) => p.changesNumerics);
    expect(labelled.length).toBeGreaterThan(0);
    for (const plan of json.plans)
      expect(plan.changesNumerics).toBe(plan.flags['precision'] === 'bf16' || plan.flags['optimizer'] === 'adamw-8bit');
    const table = run(['--task', 'finetune', '--top', '100']).stdout;
    expect(table).toContain('changes the training numerics');
    expect(run(['--task', 'pretrain', '--top', '100']).stdout).not.toContain('changes the training numerics');
    expect(JSON.parse(run(['--task', 'pretrain', '--allow-lossy', '--json']).stdout).request.allowLossy).toBe(true);
  });
});
