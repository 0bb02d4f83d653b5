/**
 * The tensors the modelled executor (runtime-executor.ts) hands the lab's step loops: a host
 * tensor with its values, or a device tensor that only knows which buffer holds it. The model
 * counts bytes, not values: a device tensor's values read back as zeros. Each exposes the part
 * of onnxruntime-common's `Tensor` the measuring core uses (`type`, `dims`, `size`, `location`,
 * `data` on the host, `dispose`). Pure.
 */
import type { Tensor } from '../measure/executor';

/** Element types the lab feeds and reads. */
export type ModelledDType = 'float32' | 'int64';

/**
 * A device buffer some tensors share (a tensor and its flat views): given back once, by whoever
 * owns it, or early when a rule of the model frees it first (in-place accumulation).
 */
export interface DeviceAllocation {
  /** Whether the buffer is the runtime's (a run's output, from its cache) rather than one the lab placed. */
  readonly runtime: boolean;
  /** Gives the buffer back; later calls do nothing. */
  release(): void;
}

/** What a modelled tensor is made from. */
export type ModelledTensorInit =
  | {
      readonly location: 'cpu';
      readonly type: ModelledDType;
      readonly dims: readonly number[];
      readonly data: Float32Array | BigInt64Array;
    }
  | {
      readonly location: 'gpu-buffer';
      readonly dims: readonly number[];
      readonly allocation: DeviceAllocation;
      /** Whether disposing this tensor gives the buffer back (a flat view's does not, as on WebGPU). */
      readonly owner: boolean;
    };

/** The buffer behind a device tensor the modelled executor made, or undefined for a host tensor. */
const allocations = new WeakMap<Tensor, DeviceAllocation>();

/** A modelled tensor, typed as the measuring core's `Tensor`. */
export function modelledTensor(init: ModelledTensorInit): Tensor {
  const size = init.dims.reduce((product, dim) => product * dim, 1);
  const tensor =
    init.location === 'cpu'
      ? { location: 'cpu', type: init.type, dims: init.dims, size, data: init.data, dispose: () => {} }
      : {
          location: 'gpu-buffer',
          type: 'float32',
          dims: init.dims,
          size,
          get data(): never {
            // As onnxruntime-common 1.30.0's `Tensor` does off the host (dist/esm/tensor-impl.js, `get data()`).
            throw new Error('The data is not on CPU: read it through the store.');
          },
          dispose: () => {
            if (init.owner) init.allocation.release();
          },
        };
  // The measuring core reads no more of a tensor than the fields above.
  const typed = tensor as unknown as Tensor;
  if (init.location === 'gpu-buffer') allocations.set(typed, init.allocation);
  return typed;
}

/** The buffer a device tensor made by `modelledTensor` is in; undefined for a host tensor. */
export function allocationOf(tensor: Tensor): DeviceAllocation | undefined {
  return allocations.get(tensor);
}
