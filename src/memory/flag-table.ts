/**
 * The one table of estimate flags, and the shape every flag vocabulary shares. The CLI parser and `--help`, the URL
 * query, the calculators' labels and the validator's defaults all read it, so a flag is described in exactly one place;
 * the planner's own flags and the commands' `--json`/`--top` are described with the same definitions and builders.
 */
import { ATTENTIONS, KERNELS, RECOMPUTES } from './activations.ts';
import { FINETUNES } from './finetune.ts';
import { KV_CACHE_LAYOUTS } from './inference.ts';
import { ADAPTER_DTYPES, QLORA_FORMATS, QLORA_KEPT } from './lora.ts';
import { LOSS_KINDS } from './loss.ts';
import { WEIGHT_CHOICES, WEIGHT_FORMATS } from './weight-formats.ts';
import { ARCHS } from './model.ts';
import { OFFLOAD_DEVICES, OFFLOADS } from './offload.ts';
import { ACTIVATION_OFFLOADS } from './activation-offload.ts';
import { BATCHINGS } from './batching.ts';
import { FP8_RECIPES } from './fp8.ts';
import { OPTIMIZER_IMPLS, OPTIMIZERS } from './optimizer.ts';
import { MODES, type EstimateFlagKey } from './options.ts';
import { ZERO_STAGES } from './parallel.ts';
import { GRAD_DTYPES, PRECISIONS } from './precision.ts';
import { DEFAULT_STACK, STACKS } from './stacks.ts';
import { GRADIENT_LIFETIMES } from './timeline.ts';

/** Kind of value a flag takes. */
export type FlagKind = 'number' | 'enum' | 'boolean' | 'string';

/** Where a flag belongs when a form groups its fields. */
export type FlagGroup = 'model' | 'workload' | 'technique' | 'hardware';

/** One flag of a vocabulary: what parsing, reading and `--help` need. */
export interface FlagDefinition<K extends string = string> {
  /** Option key the flag sets, e.g. `microBatch` (an `EstimateOptions` key for the engine's flags). */
  key: K;
  /** Flag / query name (kebab-case), e.g. `micro-batch`. */
  flag: string;
  /** Value kind. */
  kind: FlagKind;
  /** Allowed values of an `enum` flag. */
  values?: readonly string[];
  /** Whether an `enum` flag's values are numbers (`--zero 3` sets the number 3). */
  numeric?: boolean;
  /** Whether a `string` flag may be given more than once (its values are then a list). */
  repeatable?: boolean;
  /** The default, in words when it depends on other flags (e.g. "model context"); undefined when there is none. */
  default?: string;
  /** One-line help (the CLI's `--help`, a form field's hint). */
  help: string;
  /** Largest value a number flag accepts (beyond any real configuration, and keeping every product exact). */
  max?: number;
  /** Placeholder in `--help`, e.g. `N`. */
  placeholder: string;
}

/** A flag a form shows as a field: a definition with its label. */
export interface FieldFlag<K extends string = EstimateFlagKey> extends FlagDefinition<K> {
  /** Short field label in plain words, for forms. */
  label: string;
  /** Unit of a number, for forms (`tokens`, `GPUs`, `%`). */
  unit?: string;
  /** Group in forms that group their fields (every engine flag has one). */
  group?: FlagGroup;
}

/** What a flag builder is given: a definition (and a field's label) without what the builder fills in. */
type Entry = Omit<FlagDefinition, 'kind' | 'placeholder' | 'values' | 'numeric'>;

/** A number flag (accepts suffixes k, m, b, t and `_` separators). */
export const numberFlag = <E extends Entry>(entry: E, placeholder = 'N') => ({ ...entry, kind: 'number' as const, placeholder });

/** An enumeration flag of `values`; numbers among them are parsed as numbers. */
export const enumFlag = <E extends Entry>(entry: E, values: readonly (string | number)[]) => ({
  ...entry,
  kind: 'enum' as const,
  values: values.map(String),
  placeholder: values.join('|'),
  numeric: values.every((v) => typeof v === 'number'),
});

/** A boolean flag: `--flag` alone is true. */
export const booleanFlag = <E extends Entry>(entry: E) => ({ ...entry, kind: 'boolean' as const, placeholder: '' });

/** A free-text flag. */
export const stringFlag = <E extends Entry>(entry: E, placeholder: string) => ({
  ...entry,
  kind: 'string' as const,
  placeholder,
});

/** Every flag, in help order. Numbers accept suffixes k, m, b, t (×10^3…10^12), e.g. `--params 7.5b`. */
export const FLAGS: readonly FieldFlag[] = [
  stringFlag(
    {
      key: 'model',
      flag: 'model',
      label: 'Model',
      help: 'model preset (see the list below); shape flags override it',
      group: 'model',
    },
    'ID',
  ),
  enumFlag({ key: 'arch', flag: 'arch', label: 'Architecture', help: 'custom architecture family', group: 'model' }, ARCHS),
  numberFlag({ key: 'hidden', flag: 'hidden', label: 'Hidden size', help: 'hidden size h', group: 'model' }),
  numberFlag({
    key: 'layers',
    flag: 'layers',
    label: 'Layers',
    help: 'layers L (mlp: hidden Linear+ReLU blocks)',
    group: 'model',
  }),
  numberFlag({ key: 'heads', flag: 'heads', default: 'h/64', label: 'Attention heads', help: 'attention heads', group: 'model' }),
  numberFlag({
    key: 'kvHeads',
    flag: 'kv-heads',
    default: 'heads',
    label: 'Key/value heads',
    help: 'key/value heads for grouped-query attention',
    group: 'model',
  }),
  numberFlag({
    key: 'ffn',
    flag: 'ffn',
    default: '4h; llama 8h/3 rounded to 256',
    label: 'MLP width',
    help: 'MLP inner width',
    group: 'model',
  }),
  numberFlag({ key: 'vocab', flag: 'vocab', label: 'Vocabulary', help: 'vocabulary size (mlp: classes)', group: 'model' }),
  numberFlag({
    key: 'positions',
    flag: 'positions',
    default: 'gpt2 1024, bert 512, else 0',
    label: 'Learned positions',
    help: 'rows of the learned position table',
    group: 'model',
  }),
  numberFlag({
    key: 'inputs',
    flag: 'inputs',
    default: 'none',
    label: 'Input features',
    help: 'mlp: input features of an input layer before the hidden blocks',
    group: 'model',
  }),
  numberFlag({
    key: 'experts',
    flag: 'experts',
    default: '1',
    label: 'Experts',
    help: 'mixture-of-experts: experts per layer',
    group: 'model',
  }),
  numberFlag({
    key: 'topK',
    flag: 'top-k',
    default: '2 with experts',
    label: 'Experts per token',
    help: 'mixture-of-experts: experts each token uses',
    group: 'model',
  }),
  booleanFlag({
    key: 'tieEmbeddings',
    flag: 'tie-embeddings',
    default: "the base model's; gpt2, bert tied",
    label: 'Tied embeddings',
    help: 'the LM head shares the token-embedding matrix (tie_word_embeddings): one tensor, one gradient',
    group: 'model',
  }),
  numberFlag({
    key: 'numLabels',
    flag: 'num-labels',
    default: 'none (LM head)',
    label: 'Classification labels',
    help: 'a classification head of N labels in place of the LM head (*ForSequenceClassification)',
    group: 'model',
  }),
  numberFlag({
    key: 'params',
    flag: 'params',
    label: 'Parameters',
    help: 'parameter count alone (model states only; activations 0)',
    group: 'model',
  }),
  enumFlag(
    {
      key: 'mode',
      flag: 'mode',
      default: 'train',
      label: 'Task',
      help: 'what to estimate: a training step or inference',
      group: 'workload',
    },
    MODES,
  ),
  numberFlag({
    key: 'microBatch',
    flag: 'micro-batch',
    default: '1',
    label: 'Batch per GPU',
    help: 'sequences per GPU per forward pass (infer: the batch)',
    unit: 'sequences',
    max: 1_000_000,
    group: 'workload',
  }),
  numberFlag({
    key: 'seq',
    flag: 'seq',
    default: 'model context',
    label: 'Sequence length',
    help: 'tokens per sequence',
    unit: 'tokens',
    max: 100_000_000,
    group: 'workload',
  }),
  enumFlag(
    {
      key: 'kvCache',
      flag: 'kv-cache',
      // The serving runtimes DeepSeek-V3's README lists under "How to Run Locally" (SGLang, LMDeploy, vLLM, …) cache the latent.
      default: 'latent',
      label: 'MLA KV cache',
      help: 'infer, DeepSeek-V2/V3 (MLA): latent = kv_lora_rank + qk_rope_head_dim per token per layer, as vLLM and SGLang cache it; expanded = every head’s keys and values, as Transformers caches them',
      group: 'technique',
    },
    KV_CACHE_LAYOUTS,
  ),
  numberFlag({
    key: 'gradAccum',
    flag: 'grad-accum',
    default: '1',
    label: 'Gradient accumulation',
    help: 'micro-batches per optimizer step',
    unit: 'micro-batches',
    group: 'technique',
  }),
  numberFlag({
    key: 'tokens',
    flag: 'tokens',
    default: 'seq',
    label: 'Tokens cached',
    help: 'infer: tokens in the KV cache per sequence (prompt + generated)',
    unit: 'tokens',
    max: 100_000_000,
    group: 'workload',
  }),
  enumFlag(
    {
      key: 'stack',
      flag: 'stack',
      default: DEFAULT_STACK,
      label: 'How do you train?',
      help: "the tool you train with; its defaults fill the technique flags you leave out (precision from the checkpoint's dtype, optimizer implementation, recompute, …)",
      group: 'technique',
    },
    STACKS,
  ),
  enumFlag(
    {
      key: 'precision',
      flag: 'precision',
      // Every stack sets it (stacks.ts), so this is what --help says rather than a value the reader falls back to.
      default: "the stack's (hf-trainer: the checkpoint's dtype)",
      label: 'Precision',
      help: 'training precision regime',
      group: 'technique',
    },
    PRECISIONS,
  ),
  enumFlag(
    {
      key: 'weights',
      flag: 'weights',
      default: 'bf16',
      label: 'Weight format',
      help: 'infer: how the weights are stored (bitsandbytes llm-int8, nf4, fp4, -dq with double quantization; GPTQ/AWQ 4-bit group 128; DeepSeek-V3 fp8-block, gpt-oss mxfp4; stored: as the checkpoint ships, from config.json)',
      group: 'technique',
    },
    WEIGHT_CHOICES,
  ),
  enumFlag(
    { key: 'optimizer', flag: 'optimizer', default: 'adamw', label: 'Optimizer', help: 'optimizer', group: 'technique' },
    OPTIMIZERS,
  ),
  enumFlag(
    {
      key: 'optimizerImpl',
      flag: 'optimizer-impl',
      default: "the stack's (hf-trainer: fused)",
      label: 'Optimizer implementation',
      help: "PyTorch optimizer implementation: foreach is torch.optim's default on CUDA, fused the Trainer's; DeepSpeed's FusedAdam and fused=True count as fused",
      group: 'technique',
    },
    OPTIMIZER_IMPLS,
  ),
  booleanFlag({
    key: 'optimizerInBackward',
    flag: 'optimizer-in-backward',
    label: 'Optimizer step in backward',
    help: 'torchtune optimizer_in_bwd (default off): each parameter is updated and its gradient freed as backward reaches it',
    group: 'technique',
  }),
  enumFlag(
    {
      key: 'grads',
      flag: 'grads',
      default: 'free',
      label: 'Gradients between steps',
      help: 'free: zero_grad(set_to_none=True); keep: set_to_none=False or contiguous buffers',
      group: 'technique',
    },
    GRADIENT_LIFETIMES,
  ),
  enumFlag(
    {
      key: 'gradDtype',
      flag: 'grad-dtype',
      default: 'param',
      label: 'Gradient dtype',
      help: "param: gradients in the weights' dtype; fp32: 4-byte gradient buffers beside 16-bit weights (Megatron's accumulate_allreduce_grads_in_fp32)",
      group: 'technique',
    },
    GRAD_DTYPES,
  ),
  enumFlag(
    {
      key: 'attention',
      flag: 'attention',
      default: 'sdpa',
      label: 'Attention kernel',
      help: 'sdpa: FlashAttention / memory-efficient (no s×s scores kept); eager: scores kept',
      group: 'technique',
    },
    ATTENTIONS,
  ),
  enumFlag(
    {
      key: 'kernels',
      flag: 'kernels',
      default: 'eager',
      label: 'Layer code',
      help: 'eager: PyTorch / Hugging Face modules; fused: Megatron-style fused kernels; llm-foundry: MosaicML llm-foundry MPT blocks (fused, plus the flash path’s padded copy of the attention output)',
      group: 'technique',
    },
    KERNELS,
  ),
  enumFlag(
    {
      key: 'loss',
      flag: 'loss',
      default: 'eager; vocab-parallel with --kernels fused, flash-attn with --kernels llm-foundry',
      label: 'Loss implementation',
      help: 'cross-entropy: eager (Hugging Face), vocab-parallel (Megatron), in-place (Unsloth), flash-attn (flash-attn Triton, llm-foundry), chunked (torchtune, 8 chunks), fused-linear (Liger), cut (Cut Cross-Entropy)',
      group: 'technique',
    },
    LOSS_KINDS,
  ),
  enumFlag(
    {
      key: 'recompute',
      flag: 'recompute',
      default: 'none',
      label: 'Activation recompute',
      help: 'activation recompute (gradient checkpointing): selective = Megatron-LM attention core (Korthikanti et al. 2022 §5); op = torchtitan selective_ac_option "op" (every other matmul saved); full = checkpointed layers',
      group: 'technique',
    },
    RECOMPUTES,
  ),
  numberFlag({
    key: 'checkpointEvery',
    flag: 'checkpoint-every',
    default: '1; mlp round(√L)',
    label: 'Layers per checkpoint',
    help: 'full recompute: layers per checkpoint segment',
    unit: 'layers',
    group: 'technique',
  }),
  enumFlag(
    {
      key: 'activationOffload',
      flag: 'activation-offload',
      default: 'none',
      label: 'Activation offload',
      help: 'saved activations to host memory: streamed (torchtune enable_activation_offloading) or checkpoints (Unsloth, needs --recompute full)',
      group: 'technique',
    },
    ACTIVATION_OFFLOADS,
  ),
  booleanFlag({
    key: 'dropout',
    flag: 'dropout',
    default: 'gpt2, bert on; llama, mlp off',
    label: 'Dropout',
    help: 'dropout on (--no-dropout turns it off)',
    group: 'technique',
  }),
  enumFlag(
    {
      key: 'finetune',
      flag: 'finetune',
      default: 'full',
      label: 'What is trained',
      help: 'full: every weight; lora: adapters on a 16-bit base; qlora: adapters on a 4-bit NF4 base',
      group: 'technique',
    },
    FINETUNES,
  ),
  enumFlag(
    {
      key: 'qloraFormat',
      flag: 'qlora-format',
      default: 'nf4-dq',
      label: 'QLoRA base format',
      help: 'bitsandbytes 4-bit base: nf4-dq (QLoRA paper: NF4 + double quantization), nf4, fp4-dq, fp4 (BitsAndBytesConfig default)',
      group: 'technique',
    },
    QLORA_FORMATS,
  ),
  enumFlag(
    {
      key: 'qloraKept',
      flag: 'qlora-kept',
      default: 'fp32',
      label: 'QLoRA non-quantized parameters',
      help: 'fp32: prepare_model_for_kbit_training upcasts embeddings, head and norms (PEFT); 16-bit: left as loaded (TRL)',
      group: 'technique',
    },
    QLORA_KEPT,
  ),
  numberFlag({ key: 'loraRank', flag: 'lora-rank', default: '16', label: 'LoRA rank', help: 'LoRA rank r', group: 'technique' }),
  stringFlag(
    {
      key: 'loraTargets',
      flag: 'lora-targets',
      default: 'all-linear',
      label: 'LoRA targets',
      help: 'all-linear, attention, or a comma list of q,k,v,o,gate,up,down',
      group: 'technique',
    },
    'LIST',
  ),
  numberFlag(
    {
      key: 'loraDropout',
      flag: 'lora-dropout',
      default: '0',
      label: 'LoRA dropout',
      help: 'PEFT lora_dropout p, 0 ≤ p < 1 (PEFT default 0): above 0 each adapted module keeps a dropped-out copy of its input',
      group: 'technique',
    },
    'P',
  ),
  enumFlag(
    {
      key: 'loraDtype',
      flag: 'lora-dtype',
      default: 'fp32',
      label: 'LoRA adapter dtype',
      help: 'dtype of the adapters, their gradients and moments: fp32 (PEFT autocast_adapter_dtype=True), or bf16/fp16 as the base',
      group: 'technique',
    },
    ADAPTER_DTYPES,
  ),
  stringFlag(
    {
      key: 'modulesToSave',
      flag: 'modules-to-save',
      default: 'none',
      label: 'Modules trained in full',
      help: 'PEFT modules_to_save: none, or a comma list of embed,head trained in full beside the adapters',
      group: 'technique',
    },
    'LIST',
  ),
  booleanFlag({
    key: 'dora',
    flag: 'dora',
    label: 'DoRA',
    help: 'DoRA adapters (PEFT use_dora=True; default off): magnitudes and a weight norm per adapted module',
    group: 'technique',
  }),
  numberFlag({
    key: 'dp',
    flag: 'dp',
    default: '1',
    label: 'Data-parallel GPUs',
    help: 'data-parallel GPUs',
    unit: 'GPUs',
    group: 'technique',
  }),
  enumFlag(
    { key: 'zero', flag: 'zero', default: '0', label: 'ZeRO stage', help: 'ZeRO stage; FSDP full-shard = 3', group: 'technique' },
    ZERO_STAGES,
  ),
  numberFlag({
    key: 'shardGroup',
    flag: 'shard-group',
    default: 'dp',
    label: 'HSDP shard group',
    help: 'with --zero 3: GPUs each shard group spans (HSDP: shard within a node, replicate across); divides --dp',
    unit: 'GPUs',
    group: 'technique',
  }),
  numberFlag({
    key: 'tp',
    flag: 'tp',
    default: '1',
    label: 'Tensor-parallel degree',
    help: 'tensor-parallel degree',
    unit: 'GPUs',
    group: 'technique',
  }),
  booleanFlag({
    key: 'sp',
    flag: 'sp',
    label: 'Sequence parallel',
    help: 'sequence parallelism (with --tp)',
    group: 'technique',
  }),
  numberFlag({
    key: 'pp',
    flag: 'pp',
    default: '1',
    label: 'Pipeline stages',
    help: 'pipeline-parallel stages, 1F1B schedule',
    unit: 'stages',
    group: 'technique',
  }),
  numberFlag({
    key: 'ppVirtual',
    flag: 'pp-virtual',
    default: '1',
    label: 'Virtual stages per pipeline stage',
    help: 'model chunks per pipeline stage: interleaved 1F1B above 1 (Megatron-LM)',
    unit: 'chunks',
    group: 'technique',
  }),
  enumFlag(
    { key: 'offload', flag: 'offload', default: 'none', label: 'Offload', help: 'offload to host memory', group: 'technique' },
    OFFLOADS,
  ),
  enumFlag(
    {
      key: 'offloadDevice',
      flag: 'offload-device',
      default: 'cpu',
      label: 'Offload target',
      help: 'where offloaded states go',
      group: 'technique',
    },
    OFFLOAD_DEVICES,
  ),
  booleanFlag({
    key: 'compile',
    flag: 'compile',
    label: 'torch.compile',
    help: 'torch.compile: not modelled; the eager saved activations are counted as an upper bound (the output says so)',
    group: 'technique',
  }),
  booleanFlag({
    key: 'keepGatheredWeights',
    flag: 'keep-gathered-weights',
    label: 'Keep gathered weights',
    help: 'with --zero 3: keep the gathered weights from forward to backward (FSDP2 reshard_after_forward=False): more memory, no all-gather in backward',
    group: 'technique',
  }),
  stringFlag(
    {
      key: 'teacher',
      flag: 'teacher',
      label: 'Teacher model',
      help: 'distillation: frozen teacher model preset',
      group: 'model',
    },
    'ID',
  ),
  enumFlag(
    {
      key: 'teacherWeights',
      flag: 'teacher-weights',
      default: 'bf16 (fp32 with --precision fp32)',
      label: 'Teacher weight format',
      help: 'distillation: teacher weight format',
      group: 'technique',
    },
    WEIGHT_FORMATS,
  ),
  stringFlag({ key: 'gpu', flag: 'gpu', label: 'GPU', help: 'GPU preset to check the fit against', group: 'hardware' }, 'ID'),
  numberFlag(
    {
      key: 'headroom',
      flag: 'headroom',
      default: '10',
      label: 'Free margin',
      help: 'free margin to keep against fragmentation, percent of GPU memory',
      unit: '%',
      group: 'hardware',
    },
    'PCT',
  ),
  numberFlag(
    {
      key: 'mfu',
      flag: 'mfu',
      default: 'the calibrated curve',
      label: 'Compute efficiency',
      help: "model-FLOPs utilisation the step time assumes, percent of the GPU's dense peak (default: calibrated to published runs)",
      unit: '%',
      group: 'hardware',
    },
    'PCT',
  ),
  enumFlag(
    {
      key: 'batching',
      flag: 'batching',
      default: 'padded',
      label: 'Batch layout',
      help: 'padded (each sequence padded to --seq), packed (documents packed into rows of --seq: TRL packing, axolotl sample_packing), padding-free (one row of the real tokens: DataCollatorWithFlattening, TRL padding_free)',
      group: 'workload',
    },
    BATCHINGS,
  ),
  numberFlag({
    key: 'meanSeq',
    flag: 'mean-seq',
    default: 'seq',
    label: 'Mean real length',
    help: 'mean real tokens per sequence (packed: per document), at most --seq: padding is computed but not trained; the peak is for the worst batch, every sequence at --seq',
    unit: 'tokens',
    max: 100_000_000,
    group: 'workload',
  }),
  enumFlag(
    {
      key: 'fp8',
      flag: 'fp8',
      default: 'none',
      label: 'FP8 training',
      help: 'float8 Linear layers: torchao-tensorwise, torchao-rowwise (convert_to_float8_training: 16-bit inputs saved), te (Transformer Engine: 1-byte inputs saved, a float8 weight copy and transpose); needs FP8 tensor cores (Ada, Hopper, Blackwell, MI300)',
      group: 'technique',
    },
    FP8_RECIPES,
  ),
  booleanFlag({
    key: 'fp8AllGather',
    flag: 'fp8-all-gather',
    label: 'FP8 all-gather',
    help: 'with --fp8 torchao-tensorwise and --zero 3: all-gather the weights in float8, 1 byte each (torchao enable_fsdp_float8_all_gather; default off)',
    group: 'technique',
  }),
];

/** A flag that sets another flag's option to a fixed value (kept for old links and muscle memory). */
export interface FlagAlias<K extends string = EstimateFlagKey> {
  /** Alias flag name. */
  flag: string;
  /** Option it sets. */
  key: K;
  /** Value it sets when given as true. */
  value: string | boolean;
  /** What `--help` says about it. */
  help: string;
}

/** Boolean flags that stand for a value of another flag. */
export const FLAG_ALIASES: readonly FlagAlias[] = [
  { flag: 'no-dropout', key: 'dropout', value: false, help: 'same as --dropout false' },
  { flag: 'flash-attention', key: 'attention', value: 'sdpa', help: 'same as --attention sdpa' },
  { flag: 'no-tie-embeddings', key: 'tieEmbeddings', value: false, help: 'the LM head is a matrix of its own' },
];

/** A vocabulary's flags and aliases, found by option key or by name. */
export interface FlagTable<D extends FlagDefinition = FlagDefinition> {
  /** Every flag, in help order. */
  readonly flags: readonly D[];
  /** Flags that stand for a value of another flag. */
  readonly aliases: readonly FlagAlias<D['key']>[];
  /** The flag of an option key; throws for a key without one (a programming error). */
  of(key: D['key']): D;
  /** The flag of a name, or undefined. */
  named(name: string): D | undefined;
  /** The alias of a name, or undefined. */
  alias(name: string): FlagAlias<D['key']> | undefined;
}

/** A table over `flags` and `aliases`. */
export function createFlagTable<D extends FlagDefinition>(
  flags: readonly D[],
  aliases: readonly FlagAlias<D['key']>[] = [],
): FlagTable<D> {
  const byKey = new Map<string, D>(flags.map((f) => [f.key, f]));
  const byName = new Map<string, D>(flags.map((f) => [f.flag, f]));
  const aliasByName = new Map(aliases.map((a) => [a.flag, a]));
  return {
    flags,
    aliases,
    of(key) {
      const found = byKey.get(key);
      if (found === undefined) throw new Error(`no flag for option ${key}`);
      return found;
    },
    named: (name) => byName.get(name),
    alias: (name) => aliasByName.get(name),
  };
}

/** The engine's flags: `estimate`, the calculators and every `EstimateOptions` reader use this table. */
export const ESTIMATE_FLAG_TABLE: FlagTable<FieldFlag> = createFlagTable(FLAGS, FLAG_ALIASES);

/** The flag of an option key. */
export function flagOf(key: EstimateFlagKey): FieldFlag {
  return ESTIMATE_FLAG_TABLE.of(key);
}

/** The flag definition of a flag name, or undefined. */
export function flagNamed(name: string): FieldFlag | undefined {
  return ESTIMATE_FLAG_TABLE.named(name);
}

/** The flag / query name of an option key, e.g. `microBatch` → `micro-batch`. */
export function flagName(key: EstimateFlagKey): string {
  return flagOf(key).flag;
}
