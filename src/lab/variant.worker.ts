/// <reference lib="webworker" />
/**
 * Runs variants of a model in a fresh worker, so memory is measured from a clean slate: a new
 * WebGPU device (or WebAssembly heap) and a new onnxruntime-web instance. Variants in one
 * request run one after another; each one's sessions are released before the next starts,
 * because onnxruntime-web frees a session's GPU buffers only when the last session goes.
 */
import { batchSlice, weightFeeds } from './feeds';
import type { MemoryTracker } from './memory-tracker';
import type { Backend, StepTransfer, StepSample, VariantRequest, VariantResult, VariantSpec } from './protocol';
import { runPlan } from './run-plan';
import { planStep } from './step-plan';
import { postProgress, serveRequests } from './worker-channel';
import type { WasmHeapProbe } from './wasm-heap';
import { warmsUp, warmUpBatch } from './warm-up';
import { residentWeights, streamedWeights } from './weight-placement';
import { cpuTensor, createSession, fetchGraph, startMeasuredRuntime, type Ort, type Session, type Tensor, type WorkerDevice } from './worker-gpu';

serveRequests(runVariants, (results) => results.flatMap((r) => Object.values(r.gradients).map((g) => g.buffer as ArrayBuffer)));

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
  postProgress('Starting onnxruntime-web');
  const { ort, gpu, tracker, heap } = await startMeasuredRuntime(backend, request.runtime, modelsUrl, request.variants[0]?.model.graphs[0]?.file);
  const context: RunContext = { ort, backend, gpu, tracker, heap, modelsUrl };
  const results: VariantResult[] = [];
  for (const [index, variant] of request.variants.entries()) {
    // The warm-up step (warm-up.ts): its buffers go with its sessions, before the baseline is taken.
    if (warmsUp(backend)) await runVariant(context, { ...variant, batch: warmUpBatch(variant.microBatches), steps: 1 }, index, true);
    results.push(await runVariant(context, variant, index, false));
  }
  return results;
}

async function runVariant(context: RunContext, spec: VariantSpec, index: number, warmUp: boolean): Promise<VariantResult> {
  const { ort, backend, gpu, tracker, heap } = context;
  const { model } = spec;
  const counted = (): number => heap?.bytes() ?? tracker.snapshot().liveBytes;
  // The WASM heap only grows and has no events, so its timeline is sampled around each run.
  const heapTimeline: { t: number; bytes: number }[] = [];
  const start = performance.now();
  const sampleHeap = (): void => {
    if (heap) heapTimeline.push({ t: performance.now() - start, bytes: heap.bytes() });
  };

  if (!warmUp) postProgress(`Loading ${model.id}`);
  const graphs = await Promise.all(model.graphs.map((g) => fetchGraph(context.modelsUrl, g.file)));
  const baselineBytes = counted();
  const timelineStart = tracker.snapshot().timeline.length;
  sampleHeap();
  tracker.beginPhase(model.id);

  const parameterGradients = new Set(model.parameters.map((p) => `grad.${p.name}`));
  // Results are kept to the end; the loss is read back per run, and gradients too where they
  // go to the host. In a loop they stay on the GPU (as in a framework) so that what a step keeps shows there.
  const gradientsOn = spec.gradients ?? (spec.loop ? 'gpu' : 'host');
  const isReadBack = (name: string): boolean => name === 'loss' || (gradientsOn === 'host' && parameterGradients.has(name));
  const isResult = (name: string): boolean => name === 'loss' || parameterGradients.has(name) || name.startsWith('acc_out.');

  const loadStart = performance.now();
  const sessions: Session[] = [];
  for (const [index, bytes] of graphs.entries()) {
    // Intermediate outputs stay on the GPU and feed the next graph; results come back to the CPU.
    const outputs = (model.graphs[index]?.outputs ?? []).map((o) => o.name);
    sessions.push(await createSession(ort, gpu, bytes, (name) => !isReadBack(name), outputs));
  }
  const loadMs = performance.now() - loadStart;

  const weightData = weightFeeds(model, spec.seed);
  const external = new Set([...Object.keys(weightData), 'x', 'tokens', 'labels', 'loss_scale', ...model.parameters.map((p) => `acc_in.${p.name}`)]);
  const plan = planStep(model.graphs, external, isResult);
  // Resident: on WebGPU the weights are uploaded once, shared by every graph of the step, as a
  // framework keeps them (fed as CPU tensors, each session would upload its own copy).
  // Streamed: they stay host arrays and each graph's are uploaded around its run.
  const placement = spec.weights === 'streamed' ? streamedWeights(ort, gpu, weightData, plan) : residentWeights(ort, gpu, weightData);
  sampleHeap();
  const setupBytes = counted();

  const microBatches = model.variant.accumulate ? spec.microBatches : 1;
  const microBatch = spec.batch / microBatches;
  if (!Number.isInteger(microBatch) || microBatch < 1) throw new Error(`batch ${spec.batch} does not split into ${microBatches} micro-batches`);

  let results: Record<string, Tensor> = {};
  // What a leaky loop holds on to: every earlier step's gradients.
  const retained: Tensor[] = [];
  const stepBytes: number[] = [];
  let loss = 0;
  let stepMs = 0;
  let transfer: StepTransfer = { uploadedBytes: 0, uploadMs: 0, downloadedBytes: 0 };
  for (let step = 0; step < spec.steps; step++) {
    postProgress(warmUp ? `compiling shaders (one step at batch ${spec.batch})` : `step ${step + 1} of ${spec.steps}`);
    const stepStart = performance.now();
    // Drop the previous step's gradients before this one starts, as `zero_grad(set_to_none=True)`
    // does; kept, they would inflate this step's peak by a whole set of gradients.
    if (!spec.loop?.retain) for (const tensor of Object.values(results)) tensor.dispose();
    else retained.push(...Object.values(results).filter((t) => t !== results['loss']));
    results = {};
    loss = 0;
    let downloadedBytes = 0;
    let accumulators: Record<string, Tensor> = Object.fromEntries(
      model.parameters.map((p) => [`acc_in.${p.name}`, new ort.Tensor('float32', new Float32Array(p.shape.reduce((a, b) => a * b, 1)), p.shape)]),
    );
    for (let micro = 0; micro < microBatches; micro++) {
      const data = Object.fromEntries(
        Object.entries(batchSlice(model, spec.batch, spec.seed, micro * microBatch, microBatch)).map(([n, f]) => [n, cpuTensor(ort, f)]),
      );
      const env = new Map<string, Tensor>(Object.entries({ ...data, ...accumulators }));
      env.set('loss_scale', new ort.Tensor('float32', new Float32Array([1 / microBatches]), []));
      await runPlan(plan, sessions, env, gpu.guard, {
        feeds: (index) => placement.feeds(index),
        // The next graph's weights upload while this one executes.
        whileRunning: (index) => placement.prefetch(index),
        afterRun: (_, index, outputs) => {
          placement.release(index);
          sampleHeap();
          for (const [name, tensor] of Object.entries(outputs)) {
            if (gpu.device && tensor.location === 'cpu' && parameterGradients.has(name)) downloadedBytes += (tensor.data as Float32Array).byteLength;
          }
        },
      });
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
    transfer = { ...placement.takeTransfer(), downloadedBytes };
    sampleHeap();
    stepBytes.push(Math.max(0, counted() - baselineBytes));
    if (!warmUp) postProgress<StepSample>(`step ${step + 1} of ${spec.steps}`, { variant: index, step: step + 1, bytes: stepBytes[stepBytes.length - 1] ?? 0 });
  }
  for (const tensor of retained) tensor.dispose();

  const gradients: Record<string, Float32Array> = {};
  for (const p of model.parameters) {
    const tensor = results[`grad.${p.name}`] ?? results[`acc_out.${p.name}`];
    if (tensor) gradients[p.name] = Float32Array.from((await tensor.getData()) as Float32Array);
  }
  for (const tensor of Object.values(results)) tensor.dispose();
  placement.dispose();
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
      timeline: heap ? heapTimeline.map((p) => ({ t: p.t, bytes: p.bytes - baselineBytes })) : snapshot.timeline.slice(timelineStart).map((p) => ({ t: p.t - startT, bytes: p.bytes - baselineBytes })),
    },
    stepBytes,
    stepMs,
    transfer,
    loadMs,
    loss,
    gradients,
  };
}
