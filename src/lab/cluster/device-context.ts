/**
 * What a virtual GPU's job runs with: its runtime and device, its memory count, its link to the
 * other devices, and helpers to place, read and overwrite tensors on whichever backend it has.
 */
import type { ManifestGraph, ManifestModel } from '../../graphs/manifest';
import { weightFeeds } from '../feeds';
import type { MemoryTracker } from '../memory-tracker';
import type { Backend } from '../protocol';
import type { WasmHeapProbe } from '../wasm-heap';
import { createSession, fetchGraph, placeWeight, type Ort, type Session, type Tensor, type WorkerDevice } from '../worker-gpu';
import type { Comm } from './comm';
import type { DeviceResult } from './protocol';

export interface DeviceContext {
  readonly ort: Ort;
  readonly backend: Backend;
  readonly gpu: WorkerDevice;
  readonly tracker: MemoryTracker;
  readonly heap: WasmHeapProbe | undefined;
  readonly comm: Comm;
  readonly modelsUrl: string;
  readonly seed: number;
  readonly steps: number;
  /** Tells the page what this device is doing (and, after a step, the bytes it holds). */
  readonly progress: (stage: string, sample?: { step: number; bytes: number }) => void;
}

/** Bytes counted now: live storage buffers on WebGPU, the heap's size on WASM. */
export function countedBytes(ctx: DeviceContext): number {
  return ctx.heap?.bytes() ?? ctx.tracker.snapshot().liveBytes;
}

/** Fetches graphs, then creates their sessions one by one; outputs named by `onGpu` stay on the GPU. */
export async function openSessions(ctx: DeviceContext, graphs: readonly ManifestGraph[], onGpu: (name: string) => boolean): Promise<Session[]> {
  const files = await Promise.all(graphs.map((g) => fetchGraph(ctx.modelsUrl, g.file)));
  const sessions: Session[] = [];
  for (const [i, bytes] of files.entries()) {
    sessions.push(await createSession(ctx.ort, ctx.gpu, bytes, onGpu, graphs[i]?.outputs.map((o) => o.name) ?? []));
  }
  return sessions;
}

/** The model's initial weights (those `keep` selects), resident on this device. */
export function placeWeights(ctx: DeviceContext, model: ManifestModel, keep: (name: string) => boolean = () => true): Map<string, Tensor> {
  const weights = new Map<string, Tensor>();
  for (const [name, feed] of Object.entries(weightFeeds(model, ctx.seed))) if (keep(name)) weights.set(name, placeWeight(ctx.ort, ctx.gpu, feed));
  return weights;
}

/** Zeros of `length` floats, resident (optimizer moments start at zero). */
export function placeZeros(ctx: DeviceContext, length: number): Tensor {
  return placeWeight(ctx.ort, ctx.gpu, { data: new Float32Array(length), dims: [length] });
}

/** The same data seen as a flat vector of `length` floats, without a copy. */
export function flatView(ctx: DeviceContext, tensor: Tensor, length: number): Tensor {
  if (tensor.location === 'gpu-buffer') return ctx.ort.Tensor.fromGpuBuffer(tensor.gpuBuffer, { dataType: 'float32', dims: [length] });
  return new ctx.ort.Tensor('float32', tensor.data as Float32Array, [length]);
}

/** A tensor's values on the host (a download on WebGPU). */
export async function readFloats(tensor: Tensor): Promise<Float32Array> {
  return Float32Array.from((await tensor.getData()) as Float32Array);
}

/** Replaces a tensor's values in place: an upload on WebGPU, a copy on WASM. */
export function overwrite(ctx: DeviceContext, target: Tensor, values: Float32Array): void {
  if (target.location === 'gpu-buffer' && ctx.gpu.device) ctx.gpu.device.queue.writeBuffer(target.gpuBuffer, 0, values as Float32Array<ArrayBuffer>);
  else (target.data as Float32Array).set(values);
}

/** Copies one tensor's values into another of the same size, on the device where they live. */
export function copyInto(ctx: DeviceContext, target: Tensor, source: Tensor): void {
  const device = ctx.gpu.device;
  if (target.location === 'gpu-buffer' && source.location === 'gpu-buffer' && device) {
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(source.gpuBuffer, 0, target.gpuBuffer, 0, target.gpuBuffer.size);
    device.queue.submit([encoder.finish()]);
  } else (target.data as Float32Array).set(source.data as Float32Array);
}

/** Starts counting a job: the bytes before it and where its timeline begins. */
export function beginMeasure(ctx: DeviceContext, label: string): { baselineBytes: number; timelineStart: number; started: number } {
  ctx.tracker.beginPhase(label);
  return { baselineBytes: countedBytes(ctx), timelineStart: ctx.tracker.snapshot().timeline.length, started: performance.now() };
}

/** The device's result: its memory figures (see `endMeasure`) and what its job computed. */
export function deviceResult(
  ctx: DeviceContext,
  mark: ReturnType<typeof beginMeasure>,
  bytes: { readonly setupBytes: number; readonly heldBytes: number },
  computed: Pick<DeviceResult, 'stepMs' | 'loadMs' | 'loss' | 'tensors' | 'spans'>,
): DeviceResult {
  return { rank: ctx.comm.rank, backend: ctx.backend, adapter: ctx.gpu.adapter, memory: endMeasure(ctx, mark, bytes.setupBytes, bytes.heldBytes), ...computed };
}

/** The job's memory figures: peak over its phase (or the heap's high-water mark on WASM). */
function endMeasure(ctx: DeviceContext, mark: ReturnType<typeof beginMeasure>, setupBytes: number, heldBytes: number): DeviceResult['memory'] {
  ctx.tracker.endPhase();
  const snapshot = ctx.tracker.snapshot();
  const phase = snapshot.phases.at(-1);
  const startT = snapshot.timeline[mark.timelineStart]?.t ?? 0;
  return {
    kind: ctx.heap ? 'wasm-heap' : 'webgpu-buffers',
    baselineBytes: mark.baselineBytes,
    peakBytes: ctx.heap ? ctx.heap.bytes() : (phase?.peakBytes ?? snapshot.peakBytes),
    setupBytes,
    heldBytes,
    timeline: ctx.heap ? [] : snapshot.timeline.slice(mark.timelineStart).map((p) => ({ t: p.t - startT, bytes: p.bytes - mark.baselineBytes })),
  };
}
