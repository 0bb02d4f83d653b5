import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCommand, type ReadInput } from '../../../src/cli/command.ts';
import { diagnoseCommand } from '../../../src/cli/diagnose-command.ts';
import {
  exampleBytes,
  exampleText,
  FIXTURES_DIR,
  fixtureBytes,
  fixtureText,
  PASTES_DIR,
  pasteText,
} from '../diagnose/fixtures.ts';

const runDiagnose = (argv: readonly string[], read: ReadInput) => runCommand(diagnoseCommand, argv, { read });

const json = (file: string, read: ReadInput = exampleBytes) => {
  const { code, stdout, stderr } = runDiagnose([file, '--json'], read);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(stdout.trimEnd().split('\n')).toHaveLength(1);
  return JSON.parse(stdout) as Record<string, unknown>;
};

describe('diagnose --json: one JSON object with the key fields of each reader', () => {
  test('nvidia-smi: gpus[] with index, verdict, peakUsedBytes', () => {
    const out = json('nvidia-smi-leak.csv');
    expect(out['kind']).toBe('nvidia-smi');
    const gpus = out['gpus'] as { index: number; verdict: string; peakUsedBytes: number }[];
    expect(gpus.map((g) => [g.index, g.verdict])).toEqual([
      [0, 'leak'],
      [1, 'leak'],
    ]);
    // The largest memory.used on GPU 0 in the file, found here with a regex rather than the parser.
    const peak = Math.max(...[...exampleText('nvidia-smi-leak.csv').matchAll(/, 0, [^,]+, (\d+) MiB/g)].map((m) => Number(m[1])));
    expect(gpus[0]?.peakUsedBytes).toBe(peak * 2 ** 20);
  });

  test('oom-message: tried, total, free, allocated, reserved-unallocated', () => {
    expect(json('oom-current.txt')).toMatchObject({
      kind: 'oom-message',
      triedToAllocateBytes: Math.round(3.91 * 2 ** 30),
      totalBytes: Math.round(23.54 * 2 ** 30),
      freeBytes: Math.round(2.06 * 2 ** 30),
      allocatedBytes: Math.round(15.02 * 2 ** 30),
      reservedUnallocatedBytes: Math.round(5.98 * 2 ** 30),
    });
  });

  test('memory-summary: allocated, reserved, peak allocated', () => {
    expect(json('memory-summary.txt')).toMatchObject({
      kind: 'memory-summary',
      allocatedBytes: 14215 * 2 ** 20,
      reservedBytes: 76802 * 2 ** 20,
      peakAllocatedBytes: 71340 * 2 ** 20,
    });
  });

  test('snapshot: peakActiveBytes and oomEvents', () => {
    const expected = JSON.parse(fixtureText('snapshot-oom.expected.json')) as {
      peakActiveBytes: number;
    };
    const out = json('snapshot-oom.pickle', fixtureBytes);
    expect(out['kind']).toBe('snapshot');
    expect(out['peakActiveBytes']).toBe(expected.peakActiveBytes);
    expect(out['oomEvents']).toHaveLength(1);
  });
});

describe('diagnose: OOM messages from every allocator, each figure read or derived by a stated rule', () => {
  test('an MPS message: the platform, the watermark case, and a line saying which CUDA remedies do not apply', () => {
    const { code, stdout } = runDiagnose(['02-mps-2.txt'], (name) => new TextEncoder().encode(pasteText(name)));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^MPS out-of-memory message/);
    expect(stdout).toMatch(/CUDA-only remedies do not apply here/);
    expect(stdout).toMatch(/1\. Raise PYTORCH_MPS_HIGH_WATERMARK_RATIO/);
  });

  test('every figure row ends with "read" or the rule that derived it', () => {
    const { stdout } = runDiagnose(['03-cached-3.txt', '--json'], (name) => new TextEncoder().encode(pasteText(name)));
    const out = JSON.parse(stdout) as { derivedBy: Record<string, string>; reservedBytes: number };
    expect(out.derivedBy['reservedBytes']).toMatch(/already allocated \+ cached/);
    const text = runDiagnose(['03-cached-3.txt'], (name) => new TextEncoder().encode(pasteText(name))).stdout;
    const rows = text.split('\n').filter((line) => /^ {2}\S.* (?:KiB|MiB|GiB|%) /.test(line));
    expect(rows.length).toBeGreaterThan(4);
    for (const row of rows) expect(row).toMatch(/ (?:read|derived: .+)$/);
  });
});

describe('diagnose --gpus N: the reader says what no paste shows', () => {
  const ranked = (argv: string[]) => {
    const { code, stdout } = runDiagnose(
      [resolve(PASTES_DIR, '09-backward-2.txt'), ...argv, '--json'],
      (p) => new Uint8Array(readFileSync(p)),
    );
    expect(code).toBe(0);
    return JSON.parse(stdout) as { gpus: number | null; remedies: { id: string; condition: string | null }[] };
  };

  test('the count is echoed and sharding loses its condition', () => {
    expect(ranked([]).remedies.find((r) => r.id === 'shard-model-states')?.condition).toBe('several-gpus');
    const eight = ranked(['--gpus', '8']);
    expect(eight.gpus).toBe(8);
    expect(eight.remedies.find((r) => r.id === 'shard-model-states')?.condition).toBeNull();
  });

  test('a count below one is one line and exit 2', () => {
    const { code, stderr } = runDiagnose(['x.txt', '--gpus', '0'], exampleBytes);
    expect(code).toBe(2);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/--gpus/);
  });
});

describe('diagnose: input and refusals', () => {
  test('- reads standard input', () => {
    const reads: string[] = [];
    const { code, stdout } = runDiagnose(['-'], (source) => {
      reads.push(source);
      return exampleBytes('oom-legacy.txt');
    });
    expect(reads).toEqual(['-']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/older wording \(PyTorch 1\.4 to 2\.0/);
  });

  test.each<[string, Uint8Array | Error, RegExp]>([
    ['refused pickle', fixtureBytes('snapshot-runs-code.pickle'), /refused: refused opcode STACK_GLOBAL/],
    ['random text', new TextEncoder().encode('hello world\n'), /not nvidia-smi output, an OOM message/],
    [
      "a driver OOM, which is not the allocator's",
      new TextEncoder().encode('RuntimeError: CUDA error: out of memory\nCUDA kernel errors might be asynchronously reported\n'),
      /this is a CUDA driver "out of memory" error .*not an out-of-memory message from PyTorch's allocator/,
    ],
    [
      'a cuDNN error',
      new TextEncoder().encode('RuntimeError: cuDNN error: CUDNN_STATUS_NOT_SUPPORTED\n'),
      /this is a cuDNN error/,
    ],
    ['empty input', new Uint8Array(), /is empty/],
    ['a missing file', Object.assign(new Error('nope'), { code: 'ENOENT' }), /cannot read x\.txt \(ENOENT\)/],
    ['a truncated pickle', fixtureBytes('snapshot-oom.pickle').slice(0, 5000), /truncated/],
  ])('%s: exit 2 and one line', (_, input, pattern) => {
    const { code, stdout, stderr } = runDiagnose(['x.txt'], () => {
      if (input instanceof Error) throw input;
      return input;
    });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(pattern);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  test('no FILE, or two, is a usage error', () => {
    expect(runDiagnose([], exampleBytes).code).toBe(2);
    expect(runDiagnose(['a', 'b'], exampleBytes).code).toBe(2);
  });
});

describe('npm run diagnose (the real entry point)', () => {
  test('reads a pipe on stdin with -, and exits 2 on a refused pickle', () => {
    const root = resolve(import.meta.dirname, '../../..');
    const tsx = resolve(root, 'node_modules/.bin/tsx');
    const piped = spawnSync(tsx, ['src/cli/main.ts', 'diagnose', '-', '--json'], {
      cwd: root,
      input: exampleBytes('nvidia-smi-spike-nounits.csv'),
      encoding: 'utf8',
    });
    expect(piped.status).toBe(0);
    expect((JSON.parse(piped.stdout) as { gpus: { verdict: string }[] }).gpus[0]?.verdict).toBe('spike');
    const refused = spawnSync(tsx, ['src/cli/main.ts', 'diagnose', resolve(FIXTURES_DIR, 'snapshot-runs-code.pickle')], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(refused.status).toBe(2);
    expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
  }, 30_000);
});
