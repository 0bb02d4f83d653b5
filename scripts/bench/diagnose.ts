/**
 * Diagnose tools on large inputs: parse time in Node of a ~100 MB memory snapshot and of a
 * one-day, 8-GPU nvidia-smi log (86,400 samples per GPU), and the browser's time from dropping
 * the same file to the first chart (needs `npm run build` first). The inputs are generated here,
 * into node_modules/.cache/diagnose-bench/ (git-ignored), never committed. The snapshot is written
 * by CPython's pickle (tests/fixtures/diagnose/make_fixtures.py), so python3 must be on the PATH.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyGpuPattern } from '../../src/diagnose/gpu-pattern.ts';
import { parseNvidiaSmi } from '../../src/diagnose/nvidia-smi.ts';
import { readSnapshot } from '../../src/diagnose/snapshot.ts';
import { launchBrowser, openIsland } from '../browser/browser.ts';
import { startStaticServer } from '../browser/static-server.ts';

const ROOT = join(import.meta.dirname, '../..');
const DIR = join(ROOT, 'node_modules/.cache/diagnose-bench');
const SNAPSHOT = join(DIR, 'snapshot-100mb.pickle');
const SMI_LOG = join(DIR, 'nvidia-smi-1day-8gpu.csv');
/** Training steps of make_fixtures.py's simulation that give a ~96 MB pickle (about 56,000 trace entries, 20 frames each). */
const SNAPSHOT_STEPS = 390;
const SECONDS_PER_DAY = 86_400;
const GPUS = 8;

/** Writes the snapshot with CPython's pickle; false (and the snapshot rows skipped) where python3 cannot. */
function makeSnapshot(): boolean {
  if (existsSync(SNAPSHOT)) return true;
  const run = spawnSync(
    'python3',
    [join(ROOT, 'tests/fixtures/diagnose/make_fixtures.py'), '--snapshot-steps', String(SNAPSHOT_STEPS), '--out', SNAPSHOT],
    { stdio: 'inherit' },
  );
  return run.status === 0 && existsSync(SNAPSHOT);
}

/** A day of `nvidia-smi --query-gpu=timestamp,index,name,memory.used,memory.total,utilization.gpu --format=csv -l 1` on 8 H100s; GPU 3 leaks. */
function makeSmiLog(): void {
  if (existsSync(SMI_LOG)) return;
  const lines = ['timestamp, index, name, memory.used [MiB], memory.total [MiB], utilization.gpu [%]'];
  const pad = (n: number) => String(n).padStart(2, '0');
  let noise = 12345;
  for (let s = 0; s < SECONDS_PER_DAY; s++) {
    const stamp = `2025/03/14 ${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}.${String((s * 7) % 1000).padStart(3, '0')}`;
    for (let gpu = 0; gpu < GPUS; gpu++) {
      noise = (noise * 1103515245 + 12345) % 2 ** 31;
      const leak = gpu === 3 ? Math.floor(s / 3600) * 900 : 0;
      const used = s < 60 ? 4 + s * 1000 : 61_000 + leak + (noise % 200);
      lines.push(`${stamp}, ${gpu}, NVIDIA H100 80GB HBM3, ${used} MiB, 81559 MiB, ${noise % 100} %`);
    }
  }
  writeFileSync(SMI_LOG, `${lines.join('\n')}\n`);
}

/** Wall and CPU milliseconds of `work`. */
function timed<T>(work: () => T): { value: T; wallMs: number; cpuMs: number } {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = work();
  return { value, wallMs: performance.now() - start, cpuMs: process.cpuUsage(cpu).user / 1000 };
}

async function browserTimes(withSnapshot: boolean): Promise<void> {
  const dist = join(ROOT, 'dist');
  if (!existsSync(dist)) {
    console.log('  browser: no dist/ — run `npm run build` first');
    return;
  }
  const server = await startStaticServer(dist);
  const browser = await launchBrowser({ name: 'webgpu-off', webgpu: false });
  try {
    const inputs = [
      ['snapshot', '/tools/snapshot/', 'snapshot', SNAPSHOT, 'timeline'],
      ['nvidia-smi', '/tools/nvidia-smi/', 'nvidia-smi', SMI_LOG, 'memory'],
    ] as const;
    for (const [label, path, tool, file, chart] of inputs.filter(([label]) => withSnapshot || label !== 'snapshot')) {
      const page = await browser.newPage();
      const selector = `[data-tool="${tool}"]`;
      const root = await openIsland(page, server.url + path, selector);
      await page.waitForSelector(`${selector}[data-worker="ready"]`);
      // Responsiveness: the page's main thread must keep answering while the file is read.
      const started = performance.now();
      await root.locator('input[type="file"]').setInputFiles(file);
      // Each probe waits for the page to run a script and paint a frame; a blocked main thread shows as a long probe.
      let slowestFrameMs = 0;
      for (;;) {
        const t = performance.now();
        const state = await page.evaluate(
          (sel) =>
            new Promise<string>((resolve) =>
              requestAnimationFrame(() => resolve(document.querySelector<HTMLElement>(sel)?.dataset['state'] ?? '')),
            ),
          selector,
        );
        slowestFrameMs = Math.max(slowestFrameMs, performance.now() - t);
        if (state === 'done') break;
        if (performance.now() - started > 300_000) throw new Error(`${label}: no result after 5 minutes`);
      }
      await page.waitForSelector(`[data-chart="${chart}"] > [role="img"]`);
      const firstChartS = (performance.now() - started) / 1000;
      console.log(
        `  browser  ${label.padEnd(11)} drop → first chart ${firstChartS.toFixed(1).padStart(6)} s   longest the page went without painting meanwhile ${slowestFrameMs.toFixed(0)} ms`,
      );
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

/** Generates the inputs if needed, then prints Node parse times and browser times. */
export default async function bench(): Promise<void> {
  mkdirSync(DIR, { recursive: true });
  const withSnapshot = makeSnapshot();
  makeSmiLog();
  const mb = (file: string) => (statSync(file).size / 1e6).toFixed(1);
  console.log('diagnose: parse and analyse in Node (wall / CPU; wall includes other load on the machine)');
  if (withSnapshot) {
    const snapshotBytes = new Uint8Array(readFileSync(SNAPSHOT));
    const snap = timed(() => readSnapshot(snapshotBytes));
    if (!snap.value.ok) throw new Error(snap.value.message);
    console.log(
      `  node     snapshot    ${mb(SNAPSHOT)} MB, ${snap.value.analysis.devices[0]?.traceEvents ?? 0} trace entries   ${(snap.wallMs / 1000).toFixed(1)} s / ${(snap.cpuMs / 1000).toFixed(1)} s`,
    );
  } else console.log('  node     snapshot    skipped: python3 could not write the benchmark snapshot');
  const smiText = readFileSync(SMI_LOG, 'utf8');
  const smi = timed(() => parseNvidiaSmi(smiText).gpus.map((g) => classifyGpuPattern(g.samples, g.totalBytes)?.verdict));
  console.log(
    `  node     nvidia-smi  ${mb(SMI_LOG)} MB, ${GPUS} GPUs × ${SECONDS_PER_DAY} samples   ${(smi.wallMs / 1000).toFixed(1)} s / ${(smi.cpuMs / 1000).toFixed(1)} s   verdicts ${smi.value.join(',')}`,
  );
  await browserTimes(withSnapshot);
}

if (import.meta.url === `file://${process.argv[1]}`) await bench();
