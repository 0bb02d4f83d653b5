/** The options of `estimateMemory`: one vocabulary for the CLI flags, the URL query and code. */
import type { Attention, Kernels, Recompute } from './activations.ts';
import type { Finetune } from './finetune.ts';
import type { GradientLifetime } from './timeline.ts';
import type { WeightFormat } from './weight-formats.ts';
import type { Arch } from './model.ts';
import type { Offload, OffloadDevice } from './offload.ts';
import type { OptimizerImpl, OptimizerKind } from './optimizer.ts';
import type { ZeroStage } from './parallel.ts';
import type { Precision } from './precision.ts';

/** What is estimated: a training step or inference. */
export type Mode = 'train' | 'infer';

/** Every mode. */
export const MODES: readonly Mode[] = ['train', 'infer'];

/**
 * Options of `estimateMemory`. Every field is optional; defaults are listed per field.
 * Give a model as `model` (a preset id, optionally overridden by the shape fields), as `arch`
 * plus shape fields, or as `params` alone (model states only).
 */
export interface EstimateOptions {
  /** Model preset id, e.g. `llama-2-7b` (see MODEL_PRESETS). */
  model?: string;
  /** Architecture family for a custom model (or to override a preset's). */
  arch?: Arch;
  /** Hidden size h. Required for a custom model. */
  hidden?: number;
  /** Layers L. Required for a custom model. */
  layers?: number;
  /** Attention heads; defaults to h/64. */
  heads?: number;
  /** Key/value heads (GQA); defaults to `heads`. */
  kvHeads?: number;
  /** MLP width f; defaults to 4h (gpt2, bert) or Llama's 8h/3 rounded up to 256. */
  ffn?: number;
  /** Vocabulary size (mlp: classes); defaults 50257 gpt2, 32000 llama, 30522 bert, 10 mlp. */
  vocab?: number;
  /** Learned position rows; defaults 1024 gpt2, 512 bert, 0 otherwise. */
  positions?: number;
  /** mlp only: input features d of an input layer Linear(d→h) before the L hidden blocks; default none (the input is h wide). */
  inputs?: number;
  /** Mixture-of-experts: experts per layer; default 1 (dense). */
  experts?: number;
  /** Mixture-of-experts: experts per token; default 1 (2 when experts > 1 and unset). */
  topK?: number;
  /** Parameter count alone, when no shape is known: model states only. */
  params?: number;
  /** `train` (default) or `infer`. */
  mode?: Mode;
  /** Training precision; default `mixed-bf16`. */
  precision?: Precision;
  /** Inference weight dtype; default `bf16`. */
  weights?: WeightFormat;
  /** Optimizer; default `adamw`. */
  optimizer?: OptimizerKind;
  /** Micro-batch size (sequences per GPU per forward); default 1. In infer mode: the batch. */
  microBatch?: number;
  /** Sequence length, tokens; defaults to the model's context length (2048 for custom models). */
  seq?: number;
  /** Gradient-accumulation steps (micro-batches per optimizer step); default 1. */
  gradAccum?: number;
  /** Activation recompute policy; default `none`. */
  recompute?: Recompute;
  /** Full recompute: layers per checkpoint segment k; default 1 (transformers) or round(√L) (mlp). */
  checkpointEvery?: number;
  /** Attention kernel: `sdpa` (FlashAttention / memory-efficient, no s×s scores kept; default) or `eager`. */
  attention?: Attention;
  /** Whose code computes the layers: `eager` (PyTorch / Hugging Face Transformers modules; default) or `fused` (Megatron-style fused kernels). */
  kernels?: Kernels;
  /** Gradients between steps: `free` (`zero_grad(set_to_none=True)`, default) or `keep` (`set_to_none=False`, contiguous buffers). */
  grads?: GradientLifetime;
  /** Optimizer implementation: `foreach` (PyTorch's default on CUDA), `fused` or `for-loop`. */
  optimizerImpl?: OptimizerImpl;
  /** What is trained: `full` (default), `lora` adapters on a 16-bit base, or `qlora` adapters on a 4-bit NF4 base. */
  finetune?: Finetune;
  /** LoRA rank r; default 16. */
  loraRank?: number;
  /** LoRA target modules: `all-linear` (default), `attention`, or a comma list of q,k,v,o,gate,up,down. */
  loraTargets?: string;
  /** Whether dropout is active; default from the architecture (gpt2, bert yes; llama, mlp no). */
  dropout?: boolean;
  /** Data-parallel degree (GPUs holding replicas or ZeRO shards); default 1. */
  dp?: number;
  /** ZeRO stage 0–3 (FSDP full-shard = 3); default 0. */
  zero?: ZeroStage;
  /** Tensor-parallel degree; default 1. */
  tp?: number;
  /** Sequence parallelism (with tensor parallelism); default false. */
  sp?: boolean;
  /** Pipeline-parallel degree (1F1B schedule); default 1. */
  pp?: number;
  /** Offload to host; default `none`. */
  offload?: Offload;
  /** Offload target; default `cpu`. */
  offloadDevice?: OffloadDevice;
  /** GPU preset id to check the fit against (see GPU_PRESETS). */
  gpu?: string;
  /** Infer mode: tokens held in the KV cache per sequence; defaults to `seq`. */
  tokens?: number;
  /** Distillation: frozen teacher preset id, run in inference next to the student. */
  teacher?: string;
  /** Distillation: teacher weight dtype; default `bf16` (`fp32` when precision is fp32). */
  teacherWeights?: WeightFormat;
  /** Free margin to keep against fragmentation, percent of GPU memory; default 10. */
  headroom?: number;
}

/** A validation error attached to one input field (named by its flag / query name). */
export interface FieldError {
  /** Flag / query-parameter name, e.g. `tp`, `kv-heads`, `micro-batch`. */
  field: string;
  /** What was expected and what was found. */
  message: string;
}
