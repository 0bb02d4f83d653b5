/**
 * The terminal commands from a cold start: the wall time of one `estimate` (lesson 1's calculator at its defaults,
 * `--json`) as a new process, from the packed package installed into an empty folder (run on Node 20 and on the pinned
 * Node) against `npm run --silent estimate` in the repository (tsx compiling the TypeScript on each run). Also the
 * package's size and the time `npm install` takes to install the tarball offline. The tarball and the install go to a
 * temporary folder, removed at the end.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const ESTIMATE = ['estimate', '--model', 'llama-3-8b', '--gpu', 'rtx-4090', '--seq', '2048', '--precision', 'amp-bf16', '--json'];
const RUNS = 7;

/** Milliseconds one run of `command` takes, wall clock; throws when it fails. */
function wallMs(command: string, args: readonly string[], cwd: string): number {
  const start = performance.now();
  const child = spawnSync(command, args, { cwd, encoding: 'utf8' });
  const ms = performance.now() - start;
  if (child.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${child.stderr}`);
  return ms;
}

/** Median of `RUNS` runs (the first included: every run is a new process, so each one starts cold). */
function median(command: string, args: readonly string[], cwd: string): number {
  const times = Array.from({ length: RUNS }, () => wallMs(command, args, cwd)).sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
}

/** Runs the benchmark and prints its table. */
export default async function bench(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'gml-bench-'));
  try {
    const app = join(work, 'app');
    mkdirSync(app);
    const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' });
    if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
    const [pack] = JSON.parse(packed.stdout) as [{ filename: string; size: number; unpackedSize: number; files: unknown[] }];
    const installMs = wallMs('npm', ['install', '--offline', '--no-audit', '--no-fund', join(work, pack.filename)], app);
    const bin = join(app, 'node_modules/.bin/gpu-memory-lab');
    const rows: [string, string][] = [
      [
        'package (npm pack)',
        `${(pack.size / 1000).toFixed(0)} kB packed, ${(pack.unpackedSize / 1000).toFixed(0)} kB unpacked, ${pack.files.length} files`,
      ],
      ['npm install of the tarball, offline, into an empty folder', `${installMs.toFixed(0)} ms`],
      ['estimate, packed bin on Node 20 (/usr/bin/node)', `${median('/usr/bin/node', [bin, ...ESTIMATE], app).toFixed(0)} ms`],
      [
        'estimate, packed bin on the pinned Node',
        `${median(join(ROOT, 'node_modules/.bin/node'), [bin, ...ESTIMATE], app).toFixed(0)} ms`,
      ],
      [
        'npm run --silent estimate (tsx, in the repository)',
        `${median('npm', ['run', '--silent', 'estimate', '--', ...ESTIMATE.slice(1)], ROOT).toFixed(0)} ms`,
      ],
    ];
    console.log(`Median of ${RUNS} cold starts (each a new process)\n`);
    for (const [what, figure] of rows) console.log(`${what.padEnd(60)} ${figure}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
