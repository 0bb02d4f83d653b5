import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { estimateCommand } from '../../../src/cli/estimate-command.ts';
import { runCommand } from '../../../src/cli/command.ts';
import { formatSeconds, formatStepShare } from '../../../src/memory/index.ts';

const runEstimate = (argv: readonly string[]) => runCommand(estimateCommand, argv);

describe('estimate(argv)', () => {
  test('padded batches: the table prints the real tokens a step trains (2 × 512), not the padded positions', () => {
    const { code, stdout } = runEstimate([
      '--model',
      'gpt2',
      '--gpu',
      'h100-80gb',
      '--stack',
      'pytorch',
      '--precision',
      'bf16',
      '--optimizer-impl',
      'fused',
      '--seq',
      '1024',
      '--micro-batch',
      '2',
      '--batching',
      'padded',
      '--mean-seq',
      '512',
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Padding: positions computed and never trained/);
    expect(stdout).toMatch(/Real tokens trained per GPU per step\s+1,024\n/);
  });

  test('--train-tokens counts the real tokens a step trains: padded 2 × 512 per rank × 2 ranks, so 2,048,000 tokens are 1,000 steps', () => {
    // The padded positions (2 × 1024 per rank) would make it 500 steps: the budget is in trained tokens.
    const argv = [
      ...['--model', 'gpt2', '--gpu', 'h100-80gb', '--stack', 'pytorch', '--precision', 'bf16', '--optimizer-impl', 'fused'],
      ...['--seq', '1024', '--micro-batch', '2', '--batching', 'padded', '--mean-seq', '512', '--dp', '2'],
      ...['--train-tokens', '2048000'],
    ];
    const json = JSON.parse(runEstimate([...argv, '--json']).stdout) as {
      stepTime: { totalSeconds: number };
      run: { steps: number; seconds: { value: number }; gpuHours: { value: number }; cost: null };
    };
    expect(json.run.steps).toBe(1000);
    expect(json.run.seconds.value).toBeCloseTo(1000 * json.stepTime.totalSeconds, 9);
    // Two GPUs for the whole run; no price is known to `estimate`.
    expect(json.run.gpuHours.value).toBeCloseTo(((1000 * json.stepTime.totalSeconds) / 3600) * 2, 9);
    expect(json.run.cost).toBeNull();
    expect(runEstimate(argv).stdout).toMatch(/Whole run of 2,048,000 tokens\n {2}1,000 steps · /);
  });

  test.each([
    [['--train-tokens', '0'], /--train-tokens: .*at least 1/],
    [['--train-tokens', 'lots'], /--train-tokens: expected a number/],
    [['--mode', 'infer', '--train-tokens', '1e9'], /--train-tokens: a token budget needs a training step/],
  ])('%j: one line naming train-tokens, exit 2', (extra, message) => {
    const { code, stdout, stderr } = runEstimate(['--model', 'gpt2', '--gpu', 'h100-80gb', ...extra]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
  });

  test('estimate(["--model", "gpt2"]) prints a table with GiB and GB columns', () => {
    const { code, stdout, stderr } = runEstimate(['--model', 'gpt2', '--gpu', 'rtx-4090']);
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

  test('a training step prints each part as its share of the step, and the total in seconds with its band', () => {
    const argv = ['--model', 'llama-2-7b', '--zero', '3', '--dp', '16', '--gpu', 'h100-80gb', '--offload', 'optimizer'];
    const { stdout } = runEstimate(argv);
    const json = JSON.parse(runEstimate([...argv, '--json']).stdout) as {
      stepTime: { lines: { label: string; seconds: number }[]; totalSeconds: number; band: { low: number; high: number } };
    };
    const { lines, totalSeconds, band } = json.stepTime;
    // Seconds stay in --json (data); only the print turns parts into shares.
    expect(lines.filter((l) => l.seconds > 0).length).toBeGreaterThan(2);
    const block = stdout.slice(stdout.indexOf('Step time ('));
    for (const line of lines) {
      const row = block.split('\n').find((r) => r.trimStart().startsWith(line.label.slice(0, 40)));
      expect(row, line.label).toBeDefined();
      expect(row?.trimEnd().endsWith(formatStepShare(line.seconds, totalSeconds)), row).toBe(true);
      expect(row).not.toMatch(/\d (ms|s|µs)$/);
    }
    expect(block).toMatch(new RegExp(`Total +${formatSeconds(totalSeconds)}\\n`));
    expect(block).toContain(`${formatSeconds(band.low)}–${formatSeconds(band.high)}`);
  });

  test('estimate([..., "--json"]) prints exactly one JSON object with integer bytes', () => {
    const { code, stdout } = runEstimate(['--model', 'llama-2-7b', '--zero', '3', '--dp', '8', '--gpu', 'a100-80gb', '--json']);
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
    // The flags given, the stack named and every option a stack decides written out: Llama 2's checkpoint is float16, so the Trainer trains
    // 16-bit weights and moments (bf16), with its fused AdamW.
    expect(json['flags']).toEqual({
      model: 'llama-2-7b',
      dp: '8',
      zero: '3',
      gpu: 'a100-80gb',
      stack: 'hf-trainer',
      precision: 'bf16',
      optimizer: 'adamw',
      'optimizer-impl': 'fused',
      attention: 'sdpa',
      recompute: 'none',
      kernels: 'eager',
      grads: 'free',
      loss: 'eager',
      'activation-offload': 'none',
      'grad-dtype': 'param',
    });
  });

  test('--json flags reproduce the estimate on another stack: what the stack set is written out', () => {
    const first = JSON.parse(runEstimate(['--model', 'gpt2', '--stack', 'trl', '--json']).stdout) as {
      perGpu: { total: number };
      flags: Record<string, string>;
    };
    const argv = Object.entries({ ...first.flags, stack: 'megatron' }).flatMap(([flag, value]) => [`--${flag}`, value]);
    const again = JSON.parse(runEstimate([...argv, '--json']).stdout) as { perGpu: { total: number } };
    expect(again.perGpu.total).toBe(first.perGpu.total);
  });

  test('the table names the stack, what it set and the line of the tool that sets it', () => {
    const { stdout } = runEstimate(['--model', 'gpt2', '--stack', 'torchtune', '--sources']);
    expect(stdout).toMatch(/Stack\s+torchtune \(torchtune; torchtune 0\.7\.0.*\) set precision bf16, optimizer-impl fused/);
    expect(stdout).toContain('↳ optimizer-impl fused: torchtune 0.7.0 recipes/configs/llama3/8B_full.yaml:67-69');
    expect(stdout).toContain('↳ loss chunked: torchtune 0.7.0 recipes/configs/llama3/8B_full.yaml:70-71');
    const unsloth = runEstimate(['--model', 'gpt2', '--stack', 'unsloth']).stdout;
    expect(unsloth).toMatch(/set .*activation-offload checkpoints/);
    const megatron = runEstimate(['--model', 'gpt2', '--stack', 'megatron', '--sources']).stdout;
    expect(megatron).toMatch(/set .*grad-dtype fp32/);
    expect(megatron).toContain('↳ grad-dtype fp32: Megatron-LM (core 0.20.0, d98e8a6) training/arguments.py:1204-1217');
  });

  test('--json flags leave out what the job does not use: no adapter dtype for a full fine-tune', () => {
    const flags = (argv: string[]) =>
      (JSON.parse(runEstimate([...argv, '--json']).stdout) as { flags: Record<string, string> }).flags;
    expect(Object.keys(flags(['--model', 'gpt2']))).not.toContain('lora-dtype');
    expect(flags(['--model', 'gpt2', '--finetune', 'lora', '--stack', 'torchtune'])['lora-dtype']).toBe('bf16');
    expect(flags(['--model', 'gpt2', '--finetune', 'qlora', '--stack', 'trl'])['qlora-kept']).toBe('16-bit');
  });

  test('fits is null without --gpu', () => {
    expect(JSON.parse(runEstimate(['--params', '7b', '--json']).stdout)).toMatchObject({ fits: null, params: 7e9 });
  });

  test('estimate(["--help"]) lists every flag, model and GPU', () => {
    const { code, stdout } = runEstimate(['--help']);
    expect(code).toBe(0);
    for (const text of ['--micro-batch', '--checkpoint-every', '--teacher', '--json', 'llama-2-7b', 'h100-80gb', 'demo-mlp'])
      expect(stdout).toContain(text);
  });

  test('infer mode shows the KV cache', () => {
    expect(runEstimate(['--model', 'mistral-7b', '--mode', 'infer', '--tokens', '32768']).stdout).toMatch(
      /KV cache.*sliding window 4096/,
    );
  });

  test('--sources prints the source under each line', () => {
    expect(runEstimate(['--model', 'gpt2', '--sources']).stdout).toMatch(/↳ Korthikanti/);
  });
});

describe('npm run estimate (spawned)', () => {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const tsx = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url));
  const spawn = (args: string[]) =>
    spawnSync(process.execPath, [tsx, 'src/cli/main.ts', 'estimate', ...args], { cwd: root, encoding: 'utf8' });

  test('--json writes one parseable object to stdout and nothing to stderr', () => {
    const child = spawn(['--model', 'gpt2', '--json']);
    expect(child.status).toBe(0);
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toMatchObject({ params: 124_439_808 });
  }, 30_000);

  test('a bad flag exits 2', () => {
    const child = spawn(['--model', 'gpt2', '--zero', '7']);
    expect(child.status).toBe(2);
    expect(child.stderr).toMatch(/--zero/);
  }, 30_000);
});
