/**
 * What the build writes for the distillation experiment (public/models/distillation/manifest.json)
 * and the browser reads. Pure types: its own small manifest rather than entries in the main one,
 * whose entries describe untrained training variants of the lab MLPs.
 */
import type { ManifestGraph } from '../manifest.ts';
import type { MlpSpec } from '../mlp.ts';
import type { ParamSpec } from '../params.ts';
import type { DistillationTask } from './dataset.ts';
import type { SgdSchedule } from './spec.ts';

/** A trained model stored in its .onnx file. */
export interface FrozenModelEntry {
  /** The inference graph (weights inside). */
  readonly graph: ManifestGraph;
  /** Bytes of the stored weights: int8 matrices plus fp32 scales and biases, or all fp32. */
  readonly weightBytes: number;
  /** Test-set accuracy measured at build time (WebAssembly, Node), for cross-checking the browser. */
  readonly buildAccuracy: number;
}

/** The distillation manifest. */
export interface DistillationManifest {
  readonly version: 1;
  readonly task: DistillationTask;
  readonly splits: { readonly teacherTrain: number; readonly studentTrain: number; readonly test: number };
  readonly measuredBatch: number;
  readonly teacher: {
    readonly spec: MlpSpec;
    readonly parameterCount: number;
    readonly training: SgdSchedule;
    readonly fp32: FrozenModelEntry;
    readonly int8: FrozenModelEntry;
  };
  readonly student: {
    readonly spec: MlpSpec;
    readonly parameterCount: number;
    /** Parameters in feed order; initial values from `initWeights(parameters, training.seed)`. */
    readonly parameters: readonly ParamSpec[];
    readonly training: SgdSchedule;
    readonly loss: { readonly temperature: number; readonly alpha: number };
    /** SGD step with the distillation loss: inputs x, labels, teacher_logits, temperature, alpha, lr, parameters. */
    readonly step: ManifestGraph;
    /** Forward pass: x and parameters → logits. */
    readonly inference: ManifestGraph;
  };
}
