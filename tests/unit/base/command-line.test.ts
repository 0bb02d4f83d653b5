import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { commandLine } from '../../../src/base/command-line.ts';
import { runProgram } from '../../../src/cli/program.ts';
import { compute } from '../../../src/components/calculators/calculator-state.ts';
import { CALCULATORS, type CalculatorId } from '../../../src/components/calculators/specs.ts';
import { flagsFromQuery, queryFromFlags } from '../../../src/components/planner/query.ts';
import { formatEstimateFlags } from '../../../src/memory/index.ts';
import { estimateCommandLine, planCommandLine } from '../../../src/planner/index.ts';

/** The words a POSIX shell makes of `line`, as the program would receive them. */
function shellWords(line: string): string[] {
  const printed = spawnSync('sh', ['-c', `printf '%s\\0' ${line}`], { encoding: 'utf8' });
  return printed.stdout.split('\0').slice(0, -1);
}

/** argv of the program from a command line the site shows (after `npx gpu-memory-lab`). */
function programArgv(line: string): string[] {
  const [npx, program, ...argv] = shellWords(line);
  expect([npx, program]).toEqual(['npx', 'gpu-memory-lab']);
  return argv;
}

describe('commandLine: the terminal command every page and command prints', () => {
  test('a shell gives the program exactly the arguments, plain or quoted', () => {
    const args = ['--model', 'gpt2', 'my run (1).txt', "it's.log", '-'];
    expect(programArgv(commandLine('diagnose', args))).toEqual(['diagnose', ...args]);
    expect(commandLine('estimate', ['--model', 'gpt2'])).toBe('npx gpu-memory-lab estimate --model gpt2');
  });

  test.each(Object.keys(CALCULATORS) as CalculatorId[])(
    'calculator %s: its "Copy as command" line, run, prints the total the calculator shows',
    (id) => {
      const computed = compute(id, CALCULATORS[id].defaults);
      if (!computed.ok) throw new Error(JSON.stringify(computed.errors));
      // The calculator prints the command of its last scenario (Calculator.tsx), the one its chart draws.
      const shown = computed.results[computed.results.length - 1]!;
      const argv = programArgv(estimateCommandLine(formatEstimateFlags(shown.options)));
      const { code, stdout } = runProgram([...argv, '--json']);
      expect(code).toBe(0);
      expect((JSON.parse(stdout) as { perGpu: unknown }).perGpu).toEqual(shown.result.perGpu);
    },
  );

  test('the planner page: its command line asks the program for the search its fields describe', () => {
    const raw = flagsFromQuery(
      'model=gpt2-xl&gpu=rtx-4090&global-batch=4&seq=512&task=finetune&rent=true&price=h100-80gb=2.5/1.8/1.1',
    );
    const argv = programArgv(planCommandLine(new URLSearchParams(queryFromFlags(raw))));
    expect(argv).toEqual([
      'plan',
      '--model',
      'gpt2-xl',
      '--gpu',
      'rtx-4090',
      '--global-batch',
      '4',
      '--seq',
      '512',
      '--task',
      'finetune',
      '--rent',
      '--price',
      'h100-80gb=2.5/1.8/1.1',
    ]);
    expect(runProgram([...argv, '--json']).code).toBe(0);
  });
});
