/// <reference lib="webworker" />
/**
 * Runs variants of a model in a fresh worker, so memory is measured from a clean slate: a new
 * WebGPU device (or WebAssembly heap) and a new onnxruntime-web instance. Variants in one
 * request run one after another; each one's sessions are released before the next starts,
 * because onnxruntime-web frees a session's GPU buffers only when the last session goes.
 */
import type * as OrtModule from 'onnxruntime-web';
import { classifyFailure } from './classify-failure';
import { batchSlice, weightFeeds, type FeedData } from './feeds';
import { createMemoryTracker, type MemoryTracker } from './memory-tracker';
import type { Backend, VariantRequest, VariantResult, VariantSpec, WorkerMessage } from './protocol';
import { planStep } from './step-plan';
import { installWasmHeapProbe, type WasmHeapProbe } from './wasm-heap';
import { installWebGpuHooks } from './webgpu-hooks';

type Ort = typeof OrtModule;
type Tensor = OrtModule.Tensor;

const post = (message: WorkerMessage, transfer: Transferable[] = []): void => self.postMessage(message, transfer);

self.onmessage = (event: MessageEvent<VariantRequest>) => {
  runVariants(event.data).then(
    (results) => post({ type: 'result', results }, results.flatMap((r) => Object.values(r.gradients).map((g) => g.buffer as ArrayBuffer))),
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      post({ type: 'error', kind: classifyFailure(message), message });
    },
  );
};

/** Fails the run when the device reports an error that no promise carries (OOM, loss). */
function watchDevice(device: GPUDevice): Promise<never> {
  return new Promise((_, reject) => {
    device.addEventListener('uncapturederror', (event) => {
      const { error } = event as GPUUncapturedErrorEvent;
      reject(new Error(`${error.constructor.name}: ${error.message}`));
    });
    void device.lost.then((info) => reject(new Error(`Device was lost: ${info.reason} ${info.message}`)));
  });
}

async function openDevice(): Promise<{ device: GPUDevice; adapter: string }> {
  const adapter = await navigator.gpu?.requestAdapter();
  if (!adapter) throw new Error('Failed to get GPU adapter: WebGPU is not available in this browser');
  const features: GPUFeatureName[] = adapter.features.has('shader-f16') ? ['shader-f16'] : [];
  const device = await adapter.requestDevice({
    requiredFeatures: features,
    requiredLimits: {
      maxBufferSize: adapter.limits.maxBufferSize,
      maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
    },
  });
  const { vendor, architecture, description } = adapter.info;
  return { device, adapter: [vendor, architecture, description].filter(Boolean).join(' ') || 'unknown adapter' };
}

/** What a variant runs on, shared by the variants of one request. */
interface RunContext {
  readonly ort: Ort;
  readonly backend: Backend;
  readonly device: GPUDevice | undefined;
  readonly adapter: string | null;
  readonly tracker: MemoryTracker;
  readonly heap: WasmHeapProbe | undefined;
  readonly modelsUrl: string;
  /** Races a promise against device errors. */
  readonly guard: <T>(promise: Promise<T>) => Promise<T>;
}

async function runVariants(request: VariantRequest): Promise<VariantResult[]> {
  const { backend } = request;
  const tracker = createMemoryTracker();
  const heap = backend === 'wasm' ? installWasmHeapProbe() : undefined;
  let device: GPUDevice | undefined;
  let adapter: string | null = null;
  if (backend === 'webgpu') {
    installWebGpuHooks(tracker);
    ({ device, adapter } = await openDevice());
  }

  post({ type: 'progress', stage: 'Starting onnxruntime-web' });
  const ort: Ort = await import('onnxruntime-web/webgpu');
  ort.env.wasm.wasmBinary = request.wasmBinary;
  ort.env.wasm.numThreads = 1; // no cross-origin isolation on static hosting
  ort.env.logLevel = 'error';

  const failure = device ? watchDevice(device) : new Promise<never>(() => {});
  const guard = <T>(promise: Promise<T>): Promise<T> => Promise.race([promise, failure]);
  const context: RunContext = { ort, backend, device, adapter, tracker, heap, modelsUrl: request.modelsUrl, guard };
  await warmUpRuntime(context, request.variants[0]);
  const results: VariantResult[] = [];
  for (const [index, variant] of request.variants.entries()) results.push(await runVariant(context, variant, index));
  return results;
}

/** A float32 tensor whose data lives in a GPU buffer of its own, destroyed on `dispose()`. */
function residentTensor(ort: Ort, device: GPUDevice, feed: FeedData): Tensor {
  const data = feed.data as Float32Array;
  // WebGPU buffer sizes must be multiples of 4 bytes; float32 data always is.
  const buffer = device.createBuffer({ size: Math.max(4, data.byteLength), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(buffer, 0, data as Float32Array<ArrayBuffer>);
  return ort.Tensor.fromGpuBuffer(buffer, { dataType: 'float32', dims: feed.dims, dispose: () => buffer.destroy() });
}

/** Fetches a graph file of the manifest. */
async function fetchGraph(context: RunContext, file: string): Promise<Uint8Array> {
  const response = await fetch(context.modelsUrl + file);
  if (!response.ok) throw new Error(`Could not load ${file}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * onnxruntime-web sets up its WebAssembly instance (and WebGPU backend) at the first session.
 * Creating and releasing one session before measuring keeps that start-up out of every
 * variant's numbers, so a baseline means "runtime ready, no model".
 */
async function warmUpRuntime(context: RunContext, first: VariantSpec | undefined): Promise<void> {
  const graph = first?.model.graphs[0];
  if (!graph) return;
  const session = await context.guard(
    context.ort.InferenceSession.create(await fetchGraph(context, graph.file), {
      executionProviders: context.backend === 'webgpu' ? [{ name: 'webgpu', device: context.device }] : ['wasm'],
      logSeverityLevel: 3,
    }),
  );
  await session.release();
}

async function runVariant(context: RunContext, spec: VariantSpec, index: number): Promise<VariantResult> {
  const { ort, backend, device, tracker, heap, guard } = context;
  const { model } = spec;
  const counted = (): number => heap?.bytes() ?? tracker.snapshot().liveBytes;
  // The WASM heap only grows and has no events, so its timeline is sampled around each run.
  const heapTimeline: { t: number; bytes: number }[] = [];
  const start = performance.now();
  const sampleHeap = (): void => {
    if (heap) heapTimeline.push({ t: performance.now() - start, bytes: heap.bytes() });
  };

  post({ type: 'progress', stage: `Loading ${model.id}` });
  const graphs = await Promise.all(model.graphs.map((g) => fetchGraph(context, g.file)));
  const baselineBytes = counted();
  const timelineStart = tracker.snapshot().timeline.length;
  sampleHeap();
  tracker.beginPhase(model.id);

  const parameterGradients = new Set(model.parameters.map((p) => `grad.${p.name}`));
  // Results are kept to the end; only the loss and plain gradients are read back per run.
  // In a loop the gradients stay on the GPU (as in a framework) so that what a step keeps shows there.
  const isReadBack = (name: string): boolean => name === 'loss' || (!spec.loop && parameterGradients.has(name));
  const isResult = (name: string): boolean => name === 'loss' || parameterGradients.has(name) || name.startsWith('acc_out.');

  const loadStart = performance.now();
  const sessions: OrtModule.InferenceSession[] = [];
  for (const [index, bytes] of graphs.entries()) {
    // Intermediate outputs stay on the GPU and feed the next graph; results come back to the CPU.
    const outputs = model.graphs[index]?.outputs ?? [];
    const location = Object.fromEntries(outputs.map((o) => [o.name, backend === 'webgpu' && !isReadBack(o.name) ? 'gpu-buffer' : 'cpu'] as const));
    // One after another: onnxruntime-web refuses to create WebGPU sessions concurrently.
    sessions.push(
      await guard(
        ort.InferenceSession.create(bytes, {
          executionProviders: backend === 'webgpu' ? [{ name: 'webgpu', device }] : ['wasm'],
          preferredOutputLocation: location,
          logSeverityLevel: 3,
        }),
      ),
    );
  }
  const loadMs = performance.now() - loadStart;

  const toTensor = (feed: FeedData): Tensor =>
    feed.data instanceof BigInt64Array ? new ort.Tensor('int64', feed.data, feed.dims) : new ort.Tensor('float32', feed.data, feed.dims);
  // On WebGPU the weights are uploaded once and stay resident, shared by every graph of the
  // step, as a framework keeps them; fed as CPU tensors, each session would upload its own copy.
  const weights = Object.fromEntries(
    Object.entries(weightFeeds(model, spec.seed)).map(([n, f]) => [n, device ? residentTensor(ort, device, f) : toTensor(f)]),
  );
  sampleHeap();
  const setupBytes = counted();

  const external = new Set([...Object.keys(weights), 'x', 'tokens', 'labels', 'loss_scale', ...model.parameters.map((p) => `acc_in.${p.name}`)]);
  const plan = planStep(model.graphs, external, isResult);
  const microBatches = model.variant.accumulate ? spec.microBatches : 1;
  const microBatch = spec.batch / microBatches;
  if (!Number.isInteger(microBatch) || microBatch < 1) throw new Error(`batch ${spec.batch} does not split into ${microBatches} micro-batches`);

  let results: Record<string, Tensor> = {};
  // What a leaky loop holds on to: every earlier step's gradients.
  const retained: Tensor[] = [];
  const stepBytes: number[] = [];
  let loss = 0;
  let stepMs = 0;
  for (let step = 0; step < spec.steps; step++) {
    post({ type: 'progress', stage: `step ${step + 1} of ${spec.steps}${step === 0 && backend === 'webgpu' ? ' (compiling shaders)' : ''}` });
    const stepStart = performance.now();
    // Drop the previous step's gradients before this one starts, as `zero_grad(set_to_none=True)`
    // does; kept, they would inflate this step's peak by a whole set of gradients.
    if (!spec.loop?.retain) for (const tensor of Object.values(results)) tensor.dispose();
    else retained.push(...Object.values(results).filter((t) => t !== results['loss']));
    results = {};
    loss = 0;
    let accumulators: Record<string, Tensor> = Object.fromEntries(
      model.parameters.map((p) => [`acc_in.${p.name}`, new ort.Tensor('float32', new Float32Array(p.shape.reduce((a, b) => a * b, 1)), p.shape)]),
    );
    for (let micro = 0; micro < microBatches; micro++) {
      const data = Object.fromEntries(
        Object.entries(batchSlice(model, spec.batch, spec.seed, micro * microBatch, microBatch)).map(([n, f]) => [n, toTensor(f)]),
      );
      const env = new Map<string, Tensor>(Object.entries({ ...weights, ...data, ...accumulators }));
      env.set('loss_scale', new ort.Tensor('float32', new Float32Array([1 / microBatches]), []));
      for (const [index, run] of plan.entries()) {
        const session = sessions[index];
        if (!session) throw new Error(`no session for ${run.file}`);
        const feeds = Object.fromEntries(run.inputs.map((name) => [name, env.get(name) as Tensor]));
        const outputs = await guard(session.run(feeds));
        sampleHeap();
        for (const [name, tensor] of Object.entries(outputs)) env.set(name, tensor);
        for (const name of run.release) {
          env.get(name)?.dispose();
          env.delete(name);
        }
      }
      // Each micro-batch's loss is already scaled by 1/k, so the step's loss is their sum.
      loss += Number(((await env.get('loss')?.getData()) as Float32Array | undefined)?.[0] ?? Number.NaN);
      // This micro-batch's accumulated gradients are the next one's starting point.
      const next: Record<string, Tensor> = {};
      for (const p of model.parameters) {
        const out = env.get(`acc_out.${p.name}`);
        if (out) next[`acc_in.${p.name}`] = out;
      }
      for (const old of Object.values(accumulators)) old.dispose();
      accumulators = next;
      results = Object.fromEntries([...env].filter(([name]) => isResult(name)));
    }
    stepMs = performance.now() - stepStart;
    sampleHeap();
    stepBytes.push(Math.max(0, counted() - baselineBytes));
    post({ type: 'progress', stage: `step ${step + 1} of ${spec.steps}`, sample: { variant: index, step: step + 1, bytes: stepBytes[stepBytes.length - 1] ?? 0 } });
  }
  for (const tensor of retained) tensor.dispose();

  const gradients: Record<string, Float32Array> = {};
  for (const p of model.parameters) {
    const tensor = results[`grad.${p.name}`] ?? results[`acc_out.${p.name}`];
    if (tensor) gradients[p.name] = Float32Array.from((await tensor.getData()) as Float32Array);
  }
  for (const tensor of Object.values(results)) tensor.dispose();
  for (const tensor of Object.values(weights)) tensor.dispose();
  for (const session of sessions) await session.release();
  tracker.endPhase();

  const snapshot = tracker.snapshot();
  const phase = snapshot.phases.at(-1);
  const startT = snapshot.timeline[timelineStart]?.t ?? 0;
  return {
    backend,
    adapter: context.adapter,
    memory: {
      kind: heap ? 'wasm-heap' : 'webgpu-buffers',
      baselineBytes,
      peakBytes: heap ? heap.bytes() : (phase?.peakBytes ?? snapshot.peakBytes),
      setupBytes,
      phases: heap ? [] : snapshot.phases,
      timeline: heap ? heapTimeline : snapshot.timeline.slice(timelineStart).map((p) => ({ t: p.t - startT, bytes: p.bytes - baselineBytes })),
    },
    stepBytes,
    stepMs,
    loadMs,
    loss,
    gradients,
  };
}
