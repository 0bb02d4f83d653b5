/// <reference lib="webworker" />
/**
 * Runs variants of a model in a fresh worker, so memory is measured from a clean slate: a new
 * WebGPU device (or WebAssembly heap) and a new onnxruntime-web instance. Variants in one
 * request run one after another; each one's sessions are released before the next starts,
 * because onnxruntime-web frees a session's GPU buffers only when the last session goes.
 */
import { classifyFailure } from './classify-failure';
import { batchSlice, weightFeeds } from './feeds';
import { createMemoryTracker, type MemoryTracker } from './memory-tracker';
import type { Backend, VariantRequest, VariantResult, VariantSpec, WorkerMessage } from './protocol';
import { planStep } from './step-plan';
import { installWasmHeapProbe, type WasmHeapProbe } from './wasm-heap';
import { cpuTensor, createSession, fetchGraph, openWorkerDevice, placeWeight, startRuntime, warmUpRuntime, type Ort, type Session, type Tensor, type WorkerDevice } from './worker-gpu';

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

/** What a variant runs on, shared by the variants of one request. */
interface RunContext {
  readonly ort: Ort;
  readonly backend: Backend;
  readonly gpu: WorkerDevice;
  readonly tracker: MemoryTracker;
  readonly heap: WasmHeapProbe | undefined;
  readonly modelsUrl: string;
}

async function runVariants(request: VariantRequest): Promise<VariantResult[]> {
  const { backend, modelsUrl } = request;
  const tracker = createMemoryTracker();
  const heap = backend === 'wasm' ? installWasmHeapProbe() : undefined;
  const gpu = await openWorkerDevice(backend, tracker);
  post({ type: 'progress', stage: 'Starting onnxruntime-web' });
  const ort = await startRuntime(request.wasmBinary);
  const context: RunContext = { ort, backend, gpu, tracker, heap, modelsUrl };
  const first = request.variants[0]?.model.graphs[0];
  if (first) await warmUpRuntime(ort, gpu, await fetchGraph(modelsUrl, first.file));
  const results: VariantResult[] = [];
  for (const [index, variant] of request.variants.entries()) results.push(await runVariant(context, variant, index));
  return results;
}

async function runVariant(context: RunContext, spec: VariantSpec, index: number): Promise<VariantResult> {
  const { ort, backend, gpu, tracker, heap } = context;
  const { model } = spec;
  const counted = (): number => heap?.bytes() ?? tracker.snapshot().liveBytes;
  // The WASM heap only grows and has no events, so its timeline is sampled around each run.
  const heapTimeline: { t: number; bytes: number }[] = [];
  const start = performance.now();
  const sampleHeap = (): void => {
    if (heap) heapTimeline.push({ t: performance.now() - start, bytes: heap.bytes() });
  };

  post({ type: 'progress', stage: `Loading ${model.id}` });
  const graphs = await Promise.all(model.graphs.map((g) => fetchGraph(context.modelsUrl, g.file)));
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
  const sessions: Session[] = [];
  for (const [index, bytes] of graphs.entries()) {
    // Intermediate outputs stay on the GPU and feed the next graph; results come back to the CPU.
    const outputs = (model.graphs[index]?.outputs ?? []).map((o) => o.name);
    sessions.push(await createSession(ort, gpu, bytes, (name) => !isReadBack(name), outputs));
  }
  const loadMs = performance.now() - loadStart;

  // On WebGPU the weights are uploaded once and stay resident, shared by every graph of the
  // step, as a framework keeps them; fed as CPU tensors, each session would upload its own copy.
  const weights = Object.fromEntries(Object.entries(weightFeeds(model, spec.seed)).map(([n, f]) => [n, placeWeight(ort, gpu, f)]));
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
        Object.entries(batchSlice(model, spec.batch, spec.seed, micro * microBatch, microBatch)).map(([n, f]) => [n, cpuTensor(ort, f)]),
      );
      const env = new Map<string, Tensor>(Object.entries({ ...weights, ...data, ...accumulators }));
      env.set('loss_scale', new ort.Tensor('float32', new Float32Array([1 / microBatches]), []));
      for (const [index, run] of plan.entries()) {
        const session = sessions[index];
        if (!session) throw new Error(`no session for ${run.file}`);
        const feeds = Object.fromEntries(run.inputs.map((name) => [name, env.get(name) as Tensor]));
        const outputs = await gpu.guard(session.run(feeds));
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
    adapter: gpu.adapter,
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
