/**
 * DeepSpeed's model-state estimators, re-expressed in TypeScript so lessons can show DeepSpeed's own
 * numbers next to ours. Formulas: deepspeed/runtime/zero/stage_1_and_2.py
 * `estimate_zero2_model_states_mem_needs` and stage3.py `estimate_zero3_model_states_mem_needs`.
 * DeepSpeed prints these as "GB" but divides by 2^30 (GiB).
 */

/** Host and GPU bytes DeepSpeed estimates for model states (no activations). */
export interface DeepSpeedEstimate {
  /** Host RAM per node, bytes (includes `additionalBufferFactor`). */
  cpuBytes: number;
  /** Per GPU, bytes. */
  gpuBytes: number;
}

/** Options shared by both estimators. */
export interface DeepSpeedEstimateOptions {
  /** Total parameters. */
  totalParams: number;
  /** GPUs per node; default 1. */
  gpusPerNode?: number;
  /** Nodes; default 1. */
  nodes?: number;
  /** Offload the optimizer to CPU; default true (DeepSpeed's default). */
  cpuOffload?: boolean;
  /** Host-memory safety factor; default 1.5. */
  additionalBufferFactor?: number;
}

/** Options of the ZeRO-3 estimator. */
export interface DeepSpeedZero3Options extends DeepSpeedEstimateOptions {
  /** Parameters of the largest single module. */
  largestLayerParams: number;
  /** Offload parameters to CPU as well; default true. */
  cpuOffloadParams?: boolean;
  /** Model built under `deepspeed.zero.Init` (parameters never materialised whole on one rank); default true. */
  zeroInit?: boolean;
}

/** DeepSpeed ZeRO-2 estimate: GPU 2Ψ with offload, else 4Ψ + 16Ψ/N; CPU max(4N, 16)Ψ·1.5 with offload, else 4Ψ·gpus/node·1.5. */
export function deepspeedZero2Estimate({
  totalParams,
  gpusPerNode = 1,
  nodes = 1,
  cpuOffload = true,
  additionalBufferFactor = 1.5,
}: DeepSpeedEstimateOptions): DeepSpeedEstimate {
  const totalGpus = nodes * gpusPerNode;
  if (cpuOffload) {
    return {
      gpuBytes: 2 * totalParams,
      cpuBytes: Math.trunc(totalParams * Math.max(4 * totalGpus, 16) * additionalBufferFactor),
    };
  }
  return {
    gpuBytes: 4 * totalParams + Math.trunc((16 * totalParams) / totalGpus),
    cpuBytes: Math.trunc(totalParams * 4 * gpusPerNode * additionalBufferFactor),
  };
}

/** DeepSpeed ZeRO-3 estimate: the largest layer's 4 bytes/param stay on the GPU; the rest is 18Ψ (or 16Ψ) split across GPUs or held on the host. */
export function deepspeedZero3Estimate({
  totalParams,
  largestLayerParams,
  gpusPerNode = 1,
  nodes = 1,
  cpuOffload = true,
  cpuOffloadParams = true,
  zeroInit = true,
  additionalBufferFactor = 1.5,
}: DeepSpeedZero3Options): DeepSpeedEstimate {
  const totalGpus = nodes * gpusPerNode;
  const gpusFactor = 1 / nodes;
  const largestLayerMemory = 4 * largestLayerParams;
  let cpu: number;
  let gpu: number;
  if (cpuOffload) {
    const bytesPerParam = cpuOffloadParams ? 18 : 16;
    gpu = cpuOffloadParams ? largestLayerMemory : largestLayerMemory + Math.trunc((2 * totalParams) / totalGpus);
    cpu = zeroInit
      ? totalParams * bytesPerParam * gpusFactor * additionalBufferFactor
      : totalParams * Math.max(4 * gpusPerNode, bytesPerParam * gpusFactor) * additionalBufferFactor;
  } else {
    gpu = largestLayerMemory + Math.trunc((18 * totalParams) / totalGpus);
    cpu = zeroInit
      ? largestLayerParams * 4 * gpusPerNode * additionalBufferFactor
      : totalParams * 4 * gpusPerNode * additionalBufferFactor;
  }
  return { cpuBytes: Math.trunc(cpu), gpuBytes: Math.trunc(gpu) };
}
