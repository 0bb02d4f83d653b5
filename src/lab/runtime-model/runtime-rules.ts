/**
 * The rules "this runtime" follows: the buffer cache's (buffer-cache.ts) and how the lab's
 * graphs add gradients. onnxruntime-web 1.30 and the lab follow all of them; runtime-gap.ts
 * switches them off one at a time to measure what each costs. Pure data.
 */
import { ONNXRUNTIME_CACHE_RULES, type CacheRules } from './buffer-cache';

/** Every rule of the runtime model, each of which can be switched off. */
export interface RuntimeRules extends CacheRules {
  /**
   * `acc_out = acc_in + g` (and the pipeline's `sum = a + b`) makes a new set before the old one
   * goes; off: the old set's buffers are given back before the run that adds to them, as
   * PyTorch adds in place (`AccumulateGrad::accumulateGrad` runs `variable_grad += new_grad`
   * outside double backward: pytorch/pytorch `torch/csrc/autograd/functions/accumulate_grad.h`,
   * commit bc2c6edaf163b1a1330e37a6e34caf8c553e4755).
   */
  readonly outOfPlaceAccumulation: boolean;
}

/** The rules of onnxruntime-web 1.30 and the lab's step loops. */
export const ONNXRUNTIME_RULES: RuntimeRules = { ...ONNXRUNTIME_CACHE_RULES, outOfPlaceAccumulation: true };
