/**
 * Experiment timings in headless Chromium, WASM vs WebGPU (SwiftShader here; a real GPU is
 * far faster): runtime download, session creation, step time per side, and the wall time
 * from Run to done. Builds nothing: run `npm run build` first.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BROWSER_CONFIGS, launchBrowser, openIsland, runExperimentToEnd } from '../browser/browser.ts';
import { startStaticServer } from '../browser/static-server.ts';
import { EXPERIMENT_PAGES } from '../browser/experiment-pages.ts';
import { lessonHref } from '../../src/base/lessons.ts';

/** `LAB_ONLY=offload,leak npm run bench lab` times only those experiments (the full set takes minutes). */
const only = (process.env['LAB_ONLY'] ?? '').split(',').filter(Boolean);
const selected = (id: string): boolean => only.length === 0 || only.includes(id);

export default async function bench(): Promise<void> {
  const dist = join(import.meta.dirname, '../../dist');
  if (!existsSync(dist)) {
    console.log('lab: no dist/ — run `npm run build` first');
    return;
  }
  const server = await startStaticServer(dist);
  console.log(
    'lab: default sizes, in seconds. WASM: width 256, 8 layers, batch 512 (leak: 4 layers, batch 64, 10 steps; offload: width 512, batch 64).',
  );
  console.log(
    '     SwiftShader (software adapter) starts at width 128: batch 128 (gradient accumulation: 4 layers, batch 256); cluster: 2 virtual GPUs, pipeline 4 micro-batches.',
  );
  console.log('config       experiment               backend  runtime  load   step before  step after  Run→done');
  try {
    for (const config of BROWSER_CONFIGS) {
      const browser = await launchBrowser(config);
      try {
        // For a cluster experiment "step before/after" is the slowest device's step; load is one device's sessions.
        for (const [id, path] of EXPERIMENT_PAGES.filter(([id]) => selected(id))) {
          const page = await browser.newPage();
          const runtime: number[] = [];
          page.on('requestfinished', (request) => {
            if (request.url().endsWith('.wasm')) runtime.push(request.timing().responseEnd);
          });
          const selector = `[data-experiment="${id}"]`;
          const root = await openIsland(page, server.url + path, selector);
          const started = performance.now();
          await runExperimentToEnd(page, root, selector, 300_000);
          const wall = (performance.now() - started) / 1000;
          const d = await root.evaluate((el) => ({ ...(el as HTMLElement).dataset }));
          // An experiment that refused to run (needs WebGPU) has no timings: a dash, not NaN.
          const s = (ms: string | undefined) => (ms === undefined ? '—' : (Number(ms) / 1000).toFixed(2)).padStart(6);
          console.log(
            `${config.name.padEnd(12)} ${id.padEnd(24)} ${(d['backend'] ?? d['state'] ?? '?').padEnd(8)} ${((runtime[0] ?? 0) / 1000).toFixed(2).padStart(6)}  ${s(d['loadMs'])}  ${s(d['beforeStepMs'])}       ${s(d['afterStepMs'])}      ${wall.toFixed(1).padStart(6)}`,
          );
          await page.close();
        }
      } finally {
        await browser.close();
      }
    }
    if (selected('distillation')) await benchDistillation(server.url);
  } finally {
    await server.close();
  }
}

/**
 * The distillation experiment measures forward passes and trains a student rather than timing
 * two steps, so it gets a table of its own: forward time of each model at the measured batch
 * (64), the student's two training runs together, and the wall time from Run to done.
 */
async function benchDistillation(baseUrl: string): Promise<void> {
  const selector = '[data-experiment="distillation"]';
  console.log('\ndistillation: batch 64; forward passes in ms, training and Run→done in seconds');
  console.log('config       backend  teacher fwd  int8 fwd  student fwd  student training  Run→done');
  for (const config of BROWSER_CONFIGS) {
    const browser = await launchBrowser(config);
    try {
      const page = await browser.newPage();
      const root = await openIsland(page, baseUrl + lessonHref('distillation-and-compression'), selector);
      const started = performance.now();
      await runExperimentToEnd(page, root, selector, 300_000);
      const wall = (performance.now() - started) / 1000;
      const d = await root.evaluate((el) => ({ ...(el as HTMLElement).dataset }));
      const ms = (name: string) => String(d[name] ?? '?').padStart(8);
      console.log(
        `${config.name.padEnd(12)} ${(d['backend'] ?? d['state'] ?? '?').padEnd(8)} ${ms('teacherForwardMs')}     ${ms('int8ForwardMs')}  ${ms('studentForwardMs')}     ${(Number(d['studentTrainMs']) / 1000).toFixed(2).padStart(8)}          ${wall.toFixed(1).padStart(6)}`,
      );
    } finally {
      await browser.close();
    }
  }
}
