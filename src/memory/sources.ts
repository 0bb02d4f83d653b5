/**
 * Where sources disagree, the engine picks one. Each choice is listed here so lessons can render
 * the list ("what we chose and why") next to the calculators.
 */

/** One choice between sources. */
export interface SourceChoice {
  /** Stable id, e.g. `bytes-per-param`. */
  id: string;
  /** Topic in a few words. */
  topic: string;
  /** What the engine does. */
  choice: string;
  /** The alternatives and where they come from. */
  alternatives: string;
  /** Why, in one or two sentences, for the lesson. */
  note: string;
}

/** Every choice between sources the engine makes. */
export const SOURCE_CHOICES: readonly SourceChoice[] = [
  {
    id: 'bytes-per-param',
    topic: 'Bytes per parameter for mixed-precision Adam',
    choice:
      'mixed-fp16/mixed-bf16: 16 bytes (2 weights + 2 gradients + 12 optimizer); amp-fp16/amp-bf16: 18 bytes (4 + 2 autocast copy + 4 + 8)',
    alternatives:
      'ZeRO paper 16 (arXiv 1910.02054 §3.1); HF "Model training anatomy" 18 (fp32 + fp16 weights, fp32 gradients); Megatron-LM distributed-optimizer docs 20 for fp16 with fp32 main gradients (2 + 2 + 4 + 12)',
    note: 'The number depends on which copies a framework keeps: Megatron/DeepSpeed keep 16-bit weights plus an fp32 master, PyTorch autocast keeps fp32 weights and casts 16-bit copies on the fly.',
  },
  {
    id: 'adam-8bit',
    topic: '8-bit AdamW state',
    choice: '2 bytes per parameter (1 + 1), block-wise quantisation scales ignored',
    alternatives: 'bitsandbytes adds one fp32 absmax per 2048-value block per state (≈ 0.004 bytes/param) (arXiv 2110.02861)',
    note: 'The scales are under 0.5 % of the state; leaving them out keeps the formula readable.',
  },
  {
    id: 'autocast-activations',
    topic: 'Activation dtype under autocast',
    choice: 'amp-* stores every activation in 16 bits',
    alternatives:
      'PyTorch autocast runs LayerNorm and softmax in fp32 (torch.amp op lists), so some saved tensors are 32-bit in practice',
    note: 'We follow Korthikanti et al.’s 16-bit accounting; real AMP runs can store somewhat more.',
  },
  {
    id: 'swiglu-activations',
    topic: 'Activations of a SwiGLU MLP',
    choice: 'input h plus 4 tensors of width f (gate, silu(gate), up, product), from PyTorch autograd saved tensors',
    alternatives: 'Korthikanti et al. give only the GELU MLP (19sbh); fused SwiGLU kernels save fewer tensors',
    note: 'Derived by us from which tensors each op saves for backward; a fused kernel would lower it.',
  },
  {
    id: 'flash-attention',
    topic: 'FlashAttention activations',
    choice: 'drop all s² terms (5as²b); keep Q, K, V and the output',
    alternatives: 'FlashAttention also saves a per-row logsumexp (4·a·s·b bytes) (arXiv 2205.14135 §3.1)',
    note: 'The logsumexp is s/h times smaller than one hidden-state tensor; we leave it out as Korthikanti-style tables do.',
  },
  {
    id: 'full-recompute-working-set',
    topic: 'Full recompute: what else is alive in backward',
    choice: 'kept layer inputs (Korthikanti’s 2sbh per layer) plus one recomputed layer (or segment) of full activations',
    alternatives: 'Korthikanti et al. Table 2 lists only the 2sbh kept per layer',
    note: 'During backward one layer’s activations are rebuilt, so the peak includes them; a line shows this working set on its own.',
  },
  {
    id: 'mlp-checkpoint-count',
    topic: 'Plain-MLP checkpoint segments',
    choice: 'ceil(L/k) + k tensors (site demo convention), k = round(√L)',
    alternatives:
      'Counting the recomputed segment’s first input once gives ceil(L/k) + k − 1 (Chen et al. 2016, arXiv 1604.06174)',
    note: 'The demo graphs follow the ceil(L/k) + k convention; for transformers we subtract the shared input, so full recompute never exceeds no recompute.',
  },
  {
    id: 'outside-layers',
    topic: 'Activations outside the layers',
    choice: 'embedding dropout mask (1 byte) and embedding-norm input, final-norm and head inputs, fp32 logits 4·s·b·V',
    alternatives:
      'Korthikanti et al. §4.3 give 4sbh/t·(1 + v/h) for the output side; HF models can also keep 16-bit logits and an fp32 copy',
    note: 'The fp32 logits dominate for large vocabularies (Llama 3: 128k); they are shown as their own line.',
  },
  {
    id: 'bert-params',
    topic: 'BERT parameter count',
    choice: 'BertModel with pooler (109,482,240 for base); the MLM head transform (h² + 3h + V) is not counted',
    alternatives: 'BertForMaskedLM has 109,514,298 with the MLM head and no pooler',
    note: 'The model card’s 110M refers to the encoder; we match it exactly.',
  },
  {
    id: 'quantised-weights',
    topic: 'int8 / int4 weights',
    choice: 'exactly 8 or 4 bits per weight for every parameter; KV cache stays 16-bit',
    alternatives:
      'GPTQ/AWQ add an fp16 scale (and zero-point) per group of 128 weights (≈ 0.25 bits/weight) and often keep embeddings and the head in 16-bit',
    note: 'Real quantised checkpoints are a few percent larger than this estimate.',
  },
  {
    id: 'weight-format-bytes',
    topic: 'Bytes of a quantized checkpoint (weight-formats.ts)',
    choice:
      'tensor bytes as bitsandbytes, AutoGPTQ and AutoAWQ allocate them: packed weights, scales, zeros, g_idx and per-tensor code tables; GPTQ stores a bias only where the model has one',
    alternatives:
      'the CUDA caching allocator rounds every tensor up to 512 bytes (a few hundred KiB over a whole model); AutoGPTQ before PR #602 (March 2024) wrote a zero fp16 bias for every quantized Linear, 2 bytes per output feature',
    note: 'Our count equals a published AWQ Llama 3 70B safetensors index to the byte; older GPTQ files are up to 0.1 % larger because of the zero biases.',
  },
  {
    id: 'moe-linear-layout',
    topic: 'Mixtral experts: one Linear each, or one 3-D tensor',
    choice:
      'Transformers 4.x layout: every expert’s w1, w3, w2 and the router are nn.Linear, so bitsandbytes quantizes them and PEFT’s all-linear adapts them',
    alternatives:
      'Transformers 5 stores the experts as 3-D MixtralExperts.gate_up_proj / down_proj parameters: its bitsandbytes integration converts only exact nn.Linear/Conv1D modules, and PEFT 0.21 all-linear adapts the experts through target_parameters (r=16: 359,665,664 trainable instead of 242,225,152, measured by tools/peft-counts)',
    note: 'GPTQ/AWQ checkpoints and the published PEFT printouts use the 4.x layout; on Transformers 5 check which modules your quantizer and LoRA config really touch.',
  },
  {
    id: 'lora-adapter-dtype',
    topic: 'LoRA adapter, gradient and optimizer-state dtype',
    choice:
      'fp32 adapters (4 bytes), fp32 gradients (4) and two fp32 AdamW moments (8): 16 bytes per trainable parameter, as PEFT’s get_peft_model(autocast_adapter_dtype=True) default gives',
    alternatives:
      'autocast_adapter_dtype=False keeps adapters in the base dtype (bf16: 2 + 2 + 8 with fp32 moments); the QLoRA reference script (artidoro/qlora qlora.py, --bf16) casts every LoraLayer to bf16 after get_peft_model',
    note: 'Adapters are under 1 % of the parameters, so the choice moves the total by tens of MiB, not GiB.',
  },
  {
    id: 'kbit-upcast',
    topic: 'QLoRA: the non-quantized parameters',
    choice:
      'fp32 (4 bytes) after peft.prepare_model_for_kbit_training, which casts every fp16/bf16 parameter that is not Params4bit (embeddings, LM head, norms) and turns on gradient checkpointing',
    alternatives:
      'the QLoRA reference script (artidoro/qlora qlora.py, --bf16) casts embed_tokens and lm_head back to bf16 and keeps only norms in fp32; scripts that skip prepare_model_for_kbit_training keep the load dtype (float16 when none is given)',
    note: 'For Llama 3 8B the embedding and head are 1.05 B parameters: the upcast adds about 2 GiB to a 5.3 GiB NF4 model.',
  },
  {
    id: 'offload-buffers',
    topic: 'Offload: host buffers',
    choice:
      'host holds exactly the offloaded states (DeepSpeed’s 16 or 18 bytes per parameter, divided across data-parallel ranks), no buffer factor',
    alternatives:
      'DeepSpeed’s estimators multiply host memory by additional_buffer_factor = 1.5; pinned staging buffers and gradient buckets are extra',
    note: 'We show the states; budget the 1.5× DeepSpeed suggests when sizing host RAM.',
  },
  {
    id: 'zero3-working-set',
    topic: 'ZeRO-3 gathered parameters',
    choice:
      'one gathered unit, max(one layer, largest module), of 16-bit weights beyond the GPU’s own shard; its full-size gradient is transient in every stage and not counted',
    alternatives:
      'DeepSpeed’s estimator counts 4 bytes (weights + gradients) × the largest module; FSDP gathers a whole wrapped block and prefetches the next',
    note: 'A prefetching FSDP run holds about two blocks; we show one, so a higher ZeRO stage never costs more per GPU.',
  },
  {
    id: 'cuda-context',
    topic: 'CUDA context size',
    choice: '500 MiB per process',
    alternatives: '700–800 MiB measured before CUDA lazy loading (PyTorch forums); ~300 MiB with lazy loading on recent drivers',
    note: 'It varies with the CUDA version, GPU and loaded libraries; check yours with nvidia-smi right after torch.cuda.init().',
  },
  {
    id: 'gpu-memory',
    topic: 'GPU memory capacity',
    choice: 'the total the driver reports (nvidia-smi MiB × 2^20), e.g. A100 80GB = 81920 MiB, H100 80GB = 81559 MiB',
    alternatives: 'datasheets say "80 GB", which is 80 GiB on the A100 but not on the H100',
    note: 'An OOM happens against what the driver reports, so that is what `fits` compares to.',
  },
  {
    id: 'pipeline-stage',
    topic: 'Pipeline parallel per-GPU figure',
    choice:
      'the larger of the first stage (embedding, min(p, m) micro-batches in flight) and the last stage (head, logits, one micro-batch)',
    alternatives: 'Korthikanti et al. §4.2.3 report the first stage only',
    note: 'With a large vocabulary the last stage can be the one that runs out of memory.',
  },
  {
    id: 'default-stack',
    topic: 'What an estimate assumes when the reader names no setting',
    choice:
      'the Hugging Face Trainer on transformers 5 with bf16=True (--stack hf-trainer, stacks.ts): weights in the dtype the checkpoint stores, fused AdamW, SDPA; a float16 checkpoint counts as bf16 (same bytes), one without a stored dtype as float32',
    alternatives:
      'the engine defaulted to ZeRO-style mixed-bf16 with foreach AdamW, which no unflagged tool runs; TRL loads float32, LLaMA-Factory upcasts trainable parameters, torchtune and Unsloth train pure bf16 (each a --stack)',
    note: 'The same job ranges from 60 GiB to 150 GiB across stacks (Llama 3 8B, one 2,048-token sequence), so the tool is asked for, and the Trainer, the most used, answers until it is.',
  },
  {
    id: 'fsdp2-mixed-precision',
    topic: 'FSDP2 with a bf16 MixedPrecisionPolicy (--stack fsdp2, torchtitan)',
    choice: 'mixed-bf16 under ZeRO-3: 2 + 2 + 12 bytes per parameter, sharded',
    alternatives:
      'FSDP2 keeps fp32 shards (4) and fp32 gradients (4) with AdamW (8), gathering bf16 copies one group at a time (PyTorch fully_shard docs)',
    note: 'Both come to 16 bytes per parameter divided by the GPUs; the bf16 copy of the group being gathered is not counted separately.',
  },
];
