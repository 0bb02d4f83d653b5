/** Offload of optimizer states and parameters to host RAM or NVMe (ZeRO-Offload, ZeRO-Infinity, FSDP CPU offload). */

/** What is offloaded. */
export type Offload = 'none' | 'optimizer' | 'optimizer+params';

/** Every offload mode. */
export const OFFLOADS: readonly Offload[] = ['none', 'optimizer', 'optimizer+params'];

/** Where offloaded states go. */
export type OffloadDevice = 'cpu' | 'nvme';

/** Every offload device. */
export const OFFLOAD_DEVICES: readonly OffloadDevice[] = ['cpu', 'nvme'];

/**
 * Bytes per parameter of the fp32 gradient partition the host keeps for the CPU optimizer step
 * (ZeRO-Offload, Ren et al. 2021, arXiv 2101.06840 §4.1; DeepSpeed `estimate_zero2_model_states_mem_needs`:
 * 16 bytes/param on CPU = 12 optimizer + 4 gradient).
 */
export const OFFLOADED_GRADIENT_BYTES = 4;

/** Where each model state lives once an offload mode is applied. */
export interface OffloadPlacement {
  /** Optimizer states (master weights and moments) on the GPU? */
  optimizerOnGpu: boolean;
  /** Gradient partition on the GPU (else streamed to the host in fp32)? */
  gradientsOnGpu: boolean;
  /** Weights resident on the GPU (else only the gathered working set)? */
  weightsOnGpu: boolean;
}

/**
 * Placement of model states per offload mode. `optimizer`: ZeRO-Offload moves optimizer states, the
 * fp32 gradients and the optimizer step to the host; `optimizer+params`: ZeRO-Infinity / FSDP
 * `CPUOffload(offload_params=True)` also keeps the 16-bit weights off the GPU between uses (arXiv 2104.07857).
 */
export function offloadPlacement(offload: Offload): OffloadPlacement {
  return {
    optimizerOnGpu: offload === 'none',
    gradientsOnGpu: offload === 'none',
    weightsOnGpu: offload !== 'optimizer+params',
  };
}
