/**
 * The optimizer step ZeRO-Offload runs on the host: DeepSpeed's CPU-Adam, timed from DeepSpeed's own published figure
 * rather than from a guessed host bandwidth.
 */

/**
 * Parameters in the DeepSpeed maintainers' CPU-Adam measurement: an 11.6B-parameter GPT-2 (DeepSpeed pull request
 * #735, "CPU-Adam fix for scalar mode", 2021-02-08).
 */
export const CPU_ADAM_MEASURED_PARAMS = 11.6e9;

/**
 * Seconds that measurement's optimizer step took with DeepSpeedCPUAdam (56 s with torch.optim.Adam on the same host:
 * DeepSpeed pull request #735). Within the 5–7× over PyTorch that DeepSpeed's tutorial docs/_tutorials/zero-offload.md
 * states for DeepSpeedCPUAdam.
 */
export const CPU_ADAM_MEASURED_SECONDS = 8.2;

/**
 * Seconds of one CPU-Adam step over `params` parameters: the measured seconds per parameter, linear in the parameters
 * (Adam touches every parameter the same number of times; Ren et al. 2021, arXiv 2101.06840 §4.2: CPU-Adam is
 * memory-bound). The host runs it after the last gradient arrives and the next forward waits for its weights: DeepSpeed
 * 0.19.6 has no delayed parameter update in its offload config (runtime/zero/offload_config.py, `super_offload`
 * defaults to False), so the step is not overlapped with GPU compute.
 */
export function cpuAdamSeconds(params: number): number {
  return (params * CPU_ADAM_MEASURED_SECONDS) / CPU_ADAM_MEASURED_PARAMS;
}
