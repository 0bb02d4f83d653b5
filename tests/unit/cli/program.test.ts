import { describe, expect, test } from 'vitest';
import { runCommand } from '../../../src/cli/command.ts';
import { estimateCommand } from '../../../src/cli/estimate-command.ts';
import { runProgram } from '../../../src/cli/program.ts';

describe('gpu-memory-lab <command> (program.ts)', () => {
  test('dispatches to the command named first, with the arguments after it', () => {
    const argv = ['--model', 'gpt2', '--gpu', 'rtx-4090', '--json'];
    expect(runProgram(['estimate', ...argv])).toEqual(runCommand(estimateCommand, argv));
  });

  test('--help lists every command with its summary', () => {
    const { code, stdout } = runProgram(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: gpu-memory-lab <command>/);
    for (const name of ['estimate', 'plan', 'diagnose', 'diffusion']) expect(stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
  });

  test.each([
    [[], /^gpu-memory-lab: give a command: estimate, plan, diagnose or diffusion \(see --help\)\n$/],
    [['fit', '--model', 'gpt2'], /^gpu-memory-lab: unknown command fit: estimate, plan, diagnose or diffusion \(see --help\)\n$/],
  ])('%j exits 2 with one line naming the commands', (argv, line) => {
    const { code, stdout, stderr } = runProgram(argv);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(line);
  });
});
