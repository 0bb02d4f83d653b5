/**
 * Tensors that live on the host: the WebAssembly backend in a browser worker, and onnxruntime's
 * WASM backend in Node. "Device memory" is host memory here, so uploads are refused: there is
 * no GPU memory to stream weights into.
 */
import { hostTensor, type Ort, type Tensor, type TensorStore } from './executor';

/** The message a weight stream without a device fails with. */
export const NO_DEVICE_TO_STREAM =
  'Streaming weights needs a WebGPU device: on WebAssembly there is no GPU memory to offload from.';

/** A tensor store on the host, running sessions on the WASM execution provider. */
export function hostStore(ort: Ort): TensorStore {
  return {
    adapter: null,
    onDevice: false,
    keptOutputLocation: 'cpu',
    executionProvider: 'wasm',
    guard: (promise) => promise,
    place: (feed) => hostTensor(ort, feed),
    upload: () => {
      throw new Error(NO_DEVICE_TO_STREAM);
    },
    overwrite: (target, values) => (target.data as Float32Array).set(values),
    copyInto: (target, source) => (target.data as Float32Array).set(source.data as Float32Array),
    flatView: (tensor: Tensor, length) => new ort.Tensor('float32', tensor.data as Float32Array, [length]),
    download: (tensor) => Promise.resolve(Float32Array.from(tensor.data as Float32Array)),
    settle: () => Promise.resolve(),
  };
}
