/**
 * The browser-safe part of src/graphs: what the lab needs to feed the generated models.
 * Nothing here imports the builder or onnx-proto, so islands can import it freely.
 */
export { initWeights, initParameter } from './init.ts';
export { syntheticBatch, type Batch, type BatchShape } from './data.ts';
export { toHalfBits, fromHalfBits, DTYPE_BYTES, type DType } from './dtype.ts';
export { parameterCount, parameterSize, type ParamSpec, type ParamInit } from './params.ts';
export type * from './manifest.ts';
