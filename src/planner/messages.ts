/** The planner's own sentences (the dimensions' rules carry theirs), kept together for translation. */
export const rejectionMessages = {
  noMicroBatch: 'no micro-batch splits the global batch over these data-parallel GPUs',
  modelStates:
    'the model states alone (weights, gradients, optimizer states and the CUDA context) exceed the GPU’s usable memory',
  activations: 'the model states fit, but the activations of one sequence per micro-batch push it over',
  hostMemory: 'fits the GPU, but the offloaded states need more host RAM than --max-host-gb allows',
} as const;

/** Why a combination was counted without an estimate: a searched twin is never worse, or needs no more memory and fits nowhere. */
export const dominanceMessages = {
  fused: 'never less memory nor less time than the same plan with fused AdamW (not estimated)',
  zero2: 'never less memory nor less time than the same plan with ZeRO-2 (not estimated)',
  sdpa: 'never less memory nor less time than the same plan with SDPA attention at this sequence length (not estimated)',
  eightBitFloor: 'needs at least the memory of the same plan with 8-bit AdamW, which fits at no micro-batch (not estimated)',
  offloadFloor:
    'needs at least the GPU memory of the same plan with more offloaded to the CPU, which fits at no micro-batch (not estimated)',
  bf16Floor: 'needs at least the memory of the same plan in pure bf16, which fits at no micro-batch (not estimated)',
  recomputeFloor:
    'keeps at least the activations of the same plan with full recompute, which fits at no micro-batch (not estimated)',
} as const;
