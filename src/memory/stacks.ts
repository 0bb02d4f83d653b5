/**
 * The training stacks a reader may run. Each stack stands for what that tool really does by default (weight dtype at
 * load, master weights, optimizer implementation, attention, checkpointing, loss), so an unflagged estimate for
 * `hf-trainer` describes an unflagged `Trainer` run on current versions. A default is resolved as: an option the reader
 * gives > the stack's default > the flag table's default (validate.ts). Every default cites the line of the tool's source
 * or docs that sets it, with the version it was read from; what a stack does that the engine cannot express yet is a
 * named `NotModelled` entry that every estimate lists.
 */
import type { Attention, Kernels, Recompute } from './activations.ts';
import type { ActivationOffload } from './activation-offload.ts';
import type { Finetune } from './finetune.ts';
import type { AdapterDtype, QloraKept } from './lora.ts';
import type { LossKind } from './loss.ts';
import type { CheckpointDtype, ModelConfig } from './model.ts';
import type { OptimizerImpl, OptimizerKind } from './optimizer.ts';
import type { ZeroStage } from './parallel.ts';
import type { GradDtype, Precision } from './precision.ts';
import type { GradientLifetime } from './timeline.ts';

/** A training stack: the tool whose defaults an estimate assumes. */
export type Stack =
  | 'hf-trainer'
  | 'trl'
  | 'pytorch'
  | 'deepspeed'
  | 'fsdp2'
  | 'megatron'
  | 'torchtitan'
  | 'torchtune'
  | 'llama-factory'
  | 'axolotl'
  | 'unsloth';

/** Every stack, in the order the site lists them. */
export const STACKS: readonly Stack[] = [
  'hf-trainer',
  'trl',
  'pytorch',
  'deepspeed',
  'fsdp2',
  'megatron',
  'torchtitan',
  'torchtune',
  'llama-factory',
  'axolotl',
  'unsloth',
];

/** The stack an estimate assumes when none is given: the Hugging Face Trainer on current versions (issue #28). */
export const DEFAULT_STACK: Stack = 'hf-trainer';

/** A value a tool sets by default, with the line of its source or docs that sets it and the version read. */
export interface Cited<T> {
  readonly value: T;
  readonly source: string;
}

/** The dtype a stack loads the weights in: the checkpoint's own (`stored`) or a fixed one. */
export type LoadDtype = 'stored' | CheckpointDtype;

/**
 * How a stack computes in 16 bits over the loaded weights: `autocast` runs torch.autocast(bfloat16) over them (the
 * optimizer's moments take the weights' dtype); `fp32-master` computes with 16-bit weights and gradients and keeps an
 * fp32 copy in the optimizer (ZeRO, Megatron, FSDP2's MixedPrecisionPolicy); `none` computes in the weights' dtype.
 */
export type MixedPrecision = 'autocast' | 'fp32-master' | 'none';

/**
 * The engine options a stack sets directly, each with its source. `loraDtype` and `loraDropout` apply to LoRA and QLoRA
 * jobs only and `qloraKept` to QLoRA only: `stackDefaults` leaves them out of any other job, so no estimate lists a setting it does
 * not use.
 */
export interface StackOptions {
  readonly optimizer?: Cited<OptimizerKind>;
  readonly optimizerImpl?: Cited<OptimizerImpl>;
  readonly attention?: Cited<Attention>;
  readonly recompute?: Cited<Recompute>;
  readonly kernels?: Cited<Kernels>;
  readonly grads?: Cited<GradientLifetime>;
  readonly zero?: Cited<ZeroStage>;
  readonly loss?: Cited<LossKind>;
  readonly loraDtype?: Cited<AdapterDtype>;
  readonly loraDropout?: Cited<number>;
  readonly qloraKept?: Cited<QloraKept>;
  readonly activationOffload?: Cited<ActivationOffload>;
  readonly gradDtype?: Cited<GradDtype>;
}

/** An engine option a stack can set directly. */
export type StackOptionKey = keyof StackOptions;

/** Every option a stack decides when the reader leaves it out: the precision and the options it sets directly. */
export const STACK_DECIDED_KEYS: readonly ('precision' | StackOptionKey)[] = [
  'precision',
  'optimizer',
  'optimizerImpl',
  'attention',
  'recompute',
  'kernels',
  'grads',
  'zero',
  'loss',
  'loraDtype',
  'loraDropout',
  'qloraKept',
  'activationOffload',
  'gradDtype',
];

/** An option a stack decides when the reader leaves it out. */
export type StackDecidedKey = (typeof STACK_DECIDED_KEYS)[number];

/**
 * The options a stack decides that `finetune` uses: the adapter dtype and dropout count for LoRA and QLoRA only, what a
 * QLoRA base keeps for QLoRA only. Written out with an estimate, these reproduce it without warnings about ignored flags.
 */
export function stackDecidedKeysFor(finetune: Finetune): readonly StackDecidedKey[] {
  const adapters = finetune === 'lora' || finetune === 'qlora';
  return STACK_DECIDED_KEYS.filter(
    (key) => ((key !== 'loraDtype' && key !== 'loraDropout') || adapters) && (key !== 'qloraKept' || finetune === 'qlora'),
  );
}

/** Something a stack does by default that the engine cannot express yet; every estimate on that stack lists it. */
export interface NotModelled {
  /** Stable id, e.g. `activation-offload`. */
  readonly id: string;
  /** What the tool does, in words. */
  readonly what: string;
  /** The engine option that will carry it once it exists, e.g. `--recompute op`. */
  readonly option: string;
  /** The line of the tool that does it, with the version read. */
  readonly source: string;
}

/** One stack's defaults. */
export interface StackSpec {
  readonly id: Stack;
  /** Name in the site's "How do you train?" choice. */
  readonly label: string;
  /** The tool and version the defaults were read from. */
  readonly version: string;
  /** The dtype the weights are loaded in. */
  readonly load: Cited<LoadDtype>;
  /** How 16-bit compute runs over them. */
  readonly mixed: Cited<MixedPrecision>;
  /** Where the tool upcasts a full fine-tune's trainable parameters to fp32 after loading; absent when it does not. */
  readonly upcastTrainable?: string;
  /** Engine options set directly. */
  readonly options: StackOptions;
  /** What it does by default that the engine cannot express yet. */
  readonly notModelled: readonly NotModelled[];
}

const TRANSFORMERS = 'transformers 5.x (main, 2026)';
const TRAINER_FUSED: Cited<OptimizerImpl> = {
  value: 'fused',
  source: `${TRANSFORMERS} training_args.py: default_optim = "adamw_torch_fused" when is_torch_greater_or_equal_than_2_8`,
};
const TRAINER_BF16: Cited<MixedPrecision> = {
  value: 'autocast',
  source: `${TRANSFORMERS} training_args.py bf16: "Enable bfloat16 (BF16) mixed precision training" through torch.amp (the bf16=True recipe)`,
};
const SDPA: Cited<Attention> = {
  value: 'sdpa',
  source: 'transformers 5.x attn_implementation: sdpa where torch provides it (FlashAttention / memory-efficient kernels)',
};
const TORCH_FOREACH: Cited<OptimizerImpl> = {
  value: 'foreach',
  source: 'torch/optim/optimizer.py _default_to_fused_or_foreach (PyTorch 2.x): fused only when asked; foreach for CUDA tensors',
};
const FSDP_FULL_SHARD: Cited<ZeroStage> = {
  value: 3,
  source: 'torch.distributed.fsdp.fully_shard (PyTorch 2.x): reshard_after_forward=True shards parameters, gradients and states',
};

/** Every stack's defaults, by id. */
export const STACK_SPECS: Readonly<Record<Stack, StackSpec>> = {
  // `hf-trainer` means the Trainer's usual recipe, TrainingArguments(bf16=True): on a bf16 checkpoint it trains the same
  // bytes as without the flag (pure bf16), on an fp32 one it is autocast over fp32 weights (amp-bf16).
  'hf-trainer': {
    id: 'hf-trainer',
    label: 'Hugging Face Trainer',
    version: `${TRANSFORMERS}, PyTorch ≥ 2.8`,
    load: {
      value: 'stored',
      source:
        'transformers 5.x from_pretrained loads in the dtype the config.json stores (TRL 1.10.0.dev0 sft_trainer.py documents it: "since Transformers v5 the dtype is inferred from the model config")',
    },
    mixed: TRAINER_BF16,
    options: { optimizerImpl: TRAINER_FUSED, attention: SDPA },
    notModelled: [],
  },
  trl: {
    id: 'trl',
    label: 'TRL SFTTrainer',
    version: 'TRL 1.10.0.dev0 (f2cd577) on transformers 5',
    load: {
      value: 'float32',
      source:
        'TRL 1.10.0.dev0 trainer/utils.py:1144 dtype = kwargs.get("dtype", "float32"); model_config.py:89 dtype default "float32"',
    },
    mixed: {
      value: 'autocast',
      source: 'TRL 1.10.0.dev0 trainer/base_config.py:67 bf16 "defaults to True if fp16 is not set"',
    },
    options: {
      optimizerImpl: TRAINER_FUSED,
      attention: SDPA,
      recompute: { value: 'full', source: 'TRL 1.10.0.dev0 trainer/base_config.py:61 gradient_checkpointing default=True' },
      // chunked_nll runs lm_head + cross-entropy on 256-token chunks under torch.utils.checkpoint, so only the head input
      // is kept and each chunk's logits are rebuilt in backward: the engine's `cut` (head input kept, no logits). The one
      // chunk's transient logits (256 × V) are left out.
      loss: {
        value: 'cut',
        source:
          'TRL 1.10.0.dev0 trainer/sft_config.py:334-336 loss_type defaults to "chunked_nll"; sft_trainer.py:86 _CHUNKED_LM_HEAD_CHUNK_SIZE = 256, :214 each chunk under torch.utils.checkpoint',
      },
      loraDropout: {
        value: 0.05,
        source:
          'TRL 1.10.0.dev0 trainer/model_config.py:115-118 lora_dropout default 0.05 (the LoraConfig that trl sft --use_peft builds)',
      },
      qloraKept: {
        value: '16-bit',
        source:
          'TRL 1.10.0.dev0 trainer/sft_trainer.py builds the PEFT model with get_peft_model and never calls prepare_model_for_kbit_training',
      },
    },
    notModelled: [],
  },
  pytorch: {
    id: 'pytorch',
    label: 'Plain PyTorch loop',
    version: 'PyTorch 2.x',
    load: {
      value: 'float32',
      source: 'PyTorch 2.x torch.get_default_dtype() is float32: nn.Module parameters are created in it',
    },
    mixed: {
      value: 'autocast',
      source: 'PyTorch 2.x AMP docs (torch.amp): the usual recipe wraps forward in torch.autocast("cuda", dtype=torch.bfloat16)',
    },
    options: { optimizerImpl: TORCH_FOREACH, attention: SDPA },
    notModelled: [],
  },
  deepspeed: {
    id: 'deepspeed',
    label: 'DeepSpeed',
    version: 'DeepSpeed 0.19.6 (edaa722)',
    load: {
      value: 'bfloat16',
      source: 'DeepSpeed 0.19.6 runtime/engine.py:1526-1544: with "bf16": {"enabled": true} the parameters are cast to bfloat16',
    },
    mixed: {
      value: 'fp32-master',
      source:
        'DeepSpeed 0.19.6 runtime/bf16_optimizer.py and runtime/zero/: the optimizer keeps an fp32 master copy of the bf16 weights',
    },
    options: {
      optimizerImpl: {
        value: 'fused',
        source: 'DeepSpeed 0.19.6 runtime/engine.py:2133-2135: "optimizer": {"type": "AdamW"} builds FusedAdam',
      },
      attention: SDPA,
    },
    notModelled: [],
  },
  fsdp2: {
    id: 'fsdp2',
    label: 'PyTorch FSDP2',
    version: 'PyTorch 2.x fully_shard',
    load: { value: 'float32', source: 'PyTorch 2.x torch.get_default_dtype() is float32: FSDP2 shards the parameters as built' },
    mixed: {
      value: 'fp32-master',
      source:
        'MixedPrecisionPolicy(param_dtype=bfloat16, reduce_dtype=float32), the recipe torchtitan 0.2.2 config/configs.py:94 sets: fp32 shards (4 B) and fp32 gradients (4 B) with AdamW (8 B) come to the 16 B per parameter of mixed-bf16',
    },
    options: { optimizerImpl: TORCH_FOREACH, attention: SDPA, zero: FSDP_FULL_SHARD },
    notModelled: [],
  },
  megatron: {
    id: 'megatron',
    label: 'Megatron-LM',
    version: 'Megatron-Core 0.20.0 (d98e8a6)',
    load: { value: 'bfloat16', source: 'Megatron-LM (core 0.20.0) --bf16 (its example scripts set it): bf16 weights' },
    mixed: {
      value: 'fp32-master',
      source:
        'Megatron-Core 0.20.0 optimizer/optimizer.py:964 Float16OptimizerWithFloat16Params: fp32 main params in the optimizer',
    },
    options: {
      optimizerImpl: {
        value: 'fused',
        source: 'Megatron-Core 0.20.0 optimizer/__init__.py:14,20: Adam is Transformer Engine or apex FusedAdam',
      },
      attention: SDPA,
      kernels: {
        value: 'fused',
        source: 'Megatron-Core 0.20.0 transformer/transformer_config.py:1314 transformer_impl default "transformer_engine"',
      },
      grads: {
        value: 'keep',
        source: 'Megatron-Core 0.20.0 distributed/param_and_grad_buffer.py: gradients live in one contiguous buffer for the run',
      },
      recompute: {
        value: 'none',
        source: 'Megatron-Core 0.20.0 transformer/transformer_config.py:532 recompute_granularity default None',
      },
      // With --bf16 the gradients are accumulated and all-reduced in an fp32 `main_grad` buffer (4 B per parameter), which
      // the fp32 main params' optimizer then reads as their gradient: no second copy. Under --fp16 the flag stays off, so
      // validate.ts applies it to bf16 weights only.
      gradDtype: {
        value: 'fp32',
        source:
          'Megatron-LM (core 0.20.0, d98e8a6) training/arguments.py:1204-1217 --bf16 sets accumulate_allreduce_grads_in_fp32 = True (--main-grads-dtype default fp32, :3671); training/training.py:2635 grad_reduce_in_fp32 = it; core/distributed/param_and_grad_buffer.py:924 grad_dtype = torch.float; core/optimizer/optimizer.py:1097 main_param.grad = main_grad.float() (the same tensor)',
      },
    },
    notModelled: [],
  },
  torchtitan: {
    id: 'torchtitan',
    label: 'torchtitan',
    version: 'torchtitan 0.2.2 (b5bcd76)',
    load: { value: 'float32', source: 'torchtitan 0.2.2 builds the model in float32 and shards it with FSDP2' },
    mixed: {
      value: 'fp32-master',
      source: 'torchtitan 0.2.2 config/configs.py:94,102 mixed_precision_param "bfloat16", mixed_precision_reduce "float32"',
    },
    options: {
      optimizerImpl: {
        value: 'fused',
        source: 'torchtitan 0.2.2 components/optimizer/optimizer.py:109-111 implementation default "fused"',
      },
      attention: SDPA,
      zero: {
        value: 3,
        source: 'torchtitan 0.2.2 config/configs.py:133 data_parallel_shard_degree -1: FSDP over every GPU',
      },
      recompute: {
        value: 'op',
        source:
          'torchtitan 0.2.2 models/llama3/config_registry.py:221 llama3_8b activation_checkpoint=SelectiveAC.Config(); distributed/activation_checkpoint.py:185 SelectiveAC saves the expensive ops and every second matmul',
      },
      // ChunkedLossWrapper runs lm_head → loss → backward per chunk inside forward and keeps only the input gradient:
      // the engine's `fused-linear`. Its GradAccumulator sums that gradient in fp32 before casting it back.
      loss: {
        value: 'fused-linear',
        source:
          'torchtitan 0.2.2 models/llama3/config_registry.py:197 loss=ChunkedLossWrapper.Config; components/loss.py:544 num_chunks = 8, per-chunk chunk_loss.backward() in forward',
      },
    },
    notModelled: [],
  },
  torchtune: {
    id: 'torchtune',
    label: 'torchtune',
    version: 'torchtune 0.7.0 (bd2a0fc), recipe full_finetune_distributed',
    load: { value: 'bfloat16', source: 'torchtune 0.7.0 recipes/configs/llama3/8B_full.yaml:87 dtype: bf16' },
    mixed: {
      value: 'none',
      source: 'torchtune 0.7.0 dtype: bf16 trains weights, gradients and AdamW states in bf16, no autocast',
    },
    options: {
      optimizerImpl: {
        value: 'fused',
        source: 'torchtune 0.7.0 recipes/configs/llama3/8B_full.yaml:67-69 torch.optim.AdamW fused: True',
      },
      attention: SDPA,
      recompute: {
        value: 'full',
        source: 'torchtune 0.7.0 recipes/configs/llama3/8B_full.yaml:82 enable_activation_checkpointing: True',
      },
      zero: FSDP_FULL_SHARD,
      loss: {
        value: 'chunked',
        source: 'torchtune 0.7.0 recipes/configs/llama3/8B_full.yaml:70-71 loss: torchtune.modules.loss.LinearCrossEntropyLoss',
      },
      loraDtype: {
        value: 'bf16',
        source:
          'torchtune 0.7.0 recipes/configs/llama3/8B_lora.yaml:99 dtype: bf16: the recipe builds every parameter, adapters included, in bf16',
      },
    },
    notModelled: [],
  },
  'llama-factory': {
    id: 'llama-factory',
    label: 'LLaMA-Factory',
    version: 'LLaMA-Factory 0.9.6.dev0 (ff6d4d1)',
    load: {
      value: 'bfloat16',
      source: 'LLaMA-Factory 0.9.6.dev0 hparams/parser.py:640-641 compute_dtype bfloat16 with bf16: true (its examples set it)',
    },
    mixed: TRAINER_BF16,
    upcastTrainable:
      'LLaMA-Factory 0.9.6.dev0 model/adapter.py:337-349 upcasts trainable parameters to float32 unless pure_bf16 (or ZeRO-3)',
    options: {
      optimizerImpl: TRAINER_FUSED,
      attention: SDPA,
      recompute: {
        value: 'full',
        source:
          'LLaMA-Factory 0.9.6.dev0 hparams/model_args.py:145 disable_gradient_checkpointing default False; model_utils/checkpointing.py:184',
      },
      loraDropout: {
        value: 0,
        source: 'LLaMA-Factory 0.9.6.dev0 hparams/finetuning_args.py:73-76 lora_dropout default 0.0',
      },
      loraDtype: {
        value: 'fp32',
        source:
          'LLaMA-Factory 0.9.6.dev0 model/adapter.py:281,340-349 get_peft_model(autocast_adapter_dtype=cast_trainable_params_to_fp32), true unless pure_bf16 (or ZeRO-3 without quantization)',
      },
      qloraKept: {
        value: '16-bit',
        source:
          'LLaMA-Factory 0.9.6.dev0 model/model_utils/checkpointing.py:163-171 prepare_model_for_training replaces PEFT prepare_model_for_kbit_training and upcasts only layer norms, only with upcast_layernorm',
      },
    },
    notModelled: [],
  },
  axolotl: {
    id: 'axolotl',
    label: 'axolotl',
    version: 'axolotl 0.18.0 (067b021)',
    load: {
      value: 'bfloat16',
      source:
        'axolotl 0.18.0 utils/schemas/config.py:559 bf16 default "auto"; utils/config/__init__.py:191-192 torch_dtype bfloat16',
    },
    mixed: TRAINER_BF16,
    options: {
      optimizerImpl: {
        value: 'fused',
        source: 'axolotl 0.18.0 utils/schemas/training.py:122-123 optimizer default "adamw_torch_fused"',
      },
      attention: SDPA,
      recompute: { value: 'none', source: 'axolotl 0.18.0 utils/schemas/config.py:600-601 gradient_checkpointing default False' },
      loraDropout: {
        value: 0,
        source: 'axolotl 0.18.0 utils/schemas/peft.py:80 lora_dropout 0.0, :235-238 set to 0.0 when an adapter leaves it None',
      },
    },
    notModelled: [],
  },
  unsloth: {
    id: 'unsloth',
    label: 'Unsloth',
    version: 'Unsloth 2026.8.19 (015bdef)',
    load: {
      value: 'bfloat16',
      source: 'Unsloth 2026.8.19 models/llama.py:2434-2435 dtype None → bfloat16 where the GPU supports it',
    },
    mixed: TRAINER_BF16,
    options: {
      optimizerImpl: TRAINER_FUSED,
      attention: SDPA,
      recompute: {
        value: 'full',
        source: 'Unsloth 2026.8.19 models/llama.py:3079 get_peft_model use_gradient_checkpointing = "unsloth"',
      },
      // Unless UNSLOTH_RETURN_LOGITS=1, the causal-LM forward calls unsloth_fused_ce_loss, which computes the input
      // gradient chunk by chunk in forward and keeps it (unsloth_zoo loss_utils.py): the engine's `fused-linear`.
      loss: {
        value: 'fused-linear',
        source:
          'Unsloth 2026.8.19 models/llama.py:1465-1497 unsloth_fused_ce_loss when UNSLOTH_RETURN_LOGITS is not "1" (the default)',
      },
      optimizer: {
        value: 'adamw-8bit',
        source: 'Unsloth 2026.8.19 models/rl.py:3276 its patched TRL configs (UnslothSFTConfig) default optim = "adamw_8bit"',
      },
      activationOffload: {
        value: 'checkpoints',
        source:
          'Unsloth 2026.8.19 models/llama.py:3079 use_gradient_checkpointing = "unsloth": the checkpointed block inputs offloaded to CPU memory (unsloth_zoo Unsloth_Offloaded_Gradient_Checkpointer)',
      },
    },
    notModelled: [],
  },
};

/** What a stack sets for one model and job: the training precision and the options it sets directly. */
export interface StackDefaults {
  readonly stack: Stack;
  /** The precision its load dtype and mixed precision come to, with the reasons. */
  readonly precision: Cited<Precision>;
  readonly options: StackOptions;
  readonly notModelled: readonly NotModelled[];
}

/**
 * What `stack` sets for `model` (whose stored dtype a stack that loads "as stored" trains in) and `finetune` (a tool
 * that upcasts trainable parameters does so to a full fine-tune's weights only; LoRA's base stays as loaded). Memoized:
 * the planner resolves options thousands of times per search.
 */
export function stackDefaults(stack: Stack, model: ModelConfig | null, finetune: Finetune): StackDefaults {
  const stored = model?.storedDtype ?? 'unknown';
  let byStored = DEFAULTS.get(stack);
  if (byStored === undefined) DEFAULTS.set(stack, (byStored = new Map()));
  let byFinetune = byStored.get(stored);
  if (byFinetune === undefined) byStored.set(stored, (byFinetune = new Map()));
  let found = byFinetune.get(finetune);
  if (found === undefined) byFinetune.set(finetune, (found = computeDefaults(STACK_SPECS[stack], model?.storedDtype, finetune)));
  return found;
}
// Nested maps rather than a joined string key: no string is built per estimate.
const DEFAULTS = new Map<Stack, Map<CheckpointDtype | 'unknown', Map<Finetune, StackDefaults>>>();

function computeDefaults(spec: StackSpec, stored: CheckpointDtype | undefined, finetune: Finetune): StackDefaults {
  const { loraDtype, loraDropout, qloraKept, ...always } = spec.options;
  const adapters = finetune === 'lora' || finetune === 'qlora';
  const options: StackOptions = {
    ...always,
    ...(adapters && loraDtype !== undefined ? { loraDtype } : {}),
    ...(adapters && loraDropout !== undefined ? { loraDropout } : {}),
    ...(finetune === 'qlora' && qloraKept !== undefined ? { qloraKept } : {}),
  };
  return { stack: spec.id, precision: stackPrecision(spec, stored, finetune), options, notModelled: spec.notModelled };
}

/**
 * The engine precision of a stack's weights and mixed precision. An fp32 master copy is `mixed-bf16`; otherwise the
 * weights' dtype decides: float32 under autocast is `amp-bf16` (fp32 weights, gradients and moments, 16-bit casts), a
 * 16-bit checkpoint is `bf16` (weights, gradients and AdamW moments all in the weights' dtype; float16 stores the
 * same bytes as bfloat16).
 */
function stackPrecision(spec: StackSpec, stored: CheckpointDtype | undefined, finetune: Finetune): Cited<Precision> {
  if (spec.mixed.value === 'fp32-master') return { value: 'mixed-bf16', source: `${spec.load.source}; ${spec.mixed.source}` };
  const reasons = [spec.load.source];
  let dtype: CheckpointDtype;
  if (spec.load.value !== 'stored') dtype = spec.load.value;
  else if (stored === undefined) {
    dtype = 'float32';
    reasons.push('the checkpoint names no stored dtype: read as float32');
  } else {
    dtype = stored;
    reasons.push(`the checkpoint stores ${stored}`);
  }
  if (spec.upcastTrainable !== undefined && finetune === 'full') {
    dtype = 'float32';
    reasons.push(spec.upcastTrainable);
  }
  reasons.push(spec.mixed.source);
  const source = reasons.join('; ');
  if (dtype !== 'float32') return { value: 'bf16', source };
  return { value: spec.mixed.value === 'autocast' ? 'amp-bf16' : 'fp32', source };
}
