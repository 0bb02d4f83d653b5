/**
 * The reasons the readers give for a key that sets no engine option: what it changes that the engine does not count,
 * why it changes nothing, or what the stack's default decides. Each is written once here, in English, as a function of
 * its parameters; a reading keeps the code and the parameters (`SetupReason`) beside the English, so the terminal prints
 * these words and the site's reader words the same reason in its page's language (src/i18n, typed by `SetupReasons`).
 */
export const SETUP_REASONS = {
  // Shared by the trainers' readers.
  packedCounted: () => 'packed rows are counted as packed, flattened or not',
  paddingFreeInstead: () => 'off: the batch is padding-free instead',
  paddedBatch: () => 'off: the batch is padded',
  otherModulesTrained: (modules: string) => `${modules} trained in full beside the adapters`,
  quantStorage: () => 'the packed 4-bit codes take n/2 bytes whatever dtype stores them (bitsandbytes Params4bit quant_storage)',
  optimizerNotCounted: (name: string, counted: string) => `optimizer ${name}: the engine counts ${counted}`,
  // The Trainer's and TRL's keys (also read inside Unsloth's and LLaMA-Factory's files).
  autocastLoadDtype: (half: string) => `${half} autocast over weights whose dtype at load this file does not give`,
  fp16Weights: () => 'fp16 weights: the Trainer refuses to unscale fp16 gradients; pure fp16 is not an engine precision',
  attentionKind: (name: string) => `attention ${name}`,
  inlineDeepSpeed: () => 'an inline DeepSpeed configuration: save it as a JSON file and give it as a second file',
  adaptersOn: (modules: string) => `adapters on ${modules}`,
  eightBitBase: () => 'an 8-bit (LLM.int8) base',
  lossType: (type: string) => `loss_type ${type}`,
  hybridShardGroup: (word: string) => `${word}: the shard group is one machine's GPUs, which the launcher sets (--shard-group N)`,
  // accelerate.
  autocastScriptDtype: (half: string) => `${half} autocast over weights whose dtype at load the script decides`,
  precisionTraining: (mode: string) => `${mode} training`,
  megatron: () => 'Megatron-LM through accelerate (read its own arguments)',
  oneMachineHybrid: () => 'one machine: the hybrid shard group is every process, as FULL_SHARD',
  contextParallelOver: (gpus: number) => `context parallelism over ${gpus} GPUs`,
  fp8MsAmp: () => 'fp8 training through MS-AMP',
  fp8NoBackend: () => 'fp8 training without fp8_config.backend (TE or AO)',
  // LLaMA-Factory.
  referenceModels: (stage: string) => `${stage}: the reference (and for PPO, reward and value) models beside the policy`,
  unslothKernels: () => "Unsloth's patched kernels",
  unslothCheckpointing: () => "Unsloth's gradient checkpointing, which offloads the checkpointed activations to the host",
  galore: () => 'GaLore low-rank optimizer states',
  apollo: () => 'APOLLO optimizer states',
  badam: () => 'BAdam block-wise updates',
  upcastLayerNorm: () => 'layer norms upcast to fp32',
  quantizedBase: (method: string) => `a ${method}-quantized base`,
  bitsBase: (bits: number) => `a ${bits}-bit base`,
  fineTuningKind: (type: string) => `${type} fine-tuning`,
  neatPackingPacks: () => 'neat_packing packs already',
  neatPackingOff: () => 'off: packed rows, if packing is on, may attend across documents; the bytes are the same',
  // axolotl.
  activationOffloadingMode: (mode: string) => `activation offloading "${mode}"`,
  adapterKind: (adapter: string) => `${adapter} adapters`,
  checkpointsToDisk: () => 'the checkpointed activations offloaded to disk',
  // torchtune.
  lossComponent: (component: string) => `loss ${component}`,
  replicasInferred: (replicas: number) =>
    `${replicas} replicas of a shard group inferred from the world size (pass --dp and --shard-group)`,
  adapterOnOutput: () => 'an adapter on the output head',
  fp8Off: () => 'enable_fp8_training is off',
  fp8Recipe: (name: string) => `the float8 recipe ${name}`,
  // torchtitan.
  float8Linear: () => 'float8 training (torchao Float8Linear)',
  allGpusShard: () => '-1 shards over every GPU the launcher gives: pass --dp',
  pipelineStages: (degree: number) => `${degree} pipeline stages (the engine’s --pp, not carried from files yet)`,
  contextParallelism: (degree: number) => `${degree} context parallelism`,
  expertParallelism: (degree: number) => `${degree} expert parallelism`,
  accumulationUnfixed: () => 'accumulation steps are global / (local × data-parallel degree), which this file does not fix',
  bf16ThroughFullyShard: () => 'bf16 through fully_shard when sharded, else torch.autocast',
  everyNthBlock: (n: string) => `checkpointing every ${n}th block only`,
  selectiveDefault: () => 'selective without selective_ac_option: the stack’s default',
  memoryBudget: () => 'the compiler’s memory-budget checkpointing',
  optimizerName: (name: string) => `optimizer ${name}`,
  // DeepSpeed JSON, and its "auto" keys filled from the other files.
  allgatherBucket: (elements: number) => `an all-gather bucket of ${elements} elements`,
  reduceBucket: (elements: number) => `a reduce bucket of ${elements} elements`,
  prefetchBucket: (elements: number) => `ZeRO-3 prefetching ${elements} parameters ahead`,
  persistenceThreshold: (elements: number) => `parameters under ${elements} elements kept gathered`,
  maxLiveParameters: (elements: number) => `up to ${elements} gathered parameters live at once`,
  maxReuseDistance: (elements: number) => `gathered parameters kept when reused within ${elements} parameters`,
  hpzShard: (size: number) =>
    `ZeRO++ secondary weight shard: the 16-bit weights once more, sharded over ${size} GPUs (2·P/${size} bytes per GPU)`,
  deepSpeedOptimizer: (type: string) => `DeepSpeed optimizer ${type}: the engine counts Adam, AdamW and Lion here`,
  autoNotZero3: () => 'left as DeepSpeed sets it (not ZeRO-3)',
  autoHiddenUnknown: () => 'a buffer sized from the hidden size, not known here',
  autoNoHalf: () => 'auto: no trainer file gives bf16 or fp16',
  autoNoOption: (option: string) => `auto: no trainer file gives ${option}`,
  // Why one file's value wins a conflict.
  deepSpeedWins: () =>
    'the DeepSpeed JSON wins: DeepSpeed builds its engine from it (transformers refuses such a mismatch at start, trainer_config_finalize)',
  trainerWins: () => "the trainer's own arguments win over the launcher's config",
  laterFileWins: () => 'the file given later wins',
};

/** The shape of those reasons in any language. */
export type SetupReasons = typeof SETUP_REASONS;

/** One reason's code. */
export type SetupReasonCode = keyof SetupReasons;

/** A reason as a reading keeps it: its code and the parameters its words take. */
export type SetupReason = {
  readonly [C in SetupReasonCode]: { readonly code: C; readonly params: Parameters<SetupReasons[C]> };
}[SetupReasonCode];

/** The reasons that size a DeepSpeed buffer from its number of elements. */
export type BufferReasonCode =
  'allgatherBucket' | 'reduceBucket' | 'prefetchBucket' | 'persistenceThreshold' | 'maxLiveParameters' | 'maxReuseDistance';

/** The reason `code` with its parameters. */
export function reason<C extends SetupReasonCode>(code: C, ...params: Parameters<SetupReasons[C]>): SetupReason {
  return { code, params } as SetupReason;
}

/** The reason in `words`' language (English by default). */
export function reasonText(given: SetupReason, words: SetupReasons = SETUP_REASONS): string {
  // Each code's params were typed for its own words when the reason was made, so the call below matches.
  const say = words[given.code] as (...params: readonly (string | number)[]) => string;
  return say(...given.params);
}
