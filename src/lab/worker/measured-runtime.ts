/// <reference lib="webworker" />
/**
 * What every lab worker needs before it measures: a WebGPU device of its own (with every storage
 * buffer counted) or the WebAssembly heap probed, onnxruntime-web started from the binary the
 * page downloaded, and one throw-away session, all assembled into the measuring core's
 * executor. Each worker is one "GPU": a fresh device and a fresh runtime, so its measurement
 * starts from a clean slate.
 */
import type { LabRuntime } from '../page/runtime-loader';
import { createExecutor, type Executor, type Ort, type StepBytes } from '../measure/executor';
import { hostStore } from '../measure/host-store';
import { createMemoryTracker, type MemoryTracker } from '../measure/memory-tracker';
import { createMeter } from '../measure/meter';
import type { Backend } from '../measure/executor';
import type { RunStage } from '../measure/run-stage';
import { installWasmHeapProbe } from './wasm-heap';
import { installWebGpuHooks } from './webgpu-hooks';
import { webGpuStore } from './webgpu-store';

/**
 * Opens this worker's device with the tracker's hooks installed first, so every storage buffer
 * onnxruntime-web and we create is counted.
 */
async function openWorkerDevice(tracker: MemoryTracker): Promise<{ device: GPUDevice; adapter: string }> {
  installWebGpuHooks(tracker);
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

/**
 * Loads onnxruntime-web on the module the page compiled (never fetched from a CDN). The runtime
 * takes only bytes (`env.wasm.wasmBinary`) and instantiates them with `WebAssembly.instantiate`;
 * it has no option for a compiled module, so that call is redirected to the page's module, which
 * lets every worker share the machine code compiled so far (see `loadRuntime`). The empty
 * binary only tells the runtime not to fetch one.
 */
async function startRuntime(runtime: LabRuntime): Promise<Ort> {
  const { module } = runtime;
  const instantiate = WebAssembly.instantiate.bind(WebAssembly);
  WebAssembly.instantiate = ((source: BufferSource | WebAssembly.Module, imports?: WebAssembly.Imports) =>
    source instanceof WebAssembly.Module
      ? instantiate(source, imports)
      : instantiate(module, imports).then((instance) => ({ module, instance }))) as typeof WebAssembly.instantiate;
  // The JavaScript half must match the module's build.
  const ort: Ort = runtime.build === 'jspi' ? await import('onnxruntime-web/jspi') : await import('onnxruntime-web/webgpu');
  ort.env.wasm.wasmBinary = new ArrayBuffer(0);
  ort.env.wasm.numThreads = 1; // no cross-origin isolation on static hosting
  ort.env.logLevel = 'error';
  return ort;
}

/** Fetches a graph file named in the manifest. */
async function fetchGraph(modelsUrl: string, file: string): Promise<Uint8Array> {
  const response = await fetch(modelsUrl + file);
  if (!response.ok) throw new Error(`Could not load ${file}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** Where a worker's measuring starts. */
export interface MeasuredRuntimeOptions {
  readonly backend: Backend;
  readonly runtime: LabRuntime;
  /** URL of the folder that holds the manifest's graph files (ends with `/`). */
  readonly modelsUrl: string;
  /** A graph file to open and release once before measuring, if any. */
  readonly warmUpFile: string | undefined;
  readonly progress: (stage: RunStage, sample?: StepBytes) => void;
}

/**
 * Sets up a worker for measuring: counters first (device hooks, heap probe), then the device and
 * onnxruntime-web, then one throw-away session of `warmUpFile`, so every measurement that
 * follows starts from "runtime ready, no model": onnxruntime-web sets up its WebAssembly instance
 * (and WebGPU backend) at the first session.
 */
export async function startMeasuredRuntime({
  backend,
  runtime,
  modelsUrl,
  warmUpFile,
  progress,
}: MeasuredRuntimeOptions): Promise<Executor> {
  const tracker = createMemoryTracker();
  const heap = backend === 'wasm' ? installWasmHeapProbe() : undefined;
  const gpu = backend === 'webgpu' ? await openWorkerDevice(tracker) : undefined;
  const ort = await startRuntime(runtime);
  const store = gpu ? webGpuStore(ort, gpu.device, gpu.adapter) : hostStore(ort);
  const loadGraph = (file: string): Promise<Uint8Array> => fetchGraph(modelsUrl, file);
  const exec = createExecutor({ ort, backend, store, meter: createMeter(tracker, heap), loadGraph, progress });
  if (warmUpFile) {
    const session = await store.guard(
      ort.InferenceSession.create(await loadGraph(warmUpFile), {
        executionProviders: [store.executionProvider],
        logSeverityLevel: 3,
      }),
    );
    await session.release();
  }
  return exec;
}
