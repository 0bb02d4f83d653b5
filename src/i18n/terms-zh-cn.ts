/**
 * The English → 简体中文 terminology table: one Chinese term for each English one, so that every translated page says
 * 显存碎片 for "fragmentation" and no page says 内存碎片. Translators read it; the Chinese glossary
 * (content/docs/zh-cn/glossary.mdx) renders it as its table of terms, and its headwords are `zhHeadword()` of these
 * entries (a unit test holds both).
 *
 * The entries follow the English glossary (content/docs/glossary.mdx): its headwords, with `en` spelled exactly as
 * its `###` heading, in its order; the few terms a translation needs that the glossary has no entry for (GPU memory,
 * weights, gradients…) sit where they fall alphabetically. The Chinese terms are the ones Chinese practitioners use;
 * code, flags, API names, product and model names stay in English, so for those `zh` repeats `en`.
 */

/** One term: the English, the Chinese, and when the choice needs saying, why. */
export interface Term {
  /** The English term; for a glossary headword, its heading exactly. */
  readonly en: string;
  /** The Chinese term the translated pages use. */
  readonly zh: string;
  /** A usage note for translators: a synonym in use, or a word to avoid. */
  readonly note?: string;
}

/** Every term, in the English glossary's order. */
export const TERMS_ZH_CN: readonly Term[] = [
  { en: '1F1B schedule', zh: '1F1B 调度' },
  { en: '2:4 sparsity', zh: '2:4 稀疏' },
  { en: '8-bit optimizer', zh: '8 位优化器' },
  { en: 'Activation checkpointing', zh: '激活检查点', note: '梯度检查点的另一个名字' },
  { en: 'Activation recomputation', zh: '激活重计算', note: '与梯度检查点同义，两种说法都常见' },
  { en: 'Activations', zh: '激活值', note: '也说“激活”；不译作“激活函数”' },
  { en: 'AdamW', zh: 'AdamW' },
  { en: 'All-gather', zh: 'All-gather', note: '集合通信的名字照英文写，不译' },
  { en: 'All-reduce', zh: 'All-reduce', note: '集合通信的名字照英文写，不译' },
  { en: 'Allocated memory', zh: '已分配显存' },
  { en: 'AMP (automatic mixed precision)', zh: '自动混合精度' },
  { en: 'AWQ', zh: 'AWQ' },
  { en: 'bf16 (bfloat16)', zh: 'bf16' },
  { en: 'Bubble', zh: '流水线气泡' },
  { en: 'Caching allocator', zh: '缓存分配器' },
  { en: 'Checkpoint (training checkpoint)', zh: '训练检查点', note: '保存到磁盘的训练状态，与梯度检查点无关' },
  { en: 'Context parallelism', zh: '上下文并行' },
  { en: 'CUDA context', zh: 'CUDA 上下文' },
  { en: 'Data parallelism', zh: '数据并行' },
  { en: 'DDP (DistributedDataParallel)', zh: 'DDP' },
  { en: 'DeepSpeed', zh: 'DeepSpeed' },
  { en: 'device_map', zh: 'device_map' },
  { en: 'Distillation (knowledge distillation)', zh: '知识蒸馏' },
  { en: 'Double quantization', zh: '双重量化' },
  { en: 'Effective batch size', zh: '有效批大小', note: '即全局批次的样本数' },
  { en: 'Expandable segments', zh: '可扩展段' },
  { en: 'Expert parallelism', zh: '专家并行' },
  { en: 'FlashAttention', zh: 'FlashAttention' },
  { en: 'fp16 (half precision)', zh: '半精度' },
  { en: 'fp32 (single precision)', zh: '单精度' },
  { en: 'Fragmentation', zh: '显存碎片', note: '不说“内存碎片”：这里指 GPU 显存' },
  { en: 'FSDP / FSDP2', zh: 'FSDP / FSDP2' },
  { en: 'GB and GiB', zh: 'GB 与 GiB' },
  { en: 'Global batch', zh: '全局批次' },
  { en: 'GPTQ', zh: 'GPTQ' },
  { en: 'GPU memory', zh: '显存', note: '主机内存说“内存”或“主机内存”，两者不混用' },
  { en: 'Gradient accumulation', zh: '梯度累积' },
  { en: 'Gradient checkpointing', zh: '梯度检查点', note: '也称激活重计算' },
  { en: 'Gradients', zh: '梯度' },
  { en: 'GradScaler (loss scaling)', zh: '损失缩放' },
  { en: 'HBM', zh: '高带宽显存' },
  { en: 'Headroom', zh: '显存余量' },
  { en: 'Host memory', zh: '主机内存', note: 'CPU 一侧的内存；GPU 上的叫显存' },
  { en: 'Hybrid sharding (HSDP)', zh: '混合分片' },
  { en: 'KV cache', zh: 'KV 缓存' },
  { en: 'LLM.int8()', zh: 'LLM.int8()' },
  { en: 'LoRA', zh: 'LoRA' },
  { en: 'Master weights', zh: '主权重' },
  { en: 'Micro-batch', zh: '微批次' },
  { en: 'Mixed precision', zh: '混合精度' },
  { en: 'Mixture of experts (MoE)', zh: '混合专家' },
  { en: 'Model states', zh: '模型状态' },
  { en: 'NF4', zh: 'NF4' },
  { en: 'NVLink and NVLink-C2C', zh: 'NVLink 与 NVLink-C2C' },
  { en: 'NVMe offload', zh: 'NVMe 卸载' },
  { en: 'nvidia-smi', zh: 'nvidia-smi' },
  { en: 'Offload', zh: '卸载' },
  { en: 'On-demand instance', zh: '按需实例' },
  { en: 'OOM (out of memory)', zh: '显存不足' },
  { en: 'Optimizer states', zh: '优化器状态' },
  { en: 'Paged optimizer', zh: '分页优化器' },
  { en: 'PCIe', zh: 'PCIe' },
  { en: 'Peak memory (of a step)', zh: '峰值显存' },
  { en: 'Pinned memory', zh: '锁页内存', note: '也称固定内存（pinned memory）' },
  { en: 'Pipeline parallelism', zh: '流水线并行' },
  { en: 'Pruning', zh: '剪枝' },
  { en: 'QLoRA', zh: 'QLoRA' },
  { en: 'Quantization', zh: '量化' },
  { en: 'Reduce-scatter', zh: 'Reduce-scatter', note: '集合通信的名字照英文写，不译' },
  { en: 'Reserved instance (committed use)', zh: '预留实例' },
  { en: 'Reserved memory', zh: '预留显存', note: '也译“保留显存”；本站统一用“预留”' },
  { en: 'SDPA (scaled dot-product attention)', zh: '缩放点积注意力' },
  { en: 'Selective recomputation', zh: '选择性重计算' },
  { en: 'Sequence parallelism', zh: '序列并行' },
  { en: 'Soft targets', zh: '软目标' },
  { en: 'Spot instance (preemptible)', zh: '竞价实例', note: '也称抢占式实例' },
  { en: 'Step time', zh: '单步时间', note: '一个训练步的墙钟时间；不说“步长”，那是优化器的步长（step size）' },
  { en: 'Temperature', zh: '温度' },
  { en: 'Tensor parallelism', zh: '张量并行' },
  { en: 'Weights', zh: '权重' },
  { en: 'ZeRO (stages 1, 2, 3)', zh: '零冗余优化器' },
  { en: 'ZeRO-Infinity', zh: 'ZeRO-Infinity' },
  { en: 'ZeRO-Offload', zh: 'ZeRO-Offload' },
];

/**
 * How the Chinese glossary heads a term's entry: the Chinese with the English in full-width parentheses, so a reader
 * who knows only one of the two finds it. A term that stays English (`DDP` for "DDP (DistributedDataParallel)") is
 * written once, as the English heading.
 */
export function zhHeadword(term: Term): string {
  const staysEnglish = term.en === term.zh || term.en.startsWith(`${term.zh} (`);
  return staysEnglish ? term.en : `${term.zh}（${term.en}）`;
}
