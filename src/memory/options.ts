/** The options of `estimateMemory`: one vocabulary for the CLI flags, the URL query and code. */
import type { Attention, Kernels, Recompute } from './activations.ts';
import type { Batching } from './batching.ts';
import type { Fp8Recipe } from './fp8.ts';
import type { ActivationOffload } from './activation-offload.ts';
import type { Finetune } from './finetune.ts';
import type { AdapterDtype, QloraFormat, QloraKept } from './lora.ts';
import type { LossKind } from './loss.ts';
import type { GradientLifetime } from './timeline.ts';
import type { WeightChoice, WeightFormat } from './weight-formats.ts';
import type { KvCacheLayout } from './inference.ts';
import type { Arch, ModelConfig } from './model.ts';
import type { Offload, OffloadDevice } from './offload.ts';
import type { OptimizerImpl, OptimizerKind } from './optimizer.ts';
import type { ZeroStage } from './parallel.ts';
import type { GradDtype, Precision } from './precision.ts';
import type { Stack } from './stacks.ts';
import type { BrokenRule } from './rule-words.ts';

/** What is estimated: a training step or inference. */
export type Mode = 'train' | 'infer';

/** Every mode. */
export const MODES: readonly Mode[] = ['train', 'infer'];

/**
 * Options of `estimateMemory`. Every field is optional; its default, limits and help live once, in the flag table
 * (flag-table.ts `FLAGS`), which the CLI, the URL query, the calculators and the validator all read.
 * Give a model as `model` (a preset id, optionally overridden by the shape fields), as `arch`
 * plus shape fields, as `modelConfig` (read from a config.json), or as `params` alone (model states only).
 */
export interface EstimateOptions {
  /** Model preset id, e.g. `llama-2-7b` (see MODEL_PRESETS). */
  model?: string;
  /**
   * A model's shape read from its config.json (`readConfigJson`), given instead of `model`, `arch`, `params` and the
   * shape flags. Not a flag: the CLI's `--config FILE` and the site's pasted file read the JSON and pass the shape here.
   */
  modelConfig?: ModelConfig;
  /** Architecture family for a custom model (or to override a preset's). */
  arch?: Arch;
  /** Hidden size h. Required for a custom model. */
  hidden?: number;
  /** Layers L. Required for a custom model. */
  layers?: number;
  /** Attention heads. */
  heads?: number;
  /** Key/value heads (GQA). */
  kvHeads?: number;
  /** MLP width f. */
  ffn?: number;
  /** Vocabulary size (mlp: classes). */
  vocab?: number;
  /** Learned position rows. */
  positions?: number;
  /** mlp only: input features d of an input layer Linear(d→h) before the L hidden blocks. */
  inputs?: number;
  /** Mixture-of-experts: experts per layer. */
  experts?: number;
  /** Whether the LM head shares the token-embedding matrix (transformers `tie_word_embeddings`); default: the base model's. */
  tieEmbeddings?: boolean;
  /** A classification head of N labels in place of the LM head (transformers `*ForSequenceClassification`). */
  numLabels?: number;
  /** Mixture-of-experts: experts per token. */
  topK?: number;
  /** Parameter count alone, when no shape is known: model states only. */
  params?: number;
  /** `train` or `infer`. */
  mode?: Mode;
  /** The training stack whose defaults fill the options not given (stacks.ts); default `hf-trainer`. */
  stack?: Stack;
  /** Training precision. */
  precision?: Precision;
  /** Inference weight dtype, or `stored`: as the checkpoint ships (a config.json's `quantization_config` or `torch_dtype`). */
  weights?: WeightChoice;
  /** Optimizer. */
  optimizer?: OptimizerKind;
  /** Micro-batch size (sequences per GPU per forward). In infer mode: the batch. */
  microBatch?: number;
  /** Sequence length, tokens. */
  seq?: number;
  /** Gradient-accumulation steps (micro-batches per optimizer step). */
  gradAccum?: number;
  /** Activation recompute policy. */
  recompute?: Recompute;
  /**
   * Activation offloading: `none`, `streamed` (every saved activation to the host and back, torchtune
   * `enable_activation_offloading`) or `checkpoints` (the checkpointed layer inputs, Unsloth's `"unsloth"` checkpointing).
   */
  activationOffload?: ActivationOffload;
  /** Full recompute: layers per checkpoint segment k. */
  checkpointEvery?: number;
  /** Attention kernel: `sdpa` (FlashAttention / memory-efficient, no s×s scores kept) or `eager`. */
  attention?: Attention;
  /**
   * Whose code computes the layers: `eager` (PyTorch / Hugging Face Transformers modules), `fused` (Megatron-style fused
   * kernels) or `llm-foundry` (MosaicML's MPT blocks: fused, plus the flash path's padded copy of the attention output).
   */
  kernels?: Kernels;
  /**
   * The loss implementation: `eager` (Hugging Face), `vocab-parallel` (Megatron), `in-place` (Unsloth), `chunked`
   * (torchtune), `fused-linear` (Liger) or `cut` (Cut Cross-Entropy). Default: `eager`, `vocab-parallel` with fused
   * kernels, `flash-attn` with llm-foundry's.
   */
  loss?: LossKind;
  /** Gradients between steps: `free` (`zero_grad(set_to_none=True)`) or `keep` (`set_to_none=False`, contiguous buffers). */
  grads?: GradientLifetime;
  /** The gradients' dtype: `param` (the weights' own) or `fp32` (Megatron's fp32 `main_grad` buffers under bf16). */
  gradDtype?: GradDtype;
  /** Optimizer implementation: `foreach`, `fused` or `for-loop`. */
  optimizerImpl?: OptimizerImpl;
  /** The optimizer step fused into backward, one parameter at a time (torchtune `optimizer_in_bwd: True`). */
  optimizerInBackward?: boolean;
  /** What is trained: `full`, `lora` adapters on a 16-bit base, or `qlora` adapters on a 4-bit NF4 base. */
  finetune?: Finetune;
  /** QLoRA base format: `nf4-dq` (the QLoRA paper's), `nf4`, `fp4-dq` or `fp4`. */
  qloraFormat?: QloraFormat;
  /** A QLoRA base's other parameters: `fp32` (prepare_model_for_kbit_training) or `16-bit` (TRL). */
  qloraKept?: QloraKept;
  /** LoRA rank r. */
  loraRank?: number;
  /** LoRA target modules: `all-linear`, `attention`, or a comma list of q,k,v,o,gate,up,down. */
  loraTargets?: string;
  /** PEFT `lora_dropout` p in [0, 1): above 0 each adapted module keeps a dropped-out copy of its input and a 1-byte mask. */
  loraDropout?: number;
  /** The adapters' dtype: `fp32` (PEFT's `autocast_adapter_dtype=True`), `bf16` or `fp16`. */
  loraDtype?: AdapterDtype;
  /** PEFT `modules_to_save`: `none`, or a comma list of `embed`, `head` trained in full as copies. */
  modulesToSave?: string;
  /** DoRA (`use_dora=True`): a trainable magnitude per output feature and the weight norm in every adapted module. */
  dora?: boolean;
  /** torch.compile: stated, not modelled (compile.ts): the eager saved activations are counted, an upper bound. */
  compile?: boolean;
  /** Whether dropout is active. */
  dropout?: boolean;
  /** Data-parallel degree (GPUs holding replicas or ZeRO shards). */
  dp?: number;
  /** ZeRO stage 0–3 (FSDP full-shard = 3). */
  zero?: ZeroStage;
  /**
   * HSDP: the GPUs each ZeRO-3 shard group spans (a divisor of `dp`); the dp/N groups hold replicas and all-reduce their
   * gradient shards. Default: `dp` (every data-parallel GPU shards, FSDP's FULL_SHARD).
   */
  shardGroup?: number;
  /** Tensor-parallel degree. */
  tp?: number;
  /** Sequence parallelism (with tensor parallelism). */
  sp?: boolean;
  /** Pipeline-parallel degree (1F1B schedule). */
  pp?: number;
  /** Model chunks per pipeline stage, v: interleaved 1F1B when above 1 (Megatron `--num-virtual-stages-per-pipeline-rank`). */
  ppVirtual?: number;
  /** Offload to host. */
  offload?: Offload;
  /** Offload target. */
  offloadDevice?: OffloadDevice;
  /** ZeRO-3: keep each unit's gathered weights from its forward to its backward (FSDP2 `reshard_after_forward=False`). */
  keepGatheredWeights?: boolean;
  /** GPU preset id to check the fit against (see GPU_PRESETS). */
  gpu?: string;
  /** Infer mode: tokens held in the KV cache per sequence. */
  tokens?: number;
  /** Infer mode, multi-head latent attention: cache the compressed `latent` (vLLM, SGLang) or the `expanded` heads (Transformers). */
  kvCache?: KvCacheLayout;
  /** Distillation: frozen teacher preset id, run in inference next to the student. */
  teacher?: string;
  /** Distillation: teacher weight dtype. */
  teacherWeights?: WeightFormat;
  /** Free margin to keep against fragmentation, percent of GPU memory. */
  headroom?: number;
  /**
   * Model-FLOPs utilisation the step time assumes, percent of the GPU's dense peak (0 < mfu ≤ 100); without it, the
   * curve calibrated to published runs (step-time/compute-efficiency.ts).
   */
  mfu?: number;
  /** How a micro-batch lays out its sequences: `padded` (default), `packed` rows, or one `padding-free` row (batching.ts). */
  batching?: Batching;
  /** Mean real tokens per sequence (packed: per document), at most `seq`; default `seq` (every position real). */
  meanSeq?: number;
  /** FP8 training: `none`, torchao's `torchao-tensorwise` / `torchao-rowwise` float8 recipes, or Transformer Engine `te` (fp8.ts). */
  fp8?: Fp8Recipe;
  /** With `torchao-tensorwise` and ZeRO-3: all-gather the weights in float8 (torchao `enable_fsdp_float8_all_gather`). */
  fp8AllGather?: boolean;
}

/** The options that are flags: every one but `modelConfig`, which a caller reads from a file. */
export type EstimateFlagKey = Exclude<keyof EstimateOptions, 'modelConfig'>;

/** A validation error the engine attaches to one input field (named by its flag / query name). */
export interface FieldError {
  /** Flag / query-parameter name, e.g. `tp`, `kv-heads`, `micro-batch`. */
  field: string;
  /** What was expected and what was found, in English (the CLI's words). */
  message: string;
  /** The same as data, which a page in another language words: required, so no engine error is English only. */
  problem: BrokenRule;
}

/**
 * A field's error as a widget shows it: the engine's (worded from its problem), or one that a caller above the engine
 * worded itself in the page's language through its words parameter (the planner's request, the model picker's fetch),
 * which has no problem.
 */
export type ShownFieldError = FieldError | { readonly field: string; readonly message: string; readonly problem?: undefined };
