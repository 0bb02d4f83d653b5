import { describe, expect, test } from 'vitest';
import { runCommand, type Command } from '../../../src/cli/command.ts';
import { diagnoseCommand } from '../../../src/cli/diagnose-command.ts';
import { estimateCommand } from '../../../src/cli/estimate-command.ts';
import { planCommand } from '../../../src/cli/plan-command.ts';

const WORKED = ['--model', 'gpt2-xl', '--gpu', 'rtx-4090', '--global-batch', '4', '--seq', '512', '--task', 'finetune'];
const NO_INPUT = {
  read: () => {
    throw new Error('no file is read for a usage error');
  },
};

describe('runCommand: bad flags and values exit 2 with one line naming the flag, and point at --help', () => {
  const cases: [Command, string[], RegExp][] = [
    [estimateCommand, ['--model', 'gpt2', '--foo'], /^estimate: unknown flag --foo/],
    [estimateCommand, ['--model', 'gpt2', '--dp', 'x'], /^estimate: --dp: expected a number, got 'x'/],
    [estimateCommand, ['--model', 'gpt2', '--precision', 'fp8'], /^estimate: --precision: invalid precision: 'fp8'/],
    [estimateCommand, ['--model', 'llama-2-7b', '--tp', '3'], /--tp: heads \(32\) must be divisible by tp \(3\)/],
    [
      estimateCommand,
      ['--model', 'gpt2', '--micro-batch', '-1'],
      /^estimate: --micro-batch: micro-batch must be at least 1, got -1/,
    ],
    [estimateCommand, ['--model', 'gpt2', '--seq', '1e15'], /^estimate: --seq: seq is too large/],
    [
      estimateCommand,
      ['--model', 'gpt2', '--hidden', '1e9', '--layers', '1000'],
      /^estimate: --hidden: this configuration is too large/,
    ],
    [estimateCommand, ['--model'], /^estimate: .*--model/],
    [estimateCommand, ['gpt2'], /^estimate: unexpected argument gpt2: flags start with --/],
    [planCommand, ['--model', 'gpt2', '--gpu', 'rtx-4090'], /^plan: --global-batch: give --global-batch N/],
    [planCommand, ['--model', 'gpt2', '--global-batch', '8'], /^plan: --gpu: give --gpu ID/],
    [planCommand, [...WORKED, '--gpus', '0'], /^plan: --gpus: gpus must be at least 1, got 0/],
    [planCommand, [...WORKED, '--gpus', '1.5'], /^plan: --gpus: gpus must be a whole number, got 1.5/],
    [planCommand, [...WORKED, '--gpus', '2k'], /^plan: --gpus: gpus is too large \(2000 > 1024\)/],
    [planCommand, [...WORKED, '--precision', 'fp32'], /--precision: --precision is one of the choices the planner makes/],
    [planCommand, [...WORKED, '--flash-attention'], /--flash-attention: --flash-attention is one of the choices/],
    [planCommand, [...WORKED, '--task', 'lora'], /--task: invalid task: 'lora' \(expected pretrain, finetune\)/],
    [planCommand, [...WORKED, '--max-host-gb', '-1'], /--max-host-gb: max-host-gb must be above 0, got -1/],
    [planCommand, [...WORKED, '--epoch-tokens', 'many'], /--epoch-tokens: expected a number, got 'many'/],
    [planCommand, [...WORKED, '--price', 'h100-80gb=3/x/1'], /--price: prices must be numbers/],
    [planCommand, [...WORKED, '--price', 'h900=3/2/1'], /--price: unknown gpu 'h900'/],
    [planCommand, [...WORKED, '--rank-by', 'epoch-cost'], /--epoch-tokens: ranking by cost per epoch needs --epoch-tokens N/],
    [planCommand, ['--model', 'nope', '--gpu', 'rtx-4090', '--global-batch', '4'], /--model: unknown model 'nope'/],
    [planCommand, [...WORKED, '--foo'], /^plan: unknown flag --foo/],
    [planCommand, [...WORKED, '--top', '0'], /^plan: --top: top must be at least 1, got 0/],
    [planCommand, [...WORKED, 'extra'], /^plan: unexpected argument extra: flags start with --/],
    [diagnoseCommand, [], /^diagnose: give exactly one FILE, or - for standard input/],
    [diagnoseCommand, ['a', 'b'], /^diagnose: give exactly one FILE/],
    [diagnoseCommand, ['a', '--top', '3'], /^diagnose: unknown flag --top/],
  ];
  test.each(cases.map(([command, argv, pattern]) => [command.name, argv, pattern, command] as const))(
    '%s %j',
    (_, argv, pattern, command) => {
      const { code, stdout, stderr } = runCommand(command, argv, NO_INPUT);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(pattern);
      expect(stderr).toMatch(/ \(see --help\)\n$/);
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    },
  );
});

describe('runCommand: --help and --json are the same for every command', () => {
  test.each([
    ['estimate', estimateCommand, ['--model', 'gpt2']],
    ['plan', planCommand, WORKED],
  ] as const)('%s: -h prints the help, --json exactly one JSON object on one line', (_, command, argv) => {
    const help = runCommand(command, ['-h'], NO_INPUT);
    expect(help).toEqual({ code: 0, stdout: command.help(), stderr: '' });
    expect(help.stdout).toMatch(/^ {2}--json {3,}print exactly one JSON object/m);
    expect(help.stdout).toMatch(/^ {2}-h, --help {3,}show this help/m);
    const json = runCommand(command, [...argv, '--json'], NO_INPUT);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout.endsWith('\n')).toBe(true);
    expect(json.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(typeof JSON.parse(json.stdout)).toBe('object');
  });

  test('diagnose answers --help without reading a file', () => {
    expect(runCommand(diagnoseCommand, ['--help'], NO_INPUT)).toEqual({ code: 0, stdout: diagnoseCommand.help(), stderr: '' });
  });
});
