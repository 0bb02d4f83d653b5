import type { ManifestModel } from '../graphs/manifest';
import type { PhaseMemory, TimelinePoint } from './memory-tracker';
import type { LabRuntime } from './runtime';

/** Where a run executes. */
export type Backend = 'webgpu' | 'wasm';

/** What a measurement counts: WebGPU storage buffers, or the WebAssembly heap's high-water mark. */
export type MemoryKind = 'webgpu-buffers' | 'wasm-heap';

/** One variant to run: a model, and how its step's batch is split. */
export interface VariantSpec {
  readonly model: ManifestModel;
  /** Examples per step (split into `microBatches` for accumulation variants). */
  readonly batch: number;
  /** Micro-batches per step; above 1 only for models with `variant.accumulate`. */
  readonly microBatches: number;
  /** Seed of the weights and the data, so variants see identical inputs. */
  readonly seed: number;
  /** Steps to run, after a warm-up step on WebGPU; the last one is timed. */
  readonly steps: number;
  /**
   * A training loop rather than one measured step: gradients stay on the GPU, and with
   * `retain` every step's results are kept alive, the way `total_loss += loss` keeps each
   * step's graph in PyTorch; without it each step drops the previous step's results.
   */
  readonly loop?: { readonly retain: boolean };
  /**
   * Where the weights live: `resident` (default) uploads them once and keeps them on the GPU;
   * `streamed` keeps them in host memory and uploads each graph's weights just before it runs,
   * prefetching the next graph's (parameter offload). Streaming needs WebGPU.
   */
  readonly weights?: WeightLocation;
  /**
   * Where parameter gradients go as each graph produces them: `gpu` keeps them there until the
   * step ends (as `.grad` stays on the GPU); `host` reads each back as soon as it is made (as
   * ZeRO-Offload streams gradients to the CPU). Defaults to `gpu` in a loop, else `host`.
   */
  readonly gradients?: GradientLocation;
}

/** Where a variant keeps its weights between uses. */
export type WeightLocation = 'resident' | 'streamed';

/** Where a variant keeps parameter gradients during a step. */
export type GradientLocation = 'gpu' | 'host';

/** Host↔GPU traffic of one step (the timed one). */
export interface StepTransfer {
  /** Weight bytes uploaded during the step (0 when the weights are resident). */
  readonly uploadedBytes: number;
  /** Milliseconds spent creating upload buffers and handing them the weights. */
  readonly uploadMs: number;
  /** Parameter-gradient bytes read back to the host during the step (WebGPU; 0 when they stay on the GPU). */
  readonly downloadedBytes: number;
}

/**
 * Page → worker: run variants one after another in one fresh runtime. Each variant's sessions
 * are released before the next starts (onnxruntime-web frees its buffers only when the last
 * session goes), and each is measured from the live bytes at its own start.
 */
export interface VariantRequest {
  readonly backend: Backend;
  /** The compiled onnxruntime-web module (see `loadRuntime`). */
  readonly runtime: LabRuntime;
  /** URL of the folder that holds the manifest's graph files (ends with `/`). */
  readonly modelsUrl: string;
  readonly variants: readonly VariantSpec[];
}

/** What a measured run counted, in the unit of its `kind`. */
export interface MeasuredMemory {
  readonly kind: MemoryKind;
  /** Counted bytes when the run started (runtime and device set up, no session). */
  readonly baselineBytes: number;
  /** Highest counted bytes during the run. */
  readonly peakBytes: number;
  /** Counted bytes once the weights (and any optimizer state) were placed and sessions created. */
  readonly setupBytes: number;
  /** Bytes over the run, relative to the baseline (sampled around each graph run on WASM). */
  readonly timeline: readonly TimelinePoint[];
}

/** What one variant measured. */
export interface VariantResult {
  readonly backend: Backend;
  /** Adapter description (`swiftshader`, a vendor and architecture), null on WASM. */
  readonly adapter: string | null;
  readonly memory: MeasuredMemory & { readonly phases: readonly PhaseMemory[] };
  /** Counted bytes above the baseline after each step, in order. */
  readonly stepBytes: readonly number[];
  /** Wall time of the last step, in milliseconds. */
  readonly stepMs: number;
  /** Host↔GPU traffic of the last step. */
  readonly transfer: StepTransfer;
  /** Time to create the sessions, in milliseconds. */
  readonly loadMs: number;
  readonly loss: number;
  /** Parameter gradients by parameter name (fp32). */
  readonly gradients: Readonly<Record<string, Float32Array>>;
}

/**
 * Why a run failed, in the terms the page explains to the reader. `needs-webgpu` is not a
 * failure but an experiment that has nothing to show without WebGPU, refusing to start.
 */
export type FailureKind = 'out-of-memory' | 'device-lost' | 'limits' | 'unsupported' | 'error' | 'needs-webgpu';

/** Bytes held after one step of one variant (the request's `variant`-th), for live plots. */
export interface StepSample {
  readonly variant: number;
  readonly step: number;
  readonly bytes: number;
}
