import type { MemoryTracker } from '../measure/memory-tracker';

/** `GPUBufferUsage.STORAGE`: tensors live in storage buffers; staging and uniform buffers do not. */
const STORAGE_USAGE = 0x80;

/**
 * Counts every storage buffer a WebGPU device creates and destroys by wrapping
 * `GPUDevice.prototype.createBuffer` and `GPUBuffer.prototype.destroy`. Install it before
 * onnxruntime-web creates its device, in a worker that runs one measurement, so nothing else
 * shares the count. Staging (MAP_READ / MAP_WRITE) and uniform buffers are left out: they
 * hold no tensor. Returns a function that removes the hooks.
 */
export function installWebGpuHooks(tracker: MemoryTracker): () => void {
  const deviceProto = GPUDevice.prototype;
  const bufferProto = GPUBuffer.prototype;
  const createBuffer = deviceProto.createBuffer;
  const destroy = bufferProto.destroy;
  deviceProto.createBuffer = function (this: GPUDevice, descriptor: GPUBufferDescriptor): GPUBuffer {
    const buffer = createBuffer.call(this, descriptor);
    if ((descriptor.usage & STORAGE_USAGE) !== 0) tracker.allocated(buffer, descriptor.size);
    return buffer;
  };
  bufferProto.destroy = function (this: GPUBuffer): undefined {
    tracker.freed(this);
    return destroy.call(this);
  };
  return () => {
    deviceProto.createBuffer = createBuffer;
    bufferProto.destroy = destroy;
  };
}
