/// <reference lib="webworker" />
/**
 * What every lab worker needs before it runs a graph: a WebGPU device of its own (with every
 * storage buffer counted), onnxruntime-web started from the binary the page downloaded, graph
 * files, sessions and GPU-resident weights. Each worker is one "GPU": a fresh device and a fresh
 * runtime, so its measurement starts from a clean slate.
 */
import type * as OrtModule from 'onnxruntime-web';
import type { FeedData } from './feeds';
import type { LabRuntime } from './runtime';
import { createMemoryTracker, type MemoryTracker } from './memory-tracker';
import type { Backend } from './protocol';
import { installWasmHeapProbe, type WasmHeapProbe } from './wasm-heap';
import { installWebGpuHooks } from './webgpu-hooks';

export type Ort = typeof OrtModule;
export type Tensor = OrtModule.Tensor;
export type Session = OrtModule.InferenceSession;

/** A worker's device, or none on WASM. */
export interface WorkerDevice {
  readonly device: GPUDevice | undefined;
  /** Adapter description (`swiftshader`, a vendor and architecture), null on WASM. */
  readonly adapter: string | null;
  /** Races a promise against device errors (OOM, loss) that no promise carries. */
  readonly guard: <T>(promise: Promise<T>) => Promise<T>;
}

/** Fails when the device reports an error that no promise carries (OOM, loss). */
function watchDevice(device: GPUDevice): Promise<never> {
  return new Promise((_, reject) => {
    device.addEventListener('uncapturederror', (event) => {
      const { error } = event as GPUUncapturedErrorEvent;
      reject(new Error(`${error.constructor.name}: ${error.message}`));
    });
    void device.lost.then((info) => reject(new Error(`Device was lost: ${info.reason} ${info.message}`)));
  });
}

/**
 * Opens this worker's device with the tracker's hooks installed first, so every storage buffer
 * onnxruntime-web and we create is counted. On WASM there is no device and nothing to guard.
 */
async function openWorkerDevice(backend: Backend, tracker: MemoryTracker): Promise<WorkerDevice> {
  if (backend !== 'webgpu') return { device: undefined, adapter: null, guard: (promise) => promise };
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
  const failure = watchDevice(device);
  return {
    device,
    adapter: [vendor, architecture, description].filter(Boolean).join(' ') || 'unknown adapter',
    guard: (promise) => Promise.race([promise, failure]),
  };
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

/** A worker's measured runtime: what it counts with, its device, and onnxruntime-web. */
export interface MeasuredRuntime {
  readonly tracker: MemoryTracker;
  /** The WebAssembly heap probe, on WASM only (it must wrap the heap before the runtime loads). */
  readonly heap: WasmHeapProbe | undefined;
  readonly gpu: WorkerDevice;
  readonly ort: Ort;
}

/**
 * Sets up a worker for measuring: counters first (device hooks, heap probe), then the device and
 * onnxruntime-web, then one throw-away session of `warmUpFile` (see `warmUpRuntime`), so every
 * measurement that follows starts from "runtime ready, no model".
 */
export async function startMeasuredRuntime(backend: Backend, runtime: LabRuntime, modelsUrl: string, warmUpFile: string | undefined): Promise<MeasuredRuntime> {
  const tracker = createMemoryTracker();
  const heap = backend === 'wasm' ? installWasmHeapProbe() : undefined;
  const gpu = await openWorkerDevice(backend, tracker);
  const ort = await startRuntime(runtime);
  if (warmUpFile) await warmUpRuntime(ort, gpu, await fetchGraph(modelsUrl, warmUpFile));
  return { tracker, heap, gpu, ort };
}

/** Fetches a graph file named in the manifest. */
export async function fetchGraph(modelsUrl: string, file: string): Promise<Uint8Array> {
  const response = await fetch(modelsUrl + file);
  if (!response.ok) throw new Error(`Could not load ${file}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * A session on this worker's backend. Outputs named in `gpuOutputs` stay on the GPU (to feed
 * the next graph); the rest come back to the CPU. Sessions must be created one after another:
 * onnxruntime-web refuses to create WebGPU sessions concurrently.
 */
export function createSession(ort: Ort, gpu: WorkerDevice, bytes: Uint8Array, gpuOutputs: (name: string) => boolean = () => false, outputs: readonly string[] = []): Promise<Session> {
  const location = Object.fromEntries(outputs.map((name) => [name, gpu.device && gpuOutputs(name) ? 'gpu-buffer' : 'cpu'] as const));
  return gpu.guard(
    ort.InferenceSession.create(bytes, {
      executionProviders: gpu.device ? [{ name: 'webgpu', device: gpu.device }] : ['wasm'],
      preferredOutputLocation: location,
      logSeverityLevel: 3,
    }),
  );
}

/**
 * onnxruntime-web sets up its WebAssembly instance (and WebGPU backend) at the first session.
 * Creating and releasing one session before measuring keeps that start-up out of every
 * measurement, so a baseline means "runtime ready, no model".
 */
async function warmUpRuntime(ort: Ort, gpu: WorkerDevice, bytes: Uint8Array): Promise<void> {
  const session = await createSession(ort, gpu, bytes);
  await session.release();
}

/** A float32 tensor whose data lives in a GPU buffer of its own, destroyed on `dispose()`. */
export function residentTensor(ort: Ort, device: GPUDevice, feed: FeedData): Tensor {
  const data = feed.data as Float32Array;
  // WebGPU buffer sizes must be multiples of 4 bytes; float32 data always is.
  const buffer = device.createBuffer({ size: Math.max(4, data.byteLength), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(buffer, 0, data as Float32Array<ArrayBuffer>);
  return ort.Tensor.fromGpuBuffer(buffer, {
    dataType: 'float32',
    dims: feed.dims,
    download: () => downloadFloats(device, buffer, data.length),
    dispose: () => buffer.destroy(),
  });
}

/** Reads a storage buffer back through a staging buffer (not counted: it holds no tensor). */
async function downloadFloats(device: GPUDevice, buffer: GPUBuffer, length: number): Promise<Float32Array<ArrayBuffer>> {
  const staging = device.createBuffer({ size: buffer.size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(buffer, 0, staging, 0, buffer.size);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const values = new Float32Array(staging.getMappedRange().slice(0, length * 4));
  staging.destroy();
  return values;
}

/** A CPU tensor for a feed (int64 labels and tokens, float32 data). */
export function cpuTensor(ort: Ort, feed: FeedData): Tensor {
  return feed.data instanceof BigInt64Array ? new ort.Tensor('int64', feed.data, feed.dims) : new ort.Tensor('float32', feed.data, feed.dims);
}

/** Where a weight lives: resident on the GPU when there is one, else a CPU tensor. */
export function placeWeight(ort: Ort, gpu: WorkerDevice, feed: FeedData): Tensor {
  return gpu.device ? residentTensor(ort, gpu.device, feed) : cpuTensor(ort, feed);
}
