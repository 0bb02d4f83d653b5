import { describe, expect, test } from 'vitest';
import { runCommand } from '../../../src/cli/command.ts';
import { estimateCommand } from '../../../src/cli/estimate-command.ts';
import { planCommand } from '../../../src/cli/plan-command.ts';
import { flagArgs, formatStepShare, formatStepTime } from '../../../src/memory/index.ts';

const runEstimate = (argv: readonly string[]) => runCommand(estimateCommand, argv);
const runPlan = (argv: readonly string[]) => runCommand(planCommand, argv);

const WORKED = ['--model', 'gpt2-xl', '--gpu', 'rtx-4090', '--global-batch', '4', '--seq', '512', '--task', 'finetune'];

interface PlanJson {
  plans: {
    flags: Record<string, string>;
    perGpu: { total: number };
    fits: boolean;
    stepTimeSeconds: number;
    hardware: { gpu: string; rented: boolean };
    timeline: { moment: string; bytes: number }[];
    peakMoment: string;
  }[];
  shortfall: number | null;
  closest: { resource: string; flags: Record<string, string> } | null;
}

describe('plan(argv)', () => {
  test('--json: every plan carries flags, perGpu.total, fits and stepTimeSeconds, best first, and estimate reproduces each', () => {
    const { code, stdout, stderr } = runPlan([...WORKED, '--json']);
    expect(code, stderr).toBe(0);
    const json = JSON.parse(stdout) as PlanJson;
    expect(json.plans.length).toBeGreaterThan(0);
    expect(json.shortfall).toBeNull();
    for (const [i, plan] of json.plans.entries()) {
      expect(plan.fits).toBe(true);
      expect(Number.isSafeInteger(plan.perGpu.total)).toBe(true);
      if (i > 0) expect(plan.stepTimeSeconds).toBeGreaterThanOrEqual(json.plans[i - 1]?.stepTimeSeconds ?? 0);
      // Its step timeline is the engine's: the peak moment holds the total per GPU, and no moment holds more.
      expect(plan.timeline.find((m) => m.moment === plan.peakMoment)?.bytes).toBe(plan.perGpu.total);
      expect(Math.max(...plan.timeline.map((m) => m.bytes))).toBe(plan.perGpu.total);
    }
    // The estimate command, given a plan's flags, prints the same total and says it fits.
    for (const plan of json.plans.slice(0, 5)) {
      const argv = flagArgs(plan.flags);
      const estimate = JSON.parse(runEstimate([...argv, '--json']).stdout) as { perGpu: { total: number }; fits: boolean };
      expect(estimate.perGpu.total).toBe(plan.perGpu.total);
      expect(estimate.fits).toBe(true);
    }
  });

  test('the table names the best plan, its estimate command and why the rest do not fit', () => {
    const { code, stdout } = runPlan(WORKED);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Best plan: 1 × rtx-4090/);
    expect(stdout).toMatch(/check {5}npx gpu-memory-lab estimate --model gpt2-xl/);
    expect(stdout).toMatch(/Step timeline per GPU[^]*backward-start .* ◀ peak/);
    expect(stdout).toMatch(/Why the other combinations do not fit your 1 × rtx-4090/);
    expect(stdout).not.toMatch(/NaN|(?<!ZeRO-)Infinity|undefined/);
  });

  test('the table prints each step time with its error band, never a bare time', () => {
    const json = JSON.parse(runPlan([...WORKED, '--json']).stdout) as PlanJson & {
      groups: { ranks: number[] }[];
    };
    // The plan shown in full is the first group's simplest member.
    const best = json.plans[(json.groups[0]?.ranks[0] ?? 0) - 1];
    if (best === undefined) throw new Error('the worked case has plans');
    const { stdout } = runPlan(WORKED);
    // The band is the engine's (stepTimeBand): low and high around the prediction, in the best plan's row and details.
    expect(formatStepTime(best.stepTimeSeconds)).toMatch(/\(.+–.+\)/);
    expect(stdout).toContain(`step      ${formatStepTime(best.stepTimeSeconds)}`);
    expect(stdout.split(formatStepTime(best.stepTimeSeconds)).length).toBeGreaterThan(2);
  });

  test("the best plan's parts print as shares of its step, the estimate's own lines divided by its total", () => {
    const json = JSON.parse(runPlan([...WORKED, '--json']).stdout) as PlanJson & { groups: { ranks: number[] }[] };
    const best = json.plans[(json.groups[0]?.ranks[0] ?? 0) - 1];
    if (best === undefined) throw new Error('the worked case has plans');
    const estimate = JSON.parse(runEstimate([...flagArgs(best.flags), '--json']).stdout) as {
      stepTime: { lines: { label: string; seconds: number }[]; totalSeconds: number };
    };
    const parts = estimate.stepTime.lines.filter((l) => l.seconds > 0);
    expect(parts.length).toBeGreaterThan(1);
    const printed = runPlan(WORKED)
      .stdout.split('\n')
      .filter((line) => line.startsWith('  share     '));
    expect(printed).toEqual(
      parts.map((l) => `  share     ${l.label}: ${formatStepShare(l.seconds, estimate.stepTime.totalSeconds)} of the step`),
    );
  });

  test('--json groups every plan once, simplest first; the table prints one row per group', () => {
    const json = JSON.parse(runPlan([...WORKED, '--json']).stdout) as PlanJson & {
      groups: { index: number; ranks: number[]; differences: { dimension: string; values: string[] }[] }[];
    };
    const ranks = json.groups.flatMap((g) => g.ranks).sort((a, b) => a - b);
    expect(ranks).toEqual(json.plans.map((_, i) => i + 1));
    expect(json.groups.length).toBeLessThan(json.plans.length);
    const { stdout } = runPlan([...WORKED, '--top', String(json.groups.length)]);
    expect(stdout).toContain(`Groups    ${json.groups.length} on your GPUs:`);
    // Each group's row leads with its simplest member, and a group of several says how many more it holds.
    for (const group of json.groups) {
      expect(stdout).toMatch(new RegExp(`^ +${group.ranks[0]} +1 × rtx-4090`, 'm'));
      if (group.ranks.length > 1) expect(stdout).toContain(`+ ${group.ranks.length - 1} more within the band`);
    }
  });

  test('nothing fits: plans [] and the smallest shortfall in bytes, with the combination that has it', () => {
    const { code, stdout } = runPlan([
      '--model',
      'llama-3-70b',
      '--gpu',
      't4',
      '--global-batch',
      '1',
      '--seq',
      '4096',
      '--max-host-gb',
      '64',
      '--json',
    ]);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as PlanJson;
    expect(json.plans).toEqual([]);
    expect(Number.isSafeInteger(json.shortfall) && (json.shortfall ?? 0) > 0).toBe(true);
    expect(json.closest?.flags['model']).toBe('llama-3-70b');
  });

  test('--rank-by step-cost puts the cheapest priced plan first; --price replaces an example price', () => {
    const json = JSON.parse(
      runPlan([...WORKED, '--rank-by', 'step-cost', '--price', 'rtx-4090=0.4/0.3/0.2', '--json']).stdout,
    ) as { plans: { cost: { perStep: Record<string, number> } | null }[] };
    const costs = json.plans.map((p) => p.cost?.perStep['on-demand'] ?? Infinity);
    for (let i = 1; i < costs.length; i++) expect(costs[i]).toBeGreaterThanOrEqual(costs[i - 1] ?? 0);
    expect(json.plans[0]?.cost).not.toBeNull();
  });

  test('--price GPU=none withdraws an example price: that GPU is no longer offered for rent', () => {
    const rentedGpus = (argv: string[]) =>
      new Set(
        (JSON.parse(runPlan([...WORKED, '--rent', ...argv, '--json']).stdout) as PlanJson).plans
          .filter((p) => p.hardware.rented)
          .map((p) => p.hardware.gpu),
      );
    expect(rentedGpus([])).toContain('h100-80gb');
    const without = rentedGpus(['--price', 'h100-80gb=none']);
    expect(without).not.toContain('h100-80gb');
    expect(without.size).toBeGreaterThan(0);
  });

  test('--train-tokens: the table has a whole-run column and the best plan its run; --json has request.trainTokens and run', () => {
    // 4 × 512 = 2,048 tokens a step; 2,048,000 tokens are exactly 1,000 steps.
    const argv = [...WORKED, '--stack', 'pytorch', '--train-tokens', '2048000'];
    const table = runPlan(argv);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/2,048,000 tokens to train/);
    expect(table.stdout).toMatch(/whole run \(band\)/);
    expect(table.stdout).toMatch(/ {2}run {7}1,000 steps · /);
    const json = JSON.parse(runPlan([...argv, '--json']).stdout) as {
      request: { trainTokens: number | null };
      plans: { stepTimeSeconds: number; run: { steps: number; seconds: { value: number } } | null }[];
    };
    expect(json.request.trainTokens).toBe(2_048_000);
    for (const plan of json.plans) {
      expect(plan.run?.steps).toBe(1000);
      expect(plan.run?.seconds.value).toBeCloseTo(1000 * plan.stepTimeSeconds, 9);
    }
  });

  test.each(['0', '-5', '1.5', 'many'])('--train-tokens %s: one line naming train-tokens, exit 2', (value) => {
    const { code, stdout, stderr } = runPlan([...WORKED, '--train-tokens', value]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/--train-tokens/);
    expect(stderr).not.toMatch(/NaN|undefined/);
  });

  test('your GPUs alone unless --rent; with it, the rented GPUs are a section of their own after yours', () => {
    const alone = JSON.parse(runPlan([...WORKED, '--json']).stdout) as PlanJson & { request: { rent: boolean } };
    expect(alone.request.rent).toBe(false);
    expect(alone.plans.length).toBeGreaterThan(0);
    expect(alone.plans.every((p) => !p.hardware.rented)).toBe(true);
    expect(runPlan(WORKED).stdout).not.toMatch(/On rented GPUs/);

    const renting = JSON.parse(runPlan([...WORKED, '--rent', '--json']).stdout) as PlanJson & {
      plans: { rank: number }[];
      groups: { index: number; rented: boolean; ranks: number[] }[];
    };
    const rented = renting.plans.filter((p) => p.hardware.rented);
    expect(rented.length).toBeGreaterThan(0);
    // The reader's plans rank 1 to n, the rented ones after them; the groups follow the same order.
    const ownCount = renting.plans.length - rented.length;
    expect(renting.plans.slice(0, ownCount).every((p) => !p.hardware.rented)).toBe(true);
    const firstRented = renting.groups.findIndex((g) => g.rented);
    expect(firstRented).toBeGreaterThan(0);
    expect(renting.groups.slice(firstRented).every((g) => g.rented)).toBe(true);
    for (const group of renting.groups)
      for (const rank of group.ranks) expect(renting.plans[rank - 1]?.hardware.rented).toBe(group.rented);
    const table = runPlan([...WORKED, '--rent']).stdout;
    expect(table.indexOf('On your 1 × rtx-4090')).toBeGreaterThan(0);
    expect(table.indexOf('On rented GPUs')).toBeGreaterThan(table.indexOf('On your 1 × rtx-4090'));
    expect(table).toMatch(/Best plan: 1 × rtx-4090/);
  });

  test('an old --no-rent still means your GPUs alone; --help lists --rent and not --no-rent', () => {
    const old = JSON.parse(runPlan([...WORKED, '--no-rent', '--json']).stdout) as PlanJson;
    expect(old.plans.length).toBeGreaterThan(0);
    expect(old.plans.every((p) => !p.hardware.rented)).toBe(true);
    const help = runPlan(['--help']).stdout;
    expect(help).toMatch(/^ {2}--rent /m);
    expect(help).not.toMatch(/no-rent/);
  });
});
