/**
 * Records what onnxruntime-web really does with GPU memory in each experiment that runs there, on
 * Chromium's software WebGPU adapter (SwiftShader): every storage buffer created and destroyed,
 * every queue submission (onnxruntime flushes its pending work with one, and only a flush lets
 * it reuse a freed buffer), and every write and read-back, worker by worker. The traces land in
 * tests/fixtures/lab/traces/ and the runtime model's tests replay them. Re-record after upgrading
 * onnxruntime-web: `npm run build && npx tsx scripts/record-lab-traces.ts`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExperimentTrace, TraceEvent } from '../src/lab/runtime-model/recorded-trace.ts';
import { launchBrowser, openIsland, runExperimentToEnd } from './browser/browser.ts';
import { lessonHref } from '../src/base/lessons.ts';
import { EXPERIMENT_PAGES } from './browser/experiment-pages.ts';
import { startStaticServer } from './browser/static-server.ts';

/**
 * The experiments that run on WebGPU here (SwiftShader has no shader-f16 for mixed precision), and
 * their pages: the lab's, and lesson 7's distillation experiment.
 */
const EXPERIMENTS: readonly (readonly [string, string])[] = [
  ...EXPERIMENT_PAGES.filter(([id]) => id !== 'mixed-precision'),
  ['distillation', lessonHref('distillation-and-compression')],
];

/** The onnxruntime-web the site bundles: the runtime the traces describe. */
const ONNXRUNTIME_WEB_VERSION = (
  JSON.parse(readFileSync(join(import.meta.dirname, '../node_modules/onnxruntime-web/package.json'), 'utf8')) as {
    version: string;
  }
).version;

/** Marks the console lines that carry trace events, so other output is left alone. */
const TRACE_PREFIX = 'lab-trace ';

/**
 * Installed in each lab worker before it opens its device: wraps the WebGPU calls that allocate,
 * free, submit, write and read, and prints the events in batches on the console.
 */
function installTraceHooks(prefix: string): void {
  const scope = globalThis as unknown as { __labTraceInstalled?: boolean };
  if (scope.__labTraceInstalled) return;
  scope.__labTraceInstalled = true;
  const ids = new WeakMap<object, number>();
  let next = 0;
  let events: (readonly [string, number, number])[] = [];
  const emit = (event: readonly [string, number, number]): void => {
    events.push(event);
    if (events.length >= 500) flush();
  };
  const flush = (): void => {
    if (events.length === 0) return;
    console.debug(prefix + JSON.stringify(events));
    events = [];
  };
  const STORAGE = 0x80;
  const device = GPUDevice.prototype;
  const buffer = GPUBuffer.prototype;
  const queue = GPUQueue.prototype;
  const createBuffer = device.createBuffer;
  // Only writes into storage buffers are kept: onnxruntime also writes every dispatch's uniforms.
  device.createBuffer = function (this: GPUDevice, descriptor: GPUBufferDescriptor): GPUBuffer {
    const created = createBuffer.call(this, descriptor);
    if ((descriptor.usage & STORAGE) !== 0) {
      ids.set(created, ++next);
      emit(['c', next, descriptor.size]);
    }
    return created;
  };
  const destroy = buffer.destroy;
  buffer.destroy = function (this: GPUBuffer): undefined {
    const id = ids.get(this);
    if (id !== undefined) emit(['d', id, 0]);
    return destroy.call(this);
  };
  const submit = queue.submit;
  queue.submit = function (this: GPUQueue, commands: Iterable<GPUCommandBuffer>): undefined {
    emit(['s', 0, 0]);
    return submit.call(this, commands);
  };
  const writeBuffer = queue.writeBuffer;
  queue.writeBuffer = function (this: GPUQueue, target: GPUBuffer, ...rest: unknown[]): undefined {
    const data = rest[1] as ArrayBufferView | ArrayBuffer;
    const id = ids.get(target);
    if (id !== undefined) emit(['w', id, data.byteLength]);
    return (writeBuffer as (...args: unknown[]) => undefined).call(this, target, ...rest);
  };
  const mapAsync = buffer.mapAsync;
  buffer.mapAsync = function (this: GPUBuffer, ...args: Parameters<GPUBuffer['mapAsync']>): Promise<undefined> {
    emit(['r', 0, this.size]);
    flush();
    return mapAsync.apply(this, args);
  };
  // The page ends a worker as soon as its result arrives: print what is batched before any message.
  const post = globalThis.postMessage.bind(globalThis) as (...args: unknown[]) => void;
  (globalThis as unknown as { postMessage: (...args: unknown[]) => void }).postMessage = (...args: unknown[]) => {
    flush();
    post(...args);
  };
}

/**
 * A width to record at instead of the one the experiment starts at (`LAB_WIDTH=256`): the runtime
 * model is tested at a larger size too. Its traces go to `<experiment>.h<width>.json`.
 */
const width = process.env['LAB_WIDTH'] ? Number(process.env['LAB_WIDTH']) : undefined;

/**
 * A batch to type instead of the one the experiment starts at (`LAB_BATCH=512`), for the
 * experiments sized by their batch alone (distillation). Its traces go to `<experiment>.b<batch>.json`.
 */
const batch = process.env['LAB_BATCH'] ? Number(process.env['LAB_BATCH']) : undefined;

/** The trace file's suffix for the size chosen before Run, if any. */
const sizeSuffix = `${width === undefined ? '' : `.h${width}`}${batch === undefined ? '' : `.b${batch}`}`;

async function recordExperiment(baseUrl: string, id: string, path: string): Promise<ExperimentTrace> {
  const browser = await launchBrowser({ name: 'webgpu-on', webgpu: true });
  try {
    const page = await browser.newPage();
    const workers: TraceEvent[][] = [];
    page.on('worker', (worker) => {
      const events: TraceEvent[] = [];
      workers.push(events);
      worker.on('console', (message) => {
        const text = message.text();
        if (text.startsWith(TRACE_PREFIX)) events.push(...(JSON.parse(text.slice(TRACE_PREFIX.length)) as TraceEvent[]));
      });
      // tsx names functions through a `__name` helper the worker lacks: give it one first.
      worker
        .evaluate('globalThis.__name = (f) => f')
        .then(() => worker.evaluate(installTraceHooks, TRACE_PREFIX))
        .catch((error: unknown) => console.warn(`${id}: no hooks: ${String(error)}`));
    });
    const selector = `[data-experiment="${id}"]`;
    const root = await openIsland(page, baseUrl + path, selector);
    if (width !== undefined) await root.getByLabel('Width').selectOption(String(width));
    if (batch !== undefined) await root.getByLabel('Batch').fill(String(batch));
    await runExperimentToEnd(page, root, selector, 600_000);
    const data = await root.evaluate((el) => ({ ...(el as HTMLElement).dataset }) as Record<string, string>);
    return {
      experiment: id,
      ...(width === undefined ? {} : { hidden: width }),
      ...(batch === undefined ? {} : { batch }),
      onnxruntimeWeb: ONNXRUNTIME_WEB_VERSION,
      data,
      workers: workers.filter((events) => events.length > 0),
    };
  } finally {
    await browser.close();
  }
}

const only = (process.env['LAB_ONLY'] ?? '').split(',').filter(Boolean);
const dist = join(import.meta.dirname, '../dist');
const out = join(import.meta.dirname, '../tests/fixtures/lab/traces');
mkdirSync(out, { recursive: true });
const server = await startStaticServer(dist);
try {
  for (const [id, path] of EXPERIMENTS.filter(([id]) => only.length === 0 || only.includes(id))) {
    const trace = await recordExperiment(server.url, id, path);
    writeFileSync(join(out, `${id}${sizeSuffix}.json`), JSON.stringify(trace) + '\n');
    console.log(`${id}: ${trace.workers.map((w) => w.length).join(' + ')} events, state ${trace.data['state']}`);
  }
} finally {
  await server.close();
}
