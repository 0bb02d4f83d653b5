/**
 * The package as a user installs it: `npm pack` (whose `prepack` runs scripts/build-package.ts), the tarball installed
 * into an empty folder without the network, then the installed bins run on Node 20 and on the project's pinned Node.
 * Each JSON answer is compared byte for byte with the in-repo program's for the same arguments.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runProgram } from '../../../src/cli/program.ts';
import { EXAMPLES_DIR } from '../diagnose/fixtures.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
/** Node 20, the oldest the package's `engines` allows: the system's here and in CI (NODE20 names another). */
const NODE20 = process.env['NODE20'] ?? '/usr/bin/node';
const NODES = [
  ['Node 20', NODE20],
  ['the pinned Node', join(ROOT, 'node_modules/.bin/node')],
] as const;

interface PackedFile {
  readonly path: string;
}
interface PackReport {
  readonly filename: string;
  readonly unpackedSize: number;
  readonly files: readonly PackedFile[];
}

let work = '';
let app = '';
let pack: PackReport;

function run(command: string, args: readonly string[], cwd: string, input?: Uint8Array): SpawnSyncReturns<string> {
  const child = spawnSync(command, args, { cwd, encoding: 'utf8', ...(input === undefined ? {} : { input }) });
  if (child.error) throw child.error;
  return child;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'gml-package-'));
  app = join(work, 'app');
  mkdirSync(app);
  const packed = run('npm', ['pack', '--json', '--pack-destination', work], ROOT);
  expect(packed.status, packed.stderr).toBe(0);
  [pack] = JSON.parse(packed.stdout) as [PackReport];
  const installed = run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(work, pack.filename)], app);
  expect(installed.status, installed.stderr).toBe(0);
}, 180_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed package', () => {
  test('ships compiled JavaScript, declarations and the schemas, no TypeScript source, in at most 1.1 MB', () => {
    const paths = pack.files.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining(['lib/cli.js', 'lib/index.js', 'lib/types/cli/index.d.ts', 'lib/schemas/plan-v1.json']),
    );
    expect(paths.filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))).toEqual([]);
    expect(paths.filter((p) => !p.startsWith('lib/') && !['package.json', 'README.md'].includes(p))).toEqual([]);
    expect(pack.unpackedSize).toBeLessThanOrEqual(1_100_000);
  });

  test('installs offline with nothing beside it: no runtime dependency', () => {
    expect(readdirSync(join(app, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['gpu-memory-lab']);
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules/gpu-memory-lab/package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(manifest['dependencies']).toBeUndefined();
    expect(manifest['engines']).toEqual({ node: '>=20' });
    expect(readdirSync(join(app, 'node_modules/.bin')).sort()).toEqual(['gml', 'gpu-memory-lab']);
  });

  test('its declarations type a consumer of the library (tsc, strict, Node module resolution)', () => {
    writeFileSync(
      join(app, 'check.ts'),
      [
        "import { diagnose, estimate, plan } from 'gpu-memory-lab';",
        "const fit = estimate({ model: 'gpt2', gpu: 'rtx-4090' });",
        'const total: number | undefined = fit.ok ? fit.json.perGpu.total : undefined;',
        "const best = plan({ model: 'gpt2', gpu: 'rtx-4090' });",
        'const rank: number | undefined = best.ok ? best.json.plans[0]?.rank : undefined;',
        "const read = diagnose('');",
        "const tried: number | null | undefined = read.ok && read.json.kind === 'oom-message' ? read.json.triedToAllocateBytes : undefined;",
        'export { total, rank, tried };',
      ].join('\n'),
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', noEmit: true, types: [] }, files: ['check.ts'] }),
    );
    const tsc = run(NODES[1][1], [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', app], app);
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 60_000);
});

const ESTIMATE = ['--model', 'llama-3-8b', '--gpu', 'rtx-4090', '--seq', '2048', '--precision', 'amp-bf16'];
const PLAN = ['--model', 'gpt2', '--gpu', 'rtx-4090', '--global-batch', '4', '--seq', '512'];
const PASTE = 'oom-current.txt';

describe.each(NODES)('installed, on %s', (_name, node) => {
  const bin = (name: string, args: readonly string[], input?: Uint8Array) =>
    run(node, [join(app, 'node_modules/.bin', name), ...args], app, input);

  test('is the Node it says', () => {
    const major = Number(/^v(\d+)/.exec(run(node, ['--version'], app).stdout)?.[1]);
    // The pinned Node is the toolchain's (Astro and Vitest need 22.12 or newer).
    if (node === NODE20) expect(major).toBe(20);
    else expect(major).toBeGreaterThanOrEqual(22);
  });

  test('--help: the program and each command, exit 0', () => {
    for (const args of [['--help'], ['estimate', '--help'], ['plan', '--help'], ['diagnose', '--help']]) {
      const child = bin('gpu-memory-lab', args);
      expect(child.status, args.join(' ')).toBe(0);
      expect(child.stdout).toMatch(/^Usage: gpu-memory-lab /);
    }
  });

  test('estimate and plan --json print the in-repo program’s bytes; gml is the same program', () => {
    for (const argv of [
      ['estimate', ...ESTIMATE, '--json'],
      ['plan', ...PLAN, '--json'],
    ]) {
      const child = bin('gpu-memory-lab', argv);
      expect(child.status).toBe(0);
      expect(child.stdout).toBe(runProgram(argv).stdout);
    }
    expect(bin('gml', ['estimate', ...ESTIMATE, '--json']).stdout).toBe(runProgram(['estimate', ...ESTIMATE, '--json']).stdout);
  });

  test('diagnose - reads a paste from standard input, the same bytes as the file read in-repo', () => {
    const child = bin('gpu-memory-lab', ['diagnose', '-', '--json'], readFileSync(join(EXAMPLES_DIR, PASTE)));
    expect(child.status).toBe(0);
    expect(child.stdout).toBe(runProgram(['diagnose', join(EXAMPLES_DIR, PASTE), '--json']).stdout);
  });

  test('a bad value: exit 2, nothing on stdout, one line on stderr', () => {
    const child = bin('gpu-memory-lab', ['estimate', '--model', 'gpt2', '--zero', '7']);
    expect(child.status).toBe(2);
    expect(child.stdout).toBe('');
    expect(child.stderr).toMatch(/^estimate: --zero: [^\n]*\n$/);
  });

  test('the library, imported by name, answers what the command prints', () => {
    const script = `import { estimate } from 'gpu-memory-lab'; process.stdout.write(JSON.stringify(estimate(${JSON.stringify(
      Object.fromEntries(ESTIMATE.flatMap((a, i) => (i % 2 === 0 ? [[a.slice(2), ESTIMATE[i + 1]]] : []))),
    )}).json) + '\\n');`;
    const child = run(node, ['--input-type=module', '-e', script], app);
    expect(child.stderr).toBe('');
    expect(child.stdout).toBe(runProgram(['estimate', ...ESTIMATE, '--json']).stdout);
  });
});
