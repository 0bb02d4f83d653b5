/**
 * Where each reader's rules come from: the tool's file, with the version (and commit) it was read at. A mapping line
 * carries one of these, so a reader can check the rule against the tool it runs.
 */
export const SETUP_SOURCES = {
  /** `TrainingArguments` fields and `OptimizerNames`. */
  trainingArguments: 'transformers 5.x src/transformers/training_args.py (TrainingArguments, OptimizerNames)',
  /** `"auto"` resolution and the Trainer/DeepSpeed mismatch check. */
  deepspeedIntegration:
    'transformers src/transformers/integrations/deepspeed.py @0234833 (HfTrainerDeepSpeedConfig.trainer_config_process, trainer_config_finalize)',
  /** Gradient checkpointing wraps every decoder layer (full recompute, one layer per segment). */
  gradientCheckpointing: 'transformers modeling_utils.py gradient_checkpointing_enable (each GradientCheckpointingLayer)',
  /** `attn_implementation`: eager keeps the s×s scores; sdpa and flash_attention_* do not. */
  attention: 'transformers docs, "Attention interface" (attn_implementation: eager, sdpa, flash_attention_2)',
  /** torch.optim.AdamW picks foreach on CUDA unless fused=True. */
  torchAdamW: 'torch/optim/optimizer.py _default_to_fused_or_foreach (PyTorch 2.x): foreach on CUDA unless fused=True',
  /** Liger's kernels as the Trainer applies them (`use_liger_kernel`): the loss is its fused linear cross-entropy. */
  liger:
    'transformers 5.x trainer.py (use_liger_kernel → liger_kernel.transformers._apply_liger_kernel_to_instance); Liger-Kernel 0.8.2 fused_linear_cross_entropy.py',
  /** bitsandbytes paged optimizers. */
  pagedOptimizers: 'bitsandbytes docs, "Paged optimizers": states in unified memory, paged to the host under pressure',
  /** TRL's SFTConfig and ModelConfig. */
  trl: 'TRL 1.10.0.dev0 @f2cd577 trl/trainer/sft_config.py, trl/trainer/model_config.py',
  /** TRL's packing and padding-free batches. */
  trlBatching:
    'TRL 1.10.0.dev0 @f2cd577 trl/trainer/sft_config.py packing (rows of max_length), padding_free (one row, FlashAttention only); sft_trainer.py:1143',
  /** LLaMA-Factory's packing. */
  llamaFactoryPacking:
    'LLaMA-Factory 0.9.6.dev0 @ff6d4d1 src/llamafactory/hparams/data_args.py:108-115,185-186 packing (rows of cutoff_len), neat_packing (implies packing, no cross-attention)',
  /** axolotl's sample packing. */
  axolotlPacking:
    'axolotl 0.18.0 @067b021 src/axolotl/utils/schemas/config.py:688-693 sample_packing ("multi-packing with block diagonal attention and per sequence position_ids")',
  /** torchtune's packed datasets. */
  torchtunePacking:
    'torchtune 0.7.0 @bd2a0fc torchtune/datasets/_packed.py PackedDataset (rows of max_seq_len), modules/attention_utils.py packed_block_causal_mask',
  /** accelerate's FP8 backends (mixed_precision: fp8 with fp8_config.backend). */
  accelerateFp8:
    'accelerate 1.15.0.dev0 @16cb6eb src/accelerate/commands/config/cluster.py:807-891 fp8_config (backend TE, MSAMP or AO; AO: enable_fsdp_float8_all_gather), accelerator.py fp8_backend; AORecipeKwargs builds torchao Float8LinearConfig() (tensorwise)',
  /** axolotl's FP8: torchao through accelerate. */
  axolotlFp8:
    'axolotl 0.18.0 @067b021 src/axolotl/core/trainers/base.py:683-700 (fp8 → AORecipeKwargs(Float8LinearConfig(enable_fsdp_float8_all_gather=…)): tensorwise), utils/schemas/config.py:568-581',
  /** torchtune's FP8 fine-tuning. */
  torchtuneFp8:
    'torchtune 0.7.0 @bd2a0fc recipes/full_finetune_distributed.py:211-212,617-627 enable_fp8_training, fp8_recipe_name; torchtune/training/quantization.py:247-268 (default: tensorwise with enable_fsdp_float8_all_gather=True)',
  /** PEFT LoraConfig. */
  peft: 'PEFT 0.20.1.dev0 @5d602fd src/peft/tuners/lora/config.py (LoraConfig: r, target_modules, lora_dropout, use_dora, modules_to_save)',
  /** DeepSpeed's configuration keys. */
  deepspeedConfig: 'DeepSpeed 0.19.6 docs/config-json (zero_optimization, offload_optimizer, offload_param, bf16, fp16)',
  /** DeepSpeed builds FusedAdam for Adam/AdamW, DeepSpeedCPUAdam when the optimizer is offloaded. */
  deepspeedOptimizer: 'DeepSpeed 0.19.6 @edaa722 deepspeed/runtime/engine.py _configure_basic_optimizer',
  /** accelerate's config file and FSDP plugin. */
  accelerate:
    'accelerate 1.15.0.dev0 @16cb6eb src/accelerate/utils/dataclasses.py (FullyShardedDataParallelPlugin, DeepSpeedPlugin), utils/constants.py FSDP_SHARDING_STRATEGY',
  /** LLaMA-Factory's arguments. */
  llamaFactoryArgs: 'LLaMA-Factory 0.9.6.dev0 @ff6d4d1 src/llamafactory/hparams/model_args.py, finetuning_args.py',
  /** LLaMA-Factory loads in the compute dtype and upcasts trainable parameters to fp32 unless pure_bf16. */
  llamaFactoryDtype:
    'LLaMA-Factory 0.9.6.dev0 @ff6d4d1 src/llamafactory/hparams/parser.py (compute_dtype), model/adapter.py:281,340-349 init_adapter (cast_trainable_params_to_fp32, autocast_adapter_dtype)',
  /** axolotl's configuration. */
  axolotl: 'axolotl 0.18.0 @067b021 src/axolotl/utils/schemas/config.py (AxolotlInputConfig)',
  /** axolotl loads the model in bf16 when bf16 is set. */
  axolotlDtype: 'axolotl 0.18.0 @067b021 src/axolotl/utils/config/__init__.py (cfg.torch_dtype from bf16/fp16)',
  /** axolotl's k-bit preparation: PEFT's prepare_model_for_kbit_training, patched to skip the embeddings on request. */
  axolotlKbit:
    'axolotl 0.18.0 @067b021 src/axolotl/loaders/model.py:1015-1022 prepare_model_for_kbit_training; loaders/patch_manager.py:363-366 embeddings_skip_upcast → monkeypatch/peft/utils.py (embed_tokens, lm_head not upcast)',
  /** axolotl's get_peft_model call. */
  axolotlAdapter:
    'axolotl 0.18.0 @067b021 src/axolotl/loaders/adapter.py:368-369 peft_autocast_adapter_dtype → get_peft_model(autocast_adapter_dtype=…)',
  /** axolotl's LoRA targets. */
  axolotlLora: 'axolotl 0.18.0 @067b021 src/axolotl/loaders/adapter.py (lora_target_linear: every Linear)',
  /** torchtune's recipe keys. */
  torchtune:
    'torchtune 0.7.0 @bd2a0fc recipes/lora_finetune_single_device.py, full_finetune_single_device.py (dtype, enable_activation_checkpointing, batch_size)',
  /** torchtune's loss components. */
  torchtuneLoss:
    'torchtune 0.7.0 @bd2a0fc torchtune/modules/loss/ce_chunked_output_loss.py, cross_entropy_loss.py (num_output_chunks = 8)',
  /** torchtune's LoRA model builders. */
  torchtuneLora: 'torchtune 0.7.0 @bd2a0fc torchtune/models/llama3_1/_model_builders.py (lora_attn_modules, apply_lora_to_mlp)',
  /** Unsloth's loader and PEFT wrapper. */
  unsloth:
    'Unsloth docs, "Fine-tuning guide" and "Unsloth gradient checkpointing" (FastLanguageModel.from_pretrained, get_peft_model)',
  /** Unsloth's 4-bit loading. */
  unslothFourBit:
    'Unsloth 2026.8.19 @015bdef unsloth/models/llama.py:2622-2623 BitsAndBytesConfig(bnb_4bit_use_double_quant = True, bnb_4bit_quant_type = "nf4")',
} as const;
