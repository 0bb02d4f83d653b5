import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { diagnose, diffusion, estimate, plan, type Flags } from '../../../src/cli/index.ts';
import { runProgram } from '../../../src/cli/program.ts';
import { JSON_CASES } from '../support/json-cases.ts';

/** argv as the library takes it: `--name value` pairs as a record, a bare flag as true. */
function flagsOf(argv: readonly string[]): Flags {
  const flags: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const name = (argv[i] ?? '').slice(2);
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) flags[name] = true;
    else {
      flags[name] = next;
      i++;
    }
  }
  return flags;
}

/** The library's answer for one JSON case: diagnose and diffusion take their input's bytes, the others flags alone. */
function libraryAnswer(command: string, argv: readonly string[]) {
  if (command === 'diagnose') return diagnose(readFileSync(argv[0] ?? ''), flagsOf(argv.slice(1)));
  if (command === 'diffusion') return diffusion(readFileSync(argv[1] ?? ''), flagsOf(argv.slice(2)));
  return (command === 'plan' ? plan : estimate)(flagsOf(argv));
}

describe("the library (import { estimate, plan, diagnose, diffusion } from 'gpu-memory-lab')", () => {
  test.each(JSON_CASES.map((c) => [`${c.command} ${c.argv.map((a) => a.replace(/.*\//, '')).join(' ')}`, c] as const))(
    '%s: JSON.stringify of its answer is the command’s --json line, byte for byte',
    (_name, { command, argv }) => {
      const answer = libraryAnswer(command, argv);
      if (!answer.ok) throw new Error(answer.error);
      expect(`${JSON.stringify(answer.json)}\n`).toBe(runProgram([command, ...argv, '--json']).stdout);
    },
  );

  test('numbers may be given as numbers, and a text input as a string', () => {
    const asNumbers = estimate({ model: 'gpt2', 'micro-batch': 4, seq: 512 });
    const asStrings = estimate({ model: 'gpt2', 'micro-batch': '4', seq: '512' });
    expect(asNumbers).toEqual(asStrings);
    const text = readFileSync(JSON_CASES.find((c) => c.argv[0]?.endsWith('oom-current.txt'))?.argv[0] ?? '', 'utf8');
    expect(diagnose(text)).toMatchObject({ ok: true, json: { kind: 'oom-message' } });
  });

  test('bad input is the command’s line, without exit codes or throws', () => {
    expect(estimate({ model: 'gpt2', zero: 7 })).toEqual({ ok: false, error: expect.stringMatching(/^--zero: /) });
    expect(estimate({ model: 'gpt2', 'micro-batches': 2 })).toEqual({ ok: false, error: 'unknown flag --micro-batches' });
    expect(plan({ model: 'gpt2', gpu: 'rtx-4090', zero: 3 })).toEqual({
      ok: false,
      error: expect.stringMatching(/--zero is one of the choices the planner makes/),
    });
    expect(diagnose('hello')).toEqual({ ok: false, error: expect.stringMatching(/^not nvidia-smi output/) });
  });
});
