/**
 * The browser-safe part of src/graphs: what the lab and the components may import (ESLint's
 * layer rules hold them to this module). Nothing here imports the builder or onnx-proto at run
 * time, so islands and workers can import it freely.
 */
export { initWeights, initParameter } from './init.ts';
export { syntheticBatch, type Batch, type BatchShape } from './data.ts';
export { toHalfBits, fromHalfBits, DTYPE_BYTES, type DType } from './dtype.ts';
export { parameterCount, parameterSize, type ParamSpec, type ParamInit } from './params.ts';
export { adamScalars } from './adam.ts';
export { defaultSegmentLength } from './segments.ts';
export * from './tensor-names.ts';
export { accuracyOf, distillationExamples, type DistillationTask, type LabelledExamples } from './distillation/dataset.ts';
export { MEASURED_BATCH } from './distillation/spec.ts';
export type { MlpSpec } from './mlp.ts';
export type * from './manifest.ts';
export { schedulePath, type ScheduleFile, type ScheduleNode } from './schedule-file.ts';
export type * from './distillation/manifest.ts';
