import type { DistillationJob } from './distillation';

/**
 * What a measuring worker is doing, as data: the page words it in its own language (the lab
 * catalogue's `frame.stage`), so no English sentence crosses the worker's message protocol.
 */
export type RunStage =
  | { readonly kind: 'starting-runtime' }
  | { readonly kind: 'loading-model'; readonly model: string }
  /** A pipeline stage's slice of the layers, first to last. */
  | { readonly kind: 'loading-layers'; readonly first: number; readonly last: number }
  /** The single experiments' warm-up: one step at `batch`, run to compile the shaders. */
  | { readonly kind: 'compiling-shaders'; readonly batch: number }
  /** A cluster device's warm-up: the same stages as a measured run, for shaders only. */
  | { readonly kind: 'warm-up'; readonly stage: RunStage }
  | { readonly kind: 'step'; readonly step: number; readonly steps: number }
  /** The extra steps timed after memory was measured. */
  | { readonly kind: 'timing'; readonly step: number; readonly steps: number }
  | { readonly kind: 'forward-loading'; readonly job: DistillationJob }
  /** `compiling`: the first pass on a device compiles shaders. */
  | { readonly kind: 'forward-pass'; readonly job: DistillationJob; readonly compiling: boolean }
  | { readonly kind: 'test-accuracy'; readonly job: DistillationJob }
  /** The student's training, with the teacher's soft targets or on hard labels only. */
  | { readonly kind: 'training'; readonly targets: 'soft' | 'hard'; readonly step: number; readonly steps: number };
