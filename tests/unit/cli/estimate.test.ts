import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { estimateMain } from '../../../src/cli/estimate-main.ts';

describe('estimateMain(argv)', () => {
  test('estimateMain(["--model", "gpt2"]) prints a table with GiB and GB columns', () => {
    const { code, stdout, stderr } = estimateMain(['--model', 'gpt2', '--gpu', 'rtx-4090']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/Model\s+gpt2 · 124,439,808 params/);
    expect(stdout).toMatch(/GiB\s+GB/);
    expect(stdout).toMatch(/Peak per GPU/);
    expect(stdout).toMatch(/Sum of parts/);
    expect(stdout).toMatch(/Step timeline per GPU/);
    expect(stdout).toMatch(/Fits\s+yes/);
    expect(stdout).toMatch(/Step time \(estimate/);
  });

  test('estimateMain([..., "--json"]) prints exactly one JSON object with integer bytes', () => {
    const { code, stdout } = estimateMain(['--model', 'llama-2-7b', '--zero', '3', '--dp', '8', '--gpu', 'a100-80gb', '--json']);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as Record<string, unknown> & { perGpu: Record<string, number>; perCpu: { total: number } };
    expect(json['params']).toBe(6_738_415_616);
    for (const key of [
      'weights',
      'gradients',
      'optimizer',
      'activations',
      'activationsPerLayer',
      'kvCache',
      'overhead',
      'total',
      'sumOfParts',
    ]) {
      expect(Number.isSafeInteger(json.perGpu[key])).toBe(true);
    }
    expect(json.perGpu['total']).toBeLessThanOrEqual(json.perGpu['sumOfParts'] ?? 0);
    expect(['forward', 'backward', 'optimizer']).toContain(json['peakPhase']);
    const timeline = json['timeline'] as { phase: string; bytes: number; byCategory: Record<string, number> }[];
    expect(Math.max(...timeline.map((m) => m.bytes))).toBe(json.perGpu['total']);
    expect(json['trainableParams']).toBe(6_738_415_616);
    expect(Number.isSafeInteger(json.perCpu.total)).toBe(true);
    expect(typeof json['fits']).toBe('boolean');
    expect(Array.isArray(json['warnings'])).toBe(true);
    expect(json['flags']).toEqual({ model: 'llama-2-7b', dp: '8', zero: '3', gpu: 'a100-80gb' });
  });

  test('fits is null without --gpu', () => {
    expect(JSON.parse(estimateMain(['--params', '7b', '--json']).stdout)).toMatchObject({ fits: null, params: 7e9 });
  });

  test.each<[string[], RegExp]>([
    [['--model', 'gpt2', '--foo'], /unknown flag --foo/],
    [['--model', 'gpt2', '--dp', 'x'], /--dp: expected a number/],
    [['--model', 'gpt2', '--precision', 'fp8'], /--precision: invalid precision/],
    [['--model', 'llama-2-7b', '--tp', '3'], /--tp: heads \(32\) must be divisible by tp \(3\)/],
    [['--model', 'gpt2', '--micro-batch=-1'], /--micro-batch: micro-batch must be at least 1/],
    [['--model'], /--model/],
    [['gpt2'], /unexpected argument gpt2/],
  ])('estimateMain(%j) exits 2 with one line naming the flag', (argv, pattern) => {
    const { code, stdout, stderr } = estimateMain(argv);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(pattern);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  test('estimateMain(["--help"]) lists every flag, model and GPU', () => {
    const { code, stdout } = estimateMain(['--help']);
    expect(code).toBe(0);
    for (const text of ['--micro-batch', '--checkpoint-every', '--teacher', '--json', 'llama-2-7b', 'h100-80gb', 'demo-mlp'])
      expect(stdout).toContain(text);
  });

  test('infer mode shows the KV cache', () => {
    expect(estimateMain(['--model', 'mistral-7b', '--mode', 'infer', '--tokens', '32768']).stdout).toMatch(
      /KV cache.*sliding window 4096/,
    );
  });

  test('--sources prints the source under each line', () => {
    expect(estimateMain(['--model', 'gpt2', '--sources']).stdout).toMatch(/↳ Korthikanti/);
  });
});

describe('npm run estimate (spawned)', () => {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const tsx = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url));
  const spawn = (args: string[]) =>
    spawnSync(process.execPath, [tsx, 'src/cli/estimate.ts', ...args], { cwd: root, encoding: 'utf8' });

  test('--json writes one parseable object to stdout and nothing to stderr', () => {
    const child = spawn(['--model', 'gpt2', '--json']);
    expect(child.status).toBe(0);
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toMatchObject({ params: 124_439_808 });
  }, 30_000);

  test.each<[string, string[], RegExp]>([
    [
      'a negative micro-batch names --micro-batch, not an ambiguous argument',
      ['--micro-batch', '-1'],
      /^estimate: --micro-batch: micro-batch must be at least 1, got -1/,
    ],
    ['an absurd sequence length names --seq', ['--seq', '1e15'], /^estimate: --seq: seq is too large/],
    [
      'an overflowing width names --hidden',
      ['--hidden', '1e9', '--layers', '1000'],
      /^estimate: --hidden: this configuration is too large/,
    ],
  ])('%s', (_title, flags, message) => {
    const { code, stderr } = estimateMain(['--model', 'gpt2', ...flags]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });

  test('a bad flag exits 2', () => {
    const child = spawn(['--model', 'gpt2', '--zero', '7']);
    expect(child.status).toBe(2);
    expect(child.stderr).toMatch(/--zero/);
  }, 30_000);
});
