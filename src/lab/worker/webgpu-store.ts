/// <reference lib="webworker" />
/**
 * Tensors in a WebGPU device's memory: each placed or uploaded tensor is a storage buffer of its
 * own (so the memory tracker sees it come and go), destroyed on `dispose()`. The device's
 * uncaptured errors (OOM, loss) fail whatever runs through `guard`.
 */
import type { FeedData } from '../measure/feeds';
import type { Ort, Tensor, TensorStore } from '../measure/executor';

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
 * Reads `length` floats of a storage buffer back through a staging buffer (not counted: it holds
 * no tensor). onnxruntime-web submits a run's work when the run ends, so a copy queued after it
 * reads the run's results.
 */
async function downloadFloats(device: GPUDevice, buffer: GPUBuffer, length: number): Promise<Float32Array> {
  // Copy sizes must be multiples of 4 bytes; float32 data always is.
  const size = length * 4;
  const staging = device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(buffer, 0, staging, 0, size);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const values = new Float32Array(staging.getMappedRange().slice(0));
  staging.destroy();
  return values;
}

/** A float32 tensor whose data lives in a GPU buffer of its own, destroyed on `dispose()`. */
function residentTensor(ort: Ort, device: GPUDevice, feed: FeedData): Tensor {
  const data = feed.data as Float32Array;
  // WebGPU buffer sizes must be multiples of 4 bytes; float32 data always is.
  const buffer = device.createBuffer({
    size: Math.max(4, data.byteLength),
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(buffer, 0, data as Float32Array<ArrayBuffer>);
  // No downloader: values come back through the store's `download`, which leaves the tensor on the device.
  return ort.Tensor.fromGpuBuffer(buffer, { dataType: 'float32', dims: feed.dims, dispose: () => buffer.destroy() });
}

/** A tensor store on `device`, described as `adapter`. */
export function webGpuStore(ort: Ort, device: GPUDevice, adapter: string): TensorStore {
  const failure = watchDevice(device);
  return {
    adapter,
    onDevice: true,
    keptOutputLocation: 'gpu-buffer',
    executionProvider: { name: 'webgpu', device } as const,
    guard: (promise) => Promise.race([promise, failure]),
    place: (feed) => residentTensor(ort, device, feed),
    upload: (feed) => residentTensor(ort, device, feed),
    overwrite(target, values) {
      if (target.location === 'gpu-buffer') device.queue.writeBuffer(target.gpuBuffer, 0, values as Float32Array<ArrayBuffer>);
      else (target.data as Float32Array).set(values);
    },
    copyInto(target, source) {
      if (target.location === 'gpu-buffer' && source.location === 'gpu-buffer') {
        const encoder = device.createCommandEncoder();
        encoder.copyBufferToBuffer(source.gpuBuffer, 0, target.gpuBuffer, 0, target.gpuBuffer.size);
        device.queue.submit([encoder.finish()]);
      } else (target.data as Float32Array).set(source.data as Float32Array);
    },
    flatView(tensor, length) {
      if (tensor.location === 'gpu-buffer')
        return ort.Tensor.fromGpuBuffer(tensor.gpuBuffer, { dataType: 'float32', dims: [length] });
      return new ort.Tensor('float32', tensor.data as Float32Array, [length]);
    },
    download(tensor) {
      if (tensor.location !== 'gpu-buffer') return Promise.resolve(Float32Array.from(tensor.data as Float32Array));
      return downloadFloats(device, tensor.gpuBuffer, tensor.size);
    },
    settle: () => device.queue.onSubmittedWorkDone(),
  };
}
