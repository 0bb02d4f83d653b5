/**
 * FP8 training: which Linear layers multiply in float8, and what that changes in the bytes a step holds and in its
 * matmul rate. Two implementations, read in their sources:
 * - torchao's float8 training (`convert_to_float8_training`, `Float8LinearConfig` recipes `tensorwise` and `rowwise`):
 *   `matmul_with_hp_or_float8_args.forward` saves `input_hp` and `weight_hp_t` for backward, the high-precision tensors,
 *   and casts both to float8 again in backward (torchao 0.19.0 @36027d8 torchao/float8/float8_linear.py:38-95). The
 *   master weights, the optimizer and the saved activations are unchanged; the float8 casts live one matmul.
 *   `enable_fsdp_float8_all_gather` all-gathers the weights in float8 (1 byte), tensorwise only (config.py:271-273).
 * - Transformer Engine (`fp8_autocast`, te.Linear): the input is quantized with column-wise usage only for backward,
 *   so each Linear keeps a 1-byte copy of its input instead of its 16-bit input; its weight is quantized to a float8
 *   tensor with row- and column-wise data (the transpose) and that copy is saved for backward, 2 bytes per weight
 *   element beside the 16-bit weight (TE 2.20.0.dev0 @d0067d0 transformer_engine/pytorch/module/linear.py:428-436
 *   input, :459-490 weight, :596-661 saved, `wt_save = weightmat`). Under FSDP2 TE saves no copy and requantizes in
 *   backward (:643-645).
 */
import type { GpuSpec } from './gpus.ts';

/** The FP8 recipe: `none`, torchao's `tensorwise` or `rowwise`, or Transformer Engine (`te`). */
export type Fp8Recipe = 'none' | 'torchao-tensorwise' | 'torchao-rowwise' | 'te';

/** Every FP8 recipe. */
export const FP8_RECIPES: readonly Fp8Recipe[] = ['none', 'torchao-tensorwise', 'torchao-rowwise', 'te'];

/** The sources of the rules, one per implementation, with the version each was read at. */
export const FP8_SOURCES = {
  torchao:
    'torchao 0.19.0 @36027d8 torchao/float8/float8_linear.py:38-95 matmul_with_hp_or_float8_args (ctx.save_for_backward(input_hp, weight_hp_t): high precision kept, float8 casts per matmul)',
  allGather:
    'torchao 0.19.0 @36027d8 torchao/float8/config.py:225,271-273 enable_fsdp_float8_all_gather (tensorwise only); fsdp_utils.py WeightWithDynamicFloat8CastTensor.fsdp_pre_all_gather sends float8 data',
  te: 'Transformer Engine 2.20.0.dev0 @d0067d0 transformer_engine/pytorch/module/linear.py:596-661 (saved_inputmat: float8, column-wise only; wt_save = weightmat: float8 data + transpose)',
  rate: 'NVIDIA H100 / H200 / B200 and L40S datasheets and the AMD MI300X datasheet: dense FP8 tensor throughput is twice the dense BF16 (H100 SXM 3,958 vs 1,979 TFLOPS with sparsity; L40S 733 vs 362; MI300X 2,614.9 vs 1,307.4)',
  hardware:
    'PyTorch test/test_scaled_matmul_cuda.py f8_msg: "FP8 is only supported on H100+, SM 8.9 and MI300+ devices" (torch._scaled_mm, which torchao calls)',
} as const;

/** Dense FP8 tensor throughput ÷ dense 16-bit tensor throughput on every FP8-capable preset (FP8_SOURCES.rate). */
export const FP8_RATE_FACTOR = 2;

/** Whether `gpu` has FP8 tensor cores: NVIDIA compute capability 8.9 (Ada) and later, or AMD's MI300 (CDNA 3). */
export function hasFp8TensorCores(gpu: GpuSpec): boolean {
  if (gpu.computeCapability !== null) return gpu.computeCapability >= 8.9;
  return /MI3\d\d/.test(gpu.name);
}

/** Bytes per element of each Linear's saved input: 1 under Transformer Engine (a float8 copy), else the compute dtype's. */
export function savedLinearInputBytes(recipe: Fp8Recipe, computeBytes: number): number {
  return recipe === 'te' ? 1 : computeBytes;
}

/** Bytes per weight element of the float8 copies a recipe keeps from forward to backward: TE's data and transpose. */
export function fp8WeightCopyBytes(recipe: Fp8Recipe): number {
  return recipe === 'te' ? 2 : 0;
}
