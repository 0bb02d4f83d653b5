import type { ShownFieldError } from '../memory/index.ts';

/**
 * The planner's own words, kept together for translation: why combinations were left out, and the labels of its choices.
 * The search words them with `PLANNER_WORDS` (the CLI's) or a language's words of its type (the planner page's).
 */
export const rejectionMessages = {
  noMicroBatch: 'no micro-batch splits the global batch over these data-parallel GPUs',
  modelStates:
    'the model states alone (weights, gradients, optimizer states and the CUDA context) exceed the GPU’s usable memory',
  activations: 'the model states fit, but the activations of one sequence per micro-batch push it over',
  hostMemory: 'fits the GPU, but the offloaded states need more host RAM than --max-host-gb allows',
};

/** Why a combination was counted without an estimate: a searched twin is never worse, or needs no more memory and fits nowhere. */
export const dominanceMessages = {
  fused: 'never less memory nor less time than the same plan with fused AdamW (not estimated)',
  sdpa: 'never less memory nor less time than the same plan with SDPA attention at this sequence length (not estimated)',
  eightBitFloor: 'needs at least the memory of the same plan with 8-bit AdamW, which fits at no micro-batch (not estimated)',
  offloadFloor:
    'needs at least the GPU memory of the same plan with more offloaded to the CPU, which fits at no micro-batch (not estimated)',
  bf16Floor: 'needs at least the memory of the same plan in pure bf16, which fits at no micro-batch (not estimated)',
  recomputeFloor:
    'keeps at least the activations of the same plan with full recompute, which fits at no micro-batch (not estimated)',
};

/** Why a dimension's rule leaves a combination out (Dimension.rule). */
export const ruleMessages = {
  unevenBatch: (globalBatch: number, dp: number) =>
    `the global batch of ${globalBatch} does not split evenly over ${dp} data-parallel GPUs`,
  weightsOffloadNeedsZero3: 'offloading the weights needs ZeRO-3 (ZeRO-Infinity, FSDP CPU offload)',
  optimizerOffloadNeedsZero: 'offloading the optimizer needs ZeRO-1, 2 or 3 (ZeRO-Offload)',
  zeroOnOneGpu: 'ZeRO with one data-parallel GPU shards nothing (it is used on one GPU only to offload)',
  fp16WithBf16: (gpu: string) => `the ${gpu} has BF16: FP16 would add loss scaling for the same memory and time`,
  noBf16: (gpu: string) => `the ${gpu} has no BF16 tensor cores`,
  selectiveOnMlp: 'selective recompute drops attention scores, which an mlp does not have',
  noAttentionInMlp: 'an mlp has no attention',
  selectiveWithSdpa: 'selective recompute drops the attention scores, which SDPA never stores',
};

/** The labels of the dimensions' values, as a plan lists its choices (Choice.value). */
export const choiceLabels = {
  oneGpu: 'one GPU',
  layout: (tp: number, pp: number, dp: number) => `tp ${tp}${tp > 1 ? ' + sp' : ''} · pp ${pp} · dp ${dp}`,
  everyWeight: 'every weight trained',
  lora: 'LoRA r=16, all-linear (trains adapters only)',
  qlora: 'QLoRA r=16, all-linear, NF4 base (trains adapters only)',
  offloadWeights: 'optimizer + weights to CPU',
  offloadOptimizer: 'optimizer to CPU',
  noOffload: 'no offload',
  noZero: 'no ZeRO',
  zero0: 'ZeRO-0 (DDP)',
  zero1: 'ZeRO-1',
  zero2: 'ZeRO-2',
  zero3: 'ZeRO-3 / FSDP',
  fullRecompute: 'full recompute',
  selectiveRecompute: 'selective recompute',
  noRecompute: 'no recompute',
  eager: 'eager attention',
  sdpa: 'SDPA (FlashAttention)',
  adamw8bit: '8-bit AdamW (bitsandbytes)',
  fused: 'AdamW, fused',
  foreach: 'AdamW, foreach (PyTorch default)',
  forLoop: 'AdamW, for-loop',
  microBatch: (microBatch: number, gradAccum: number) =>
    gradAccum === 1
      ? `micro-batch ${microBatch}, no accumulation`
      : `micro-batch ${microBatch} × ${gradAccum} accumulation steps`,
};

/** A plan's whole run on one line (run-budget.ts runBudgetLine): its steps, time, GPU-hours and cost in a tier. */
export const runLineWords = {
  line: (steps: number, time: string, gpuHours: string, cost: string) =>
    `${steps.toLocaleString('en-US')} steps · ${time} · ${gpuHours} GPU-hours · ${cost}`,
  noPrice: 'no price',
  /** A cost in a price tier: "290.32 (261.55–362.90) on-demand". */
  cost: (cost: string, tier: string) => `${cost} ${tier}`,
  tiers: { 'on-demand': 'on-demand', reserved: 'reserved', spot: 'spot' },
};

/** What is wrong with a planning request (request.ts): the planner's own field errors, in the CLI's words. */
export const requestMessages = {
  plannerChooses: (flag: string) => `--${flag} is one of the choices the planner makes; leave it out`,
  needsGlobalBatch: 'give --global-batch N, the sequences per optimizer step over all GPUs',
  epochCostNeedsTokens: 'ranking by cost per epoch needs --epoch-tokens N',
  needsGpu: 'give --gpu ID, the GPU you have',
  needsShape: 'the planner needs a model shape: give --model or --arch with its shape',
  unknownPriceGpu: (gpu: string) => `unknown gpu '${gpu}' in --price`,
  priceFormat: (text: string) => `expected GPU=ON-DEMAND/RESERVED/SPOT or GPU=none, e.g. h100-80gb=3/2.1/1.5, got '${text}'`,
  priceNotNumbers: (text: string) => `prices must be numbers of 0 or more, got '${text}'`,
};

/** Every word the planner puts in a plan or a rejection, in English. */
export const PLANNER_WORDS = {
  request: requestMessages,
  /** The engine's refusal of a field, as a rejection of kind 'invalid' quotes it (a language words it by its problem). */
  fieldError: (error: ShownFieldError): string => error.message,
  run: runLineWords,
  rejections: rejectionMessages,
  dominance: dominanceMessages,
  rules: ruleMessages,
  choices: choiceLabels,
};

/** The shape of the search's words in any language. */
export type PlannerWords = typeof PLANNER_WORDS;
