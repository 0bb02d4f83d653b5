/**
 * Where each reader's rules come from: the tool's file, with the version (and commit) it was read at. A mapping line
 * carries one of these, so a reader can check the rule against the tool it runs.
 */
export const SETUP_SOURCES = {
  /** `TrainingArguments` fields and `OptimizerNames`. */
  trainingArguments:
    'transformers @00349ae src/transformers/training_args.py (TrainingArguments fields, OptimizerNames; default_optim adamw_torch_fused from torch 2.8)',
  /** `"auto"` resolution and the Trainer/DeepSpeed mismatch check. */
  deepspeedIntegration:
    'transformers src/transformers/integrations/deepspeed.py @0234833 (HfTrainerDeepSpeedConfig.trainer_config_process, trainer_config_finalize)',
  /** Gradient checkpointing wraps every decoder layer (full recompute, one layer per segment). */
  gradientCheckpointing:
    'transformers @00029cf src/transformers/modeling_layers.py GradientCheckpointingLayer.__call__ (each decoder layer runs under _gradient_checkpointing_func)',
  /** `attn_implementation`: eager keeps the s×s scores; sdpa and flash_attention_* do not. */
  attention:
    'transformers @00edd8f docs/source/en/attention_interface.md "Attention backends" (attn_implementation: eager materializes the attention matrix; sdpa, flash_attention_2 do not)',
  /** torch.optim.AdamW picks foreach on CUDA unless fused=True. */
  torchAdamW:
    'torch @002d2f0 torch/optim/optimizer.py _default_to_fused_or_foreach, _fused_doc ("we default to foreach and NOT fused when the user has not specified either flag")',
  /** Liger's kernels as the Trainer applies them (`use_liger_kernel`): the loss is its fused linear cross-entropy. */
  liger:
    'transformers @00349ae src/transformers/training_args.py use_liger_kernel, liger_kernel_config (kwargs of _apply_liger_kernel_to_instance); Liger-Kernel 0.8.2 fused_linear_cross_entropy.py',
  /** bitsandbytes paged optimizers. */
  pagedOptimizers:
    'bitsandbytes 0.50.2.dev0 @95f9af3 docs/source/explanations/optimizers.mdx:41-51 "Paged optimizers" (states in unified memory, paged to the host only when the GPU runs out)',
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
    'torchtune 0.7.0 @bd2a0fc recipes/full_finetune_distributed.py:211-212,617-627 enable_fp8_training, fp8_recipe_name; torchtune 0.7.0 @bd2a0fc torchtune/training/quantization.py:247-268 (default: tensorwise with enable_fsdp_float8_all_gather=True)',
  /** PEFT LoraConfig. */
  peft: 'PEFT 0.20.1.dev0 @5d602fd src/peft/tuners/lora/config.py (LoraConfig: r, target_modules, lora_dropout, use_dora, modules_to_save)',
  /** DeepSpeed's configuration keys. */
  deepspeedConfig:
    'DeepSpeed 0.19.6 @edaa722 docs/_pages/config-json.md (zero_optimization, offload_optimizer, offload_param, bf16, fp16)',
  /** ZeRO++ hierarchical partitioning: a second copy of the 16-bit weights, sharded within a group of N GPUs. */
  deepspeedHpz:
    'DeepSpeed 0.19.6 @edaa722 deepspeed/runtime/zero/partition_parameters.py:1884-1888 _partition_param_sec (secondary_partition_size = tensor_size // num_ranks_in_param_group, dtype=param.dtype), runtime/zero/config.py:309 zero_hpz_partition_size',
  /** DeepSpeed builds FusedAdam for Adam/AdamW, DeepSpeedCPUAdam when the optimizer is offloaded. */
  deepspeedOptimizer: 'DeepSpeed 0.19.6 @edaa722 deepspeed/runtime/engine.py _configure_basic_optimizer',
  /** accelerate's config file and FSDP plugin. */
  accelerate:
    'accelerate 1.15.0.dev0 @16cb6eb src/accelerate/utils/dataclasses.py (FullyShardedDataParallelPlugin, DeepSpeedPlugin), utils/constants.py FSDP_SHARDING_STRATEGY',
  /** What each FSDP version 1 sharding strategy holds between forward and backward. */
  fsdpShardingStrategy:
    'torch @acd8c9e torch/distributed/fsdp/api.py:44-50,56-63 ShardingStrategy (SHARD_GRAD_OP: unshards before forward, does not reshard after forward, reshards after backward; HYBRID_*: the same within a node)',
  /** FSDP version 1's hybrid shard group when no process group is given: one machine's devices. */
  fsdpHybridGroup:
    'torch @00743e7 torch/distributed/fsdp/_init_utils.py _init_process_group_state_for_hybrid_shard (_init_intra_and_inter_node_groups(default_group, device_count())); accelerate 1.15.0.dev0 @16cb6eb utils/launch.py:113 (nproc_per_node = num_processes // num_machines)',
  /** A version 1 strategy name under FSDP2. */
  accelerateFsdp2Strategy:
    'accelerate 1.15.0.dev0 @16cb6eb src/accelerate/commands/to_fsdp2.py:51-58 ARGUMENT_VALUE_MAPPING (fsdp_sharding_strategy → fsdp_reshard_after_forward); utils/dataclasses.py:1829-1834 (sharding_strategy deprecated in favor of reshard_after_forward)',
  /** accelerate's FSDP2 device mesh. */
  accelerateParallelism:
    'accelerate 1.15.0.dev0 @16cb6eb src/accelerate/parallelism_config.py:40-66 (dp_replicate_size × dp_shard_size: HSDP; tp_size, cp_size)',
  /** LLaMA-Factory's arguments. */
  llamaFactoryArgs: 'LLaMA-Factory 0.9.6.dev0 @ff6d4d1 src/llamafactory/hparams/model_args.py, finetuning_args.py',
  /** LLaMA-Factory loads in the compute dtype and upcasts trainable parameters to fp32 unless pure_bf16. */
  llamaFactoryDtype:
    'LLaMA-Factory 0.9.6.dev0 @ff6d4d1 src/llamafactory/hparams/parser.py (compute_dtype), model/adapter.py:281,340-349 init_adapter (cast_trainable_params_to_fp32, autocast_adapter_dtype)',
  /** axolotl's configuration. */
  axolotl: 'axolotl 0.18.0 @067b021 src/axolotl/utils/schemas/config.py (AxolotlInputConfig)',
  /** axolotl's data-parallel mesh. */
  axolotlMesh:
    'axolotl 0.18.0 @067b021 src/axolotl/utils/distributed.py:319-357 (dp_shard_size, dp_replicate_size → accelerate ParallelismConfig); accelerate 1.15.0.dev0 @16cb6eb parallelism_config.py:61-66 (HSDP)',
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
  /** torchtitan's job config (TOML, before its configs moved to Python). */
  torchtitanConfig:
    'torchtitan 0.2.2 @238fa99 torchtitan/config/job_config.py (Training:253-288 local_batch_size, global_batch_size, seq_len, enable_cpu_offload, dtype, mixed_precision_param; Parallelism:312-464; Compile:721-725)',
  /** torchtitan's activation checkpointing modes. */
  torchtitanCheckpointing:
    'torchtitan 0.2.2 @238fa99 torchtitan/config/job_config.py:651-659 ActivationCheckpoint; distributed/activation_checkpoint.py:27-50 (every selective_ac_option-th block), :173-178 (full, selective op)',
  /** torchtitan's optimizer builder. */
  torchtitanOptimizer:
    'torchtitan 0.2.2 @238fa99 torchtitan/components/optimizer.py:299-320 (torch.optim Adam or AdamW; implementation fused, foreach or for-loop)',
  /** torchtitan's loss in the TOML era. */
  torchtitanLoss:
    'torchtitan 0.2.2 @238fa99 torchtitan/components/loss.py:20-23 cross_entropy_loss (pred.flatten(0, 1).float()); models/llama3/__init__.py:113 build_loss_fn',
  /** torchtune's recipe keys. */
  torchtune:
    'torchtune 0.7.0 @bd2a0fc recipes/lora_finetune_single_device.py, full_finetune_single_device.py (dtype, enable_activation_checkpointing, batch_size)',
  /** torchtune's distributed device mesh. */
  torchtuneMesh:
    'torchtune 0.7.0 @bd2a0fc recipes/full_finetune_distributed.py:157,165,169-178 (tensor_parallel_dim, context_parallel_dim, data_parallel_shard_dim = -1 inferred, data_parallel_replicate_dim → ParallelDims)',
  /** torchtune's loss components. */
  torchtuneLoss:
    'torchtune 0.7.0 @bd2a0fc torchtune/modules/loss/ce_chunked_output_loss.py, cross_entropy_loss.py (num_output_chunks = 8)',
  /** torchtune's LoRA model builders. */
  torchtuneLora: 'torchtune 0.7.0 @bd2a0fc torchtune/models/llama3_1/_model_builders.py (lora_attn_modules, apply_lora_to_mlp)',
  /** Unsloth's loader and PEFT wrapper. */
  unsloth:
    'Unsloth 2026.8.19 @015bdef unsloth/models/llama.py FastLlamaModel.from_pretrained, get_peft_model (:3079 use_gradient_checkpointing = "unsloth")',
  /** Unsloth's 4-bit loading. */
  unslothFourBit:
    'Unsloth 2026.8.19 @015bdef unsloth/models/llama.py:2622-2623 BitsAndBytesConfig(bnb_4bit_use_double_quant = True, bnb_4bit_quant_type = "nf4")',
} as const;
