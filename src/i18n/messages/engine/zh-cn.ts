import { formatGiB } from '../../../base/bytes';
import {
  wordRule,
  type ShownFieldError,
  type MemoryLine,
  type PipelineStage,
  type RuleWords,
  type WarningWords,
} from '../../../memory/index';
import type { ENGINE_EN, FlagWords } from './en';
import { DIFFUSION_ZH_CN } from '../diffusion/zh-cn';

/** Each estimate flag as a form field shows it in 简体中文, by flag name; the flag itself stays as the CLI spells it. */
const FLAGS_ZH_CN: Readonly<Record<string, FlagWords>> = {
  model: { label: '模型', help: '模型预设（见下方列表）；形状参数会覆盖预设' },
  arch: { label: '架构', help: '自定义形状的架构族' },
  hidden: { label: '隐藏维度', help: '隐藏维度 h' },
  layers: { label: '层数', help: '层数 L（mlp：隐藏的 Linear+ReLU 块数）' },
  heads: { label: '注意力头数', help: '注意力头数', default: 'h/64' },
  'kv-heads': { label: 'KV 头数', help: '分组查询注意力（GQA）的键/值头数', default: '等于注意力头数' },
  ffn: { label: 'MLP 宽度', help: 'MLP 中间层宽度', default: '4h；llama 为 8h/3 向上取整到 256 的倍数' },
  vocab: { label: '词表大小', help: '词表大小（mlp：类别数）' },
  positions: {
    label: '可学习位置编码',
    help: '可学习位置编码表的行数',
    default: 'gpt2 为 1024，bert 为 512，其余为 0',
  },
  inputs: { label: '输入特征数', help: 'mlp：隐藏块之前输入层的输入特征数', default: '无' },
  experts: { label: '专家数', help: '混合专家（MoE）：每层的专家数', default: '1' },
  'top-k': { label: '每个 token 的专家数', help: '混合专家（MoE）：每个 token 激活的专家数', default: '有专家时为 2' },
  'tie-embeddings': {
    label: '共享词嵌入',
    help: 'LM head 与词嵌入矩阵共享（tie_word_embeddings）：只有一个张量、一份梯度',
    default: '沿用基座模型；gpt2、bert 共享',
  },
  'num-labels': {
    label: '分类标签数',
    help: '用 N 个标签的分类头代替 LM head（*ForSequenceClassification）',
    default: '无（LM head）',
  },
  params: { label: '参数量', help: '只给参数量（只算模型状态；激活值为 0）' },
  mode: { label: '任务', help: '估算什么：一个训练步，还是推理', default: 'train' },
  'micro-batch': {
    label: '每卡批大小',
    help: '每张 GPU 每次前向的序列数（infer：即批大小）',
    unit: '条序列',
    default: '1',
  },
  seq: { label: '序列长度', help: '每条序列的 token 数', unit: 'token', default: '模型的上下文长度' },
  'kv-cache': {
    label: 'MLA 的 KV 缓存',
    help: '推理，DeepSeek-V2/V3（MLA）：latent 为每层每个 token 缓存 kv_lora_rank + qk_rope_head_dim，与 vLLM、SGLang 一致；expanded 为缓存每个头的键和值，与 Transformers 一致',
    default: 'latent',
  },
  'grad-accum': { label: '梯度累积', help: '每个优化器步的微批次数', unit: '个微批次', default: '1' },
  tokens: {
    label: '缓存的 token 数',
    help: '推理：每条序列在 KV 缓存中的 token 数（提示词 + 生成部分）',
    unit: 'token',
    default: '等于序列长度',
  },
  stack: {
    label: '你用什么训练？',
    help: '训练所用的框架；你没有给出的技术参数取它的默认值（精度取自 checkpoint 的 dtype、优化器实现、重计算等）',
    default: 'hf-trainer',
  },
  precision: {
    label: '精度',
    help: '训练的精度方案',
    default: '取决于训练框架（hf-trainer：checkpoint 的 dtype）',
  },
  weights: {
    label: '权重格式',
    help: '推理：权重的存储格式（bitsandbytes 的 llm-int8、nf4、fp4，-dq 表示双重量化；GPTQ/AWQ 4 位、分组 128；DeepSeek-V3 的 fp8-block，gpt-oss 的 mxfp4；stored 表示按 checkpoint 发布时的格式，读自 config.json）',
    default: 'bf16',
  },
  optimizer: { label: '优化器', help: '优化器', default: 'adamw' },
  'optimizer-impl': {
    label: '优化器实现',
    help: 'PyTorch 优化器的实现：CUDA 上 torch.optim 默认用 foreach，Trainer 默认用 fused；DeepSpeed 的 FusedAdam 与 fused=True 都算 fused',
    default: '取决于训练框架（hf-trainer：fused）',
  },
  'optimizer-in-backward': {
    label: '在反向传播中更新参数',
    help: 'torchtune 的 optimizer_in_bwd（默认关闭）：反向传播算到哪个参数，就立即更新它并释放其梯度',
  },
  grads: {
    label: '两步之间的梯度',
    help: 'free：zero_grad(set_to_none=True)；keep：set_to_none=False 或连续梯度缓冲区',
    default: 'free',
  },
  'grad-dtype': {
    label: '梯度数据类型',
    help: 'param：梯度与权重同一 dtype；fp32：16 位权重旁放 4 字节的梯度缓冲区（Megatron 的 accumulate_allreduce_grads_in_fp32）',
    default: 'param',
  },
  attention: {
    label: '注意力内核',
    help: 'sdpa：FlashAttention / memory-efficient 内核（不保存 s×s 的注意力分数）；eager：保存注意力分数',
    default: 'sdpa',
  },
  kernels: {
    label: '层的实现',
    help: 'eager：PyTorch / Hugging Face 模块；fused：Megatron 式融合内核；llm-foundry：MosaicML llm-foundry 的 MPT 块（融合内核，另有 flash 路径对注意力输出做的填充副本）',
    default: 'eager',
  },
  loss: {
    label: '损失函数实现',
    help: '交叉熵的实现：eager（Hugging Face）、vocab-parallel（Megatron）、in-place（Unsloth）、flash-attn（flash-attn 的 Triton 内核，llm-foundry）、chunked（torchtune，分 8 块）、fused-linear（Liger）、cut（Cut Cross-Entropy）',
    default: 'eager；--kernels fused 时为 vocab-parallel，--kernels llm-foundry 时为 flash-attn',
  },
  recompute: {
    label: '激活重计算',
    help: '激活重计算（梯度检查点）：selective 为 Megatron-LM 的注意力核心重计算（Korthikanti 等 2022 §5）；op 为 torchtitan 的 selective_ac_option "op"（每隔一个矩阵乘保存一次）；full 为整层做检查点',
    default: 'none',
  },
  'checkpoint-every': {
    label: '每个检查点的层数',
    help: '完全重计算时，每个检查点段包含的层数',
    unit: '层',
    default: '1；mlp 为 round(√L)',
  },
  'activation-offload': {
    label: '激活值卸载',
    help: '把保存的激活值卸载到主机内存：streamed（torchtune 的 enable_activation_offloading）或 checkpoints（Unsloth，需要 --recompute full）',
    default: 'none',
  },
  dropout: { label: 'Dropout', help: '开启 dropout（--no-dropout 关闭）', default: 'gpt2、bert 开启；llama、mlp 关闭' },
  finetune: {
    label: '训练哪些参数',
    help: 'full：全部权重；lora：在 16 位基座上训练适配器；qlora：在 4 位 NF4 基座上训练适配器',
    default: 'full',
  },
  'qlora-format': {
    label: 'QLoRA 基座格式',
    help: 'bitsandbytes 的 4 位基座：nf4-dq（QLoRA 论文：NF4 + 双重量化）、nf4、fp4-dq、fp4（BitsAndBytesConfig 的默认值）',
    default: 'nf4-dq',
  },
  'qlora-kept': {
    label: 'QLoRA 中不量化的参数',
    help: 'fp32：prepare_model_for_kbit_training 把词嵌入、输出头和归一化层升到 fp32（PEFT）；16-bit：保持加载时的精度（TRL）',
    default: 'fp32',
  },
  'lora-rank': { label: 'LoRA 秩', help: 'LoRA 的秩 r', default: '16' },
  'lora-targets': {
    label: 'LoRA 目标模块',
    help: 'all-linear、attention，或逗号分隔的 q,k,v,o,gate,up,down',
    default: 'all-linear',
  },
  'lora-dropout': {
    label: 'LoRA dropout',
    help: 'PEFT 的 lora_dropout p，0 ≤ p < 1（PEFT 默认 0）：大于 0 时，每个加了适配器的模块都要保存一份 dropout 后的输入',
    default: '0',
  },
  'lora-dtype': {
    label: 'LoRA 适配器数据类型',
    help: '适配器及其梯度、动量的 dtype：fp32（PEFT 的 autocast_adapter_dtype=True），或与基座相同的 bf16/fp16',
    default: 'fp32',
  },
  'modules-to-save': {
    label: '全量训练的模块',
    help: 'PEFT 的 modules_to_save：none，或逗号分隔的 embed,head，这些模块在适配器之外全量训练',
    default: 'none',
  },
  dora: { label: 'DoRA', help: 'DoRA 适配器（PEFT 的 use_dora=True；默认关闭）：每个适配模块多出幅度向量和一次权重范数' },
  dp: { label: '数据并行 GPU 数', help: '数据并行的 GPU 数', unit: '张 GPU', default: '1' },
  zero: { label: 'ZeRO 阶段', help: 'ZeRO 阶段；FSDP 的 full-shard 即 3', default: '0' },
  'shard-group': {
    label: 'HSDP 分片组',
    help: '配合 --zero 3：每个分片组跨多少张 GPU（HSDP：节点内分片、节点间复制）；须整除 --dp',
    unit: '张 GPU',
    default: '等于 dp',
  },
  tp: { label: '张量并行度', help: '张量并行度', unit: '张 GPU', default: '1' },
  sp: { label: '序列并行', help: '序列并行（配合 --tp）' },
  pp: { label: '流水线并行级数', help: '流水线并行的级数，1F1B 调度', unit: '级', default: '1' },
  'pp-virtual': {
    label: '每级的虚拟流水线级数',
    help: '每个流水线级上的模型块数：大于 1 时为交错式 1F1B（Megatron-LM）',
    unit: '块',
    default: '1',
  },
  offload: { label: '卸载', help: '卸载到主机内存', default: 'none' },
  'offload-device': { label: '卸载目标', help: '被卸载的状态放在哪里', default: 'cpu' },
  compile: {
    label: 'torch.compile',
    help: 'torch.compile：未建模；按 eager 模式保存的激活值计数，作为上界（输出会注明）',
  },
  'keep-gathered-weights': {
    label: '保留聚合后的权重',
    help: '配合 --zero 3：从前向到反向一直保留 all-gather 得到的完整权重（FSDP2 的 reshard_after_forward=False）：显存更多，反向时不再 all-gather',
  },
  teacher: { label: '教师模型', help: '知识蒸馏：冻结的教师模型预设' },
  'teacher-weights': {
    label: '教师模型权重格式',
    help: '知识蒸馏：教师模型的权重格式',
    default: 'bf16（--precision fp32 时为 fp32）',
  },
  gpu: { label: 'GPU', help: '用来检查能否装下的 GPU 预设' },
  headroom: { label: '预留余量', help: '为显存碎片预留的空闲余量，占显存的百分比', unit: '%', default: '10' },
  mfu: {
    label: '算力利用率',
    help: '步时估算假设的模型算力利用率（MFU），占 GPU 稠密峰值算力的百分比（默认：按公开训练记录校准）',
    unit: '%',
    default: '校准曲线',
  },
  batching: {
    label: '批次排布',
    help: 'padded（每条序列填充到 --seq）、packed（把文档拼接成长度为 --seq 的行：TRL packing、axolotl sample_packing）、padding-free（真实 token 排成一行：DataCollatorWithFlattening、TRL padding_free）',
    default: 'padded',
  },
  'mean-seq': {
    label: '平均真实长度',
    help: '每条序列（packed 时为每篇文档）的平均真实 token 数，不超过 --seq：填充部分参与计算但不参与训练；峰值按最坏的批次计，即每条序列都是 --seq',
    unit: 'token',
    default: '等于序列长度',
  },
  fp8: {
    label: 'FP8 训练',
    help: 'float8 线性层：torchao-tensorwise、torchao-rowwise（convert_to_float8_training：保存 16 位输入）、te（Transformer Engine：保存 1 字节输入，另有 float8 权重副本及其转置）；需要 FP8 张量核心（Ada、Hopper、Blackwell、MI300）',
    default: 'none',
  },
  'fp8-all-gather': {
    label: 'FP8 all-gather',
    help: '配合 --fp8 torchao-tensorwise 与 --zero 3：以 float8 做权重的 all-gather，每个 1 字节（torchao 的 enable_fsdp_float8_all_gather；默认关闭）',
  },
};

/**
 * What each breakdown line holds, by the engine's line id. The English label carries the numbers that produced it;
 * here the size column beside it shows the bytes, so the words name the part alone.
 */
export const LINE_LABELS_ZH_CN: Readonly<Record<string, string>> = {
  weights: '权重',
  'weights-fp8': 'FP8 训练的 float8 权重副本',
  'weights-adapters': 'LoRA 适配器权重',
  'weights-dequantized': '反量化出的 16 位权重（正在计算的层）',
  'weights-gathered': 'ZeRO-3 / FSDP 聚合出的完整权重',
  'weights-autocast': '自动混合精度（autocast）缓存的 16 位权重副本',
  'teacher-weights': '教师模型权重',
  'teacher-activations': '教师模型前向的工作集与 logits',
  gradients: '梯度',
  'gradients-unsharded': '归约前未分片的梯度',
  'optimizer-master': '优化器状态：fp32 主权重',
  'optimizer-moments': '优化器状态：动量',
  'optimizer-temporaries': '优化器步的临时缓冲区',
  'optimizer-host-copies': '主机内存中的优化器副本',
  'activations-layers': '激活值：各层保存的张量',
  'activations-recompute': '激活值：重计算一段时重新生成的张量',
  'activations-mask': '激活值：注意力掩码',
  'activations-embedding': '激活值：词嵌入输出',
  'activations-head': '激活值：输出头的输入',
  'activations-logits': '激活值：logits',
  'activations-loss': '激活值：损失计算的中间张量',
  'activations-lora': '激活值：LoRA 适配器保存的输入',
  'activations-dora': '激活值：DoRA 的权重范数',
  'activations-backward': '反向传播的临时张量',
  'activations-offloaded': '卸载到主机内存的激活值',
  'activations-forward': '推理前向的激活值',
  'kv-cache': 'KV 缓存',
  'cuda-context': 'CUDA 上下文',
  'cublas-workspace': 'cuBLAS 工作区',
};

/** Numbers inside Chinese sentences, grouped as the locale groups them. */
const count = new Intl.NumberFormat('zh-CN');

/** The engine's field errors in 简体中文, by code (rule-words.ts); flags, keys and ids stay as the CLI spells them. */
const RULES_ZH_CN: RuleWords = {
  // The shared value checks sit next to their field on a page, so they leave its flag (or key, or side) out.
  notANumber: ({ value }) => `需要一个数字，当前为“${value}”`,
  notTrueOrFalse: ({ value }) => `只能是 true 或 false，当前为“${value}”`,
  notAChoice: ({ value, allowed }) => `无效的取值“${value}”（可选：${allowed.join('、')}）`,
  notWhole: ({ value }) => `必须是整数，当前为 ${value}`,
  belowMinimum: ({ value, min }) => `至少为 ${min}，当前为 ${value}`,
  notPositive: ({ value }) => `必须大于 0，当前为 ${value}`,
  tooLarge: ({ value, max }) => `太大了（${value} > ${max}）`,
  missing: () => '缺少这一项，没有它就无法计算模型',
  outOfRange: ({ value, min, max }) => `必须是 ${min} 到 ${max} 之间的整数，当前为 ${value}`,
  fileTooLarge: ({ bytes }) => `config.json 有 ${bytes} 字节，超过 1 MB 的上限；模型的 config.json 通常只有几 KB`,
  // The parser's own reason is the browser's, in its language.
  notJson: ({ reason }) => `config.json 不是合法的 JSON：${reason}`,
  notAnObject: () => 'config.json 必须是一个 JSON 对象（{ "hidden_size": …, … }）',
  tooManyGpus: ({ gpus, max }) => `dp × tp × pp 共 ${count.format(gpus)} 张 GPU；引擎最多只建模 ${count.format(max)} 张`,
  tpOnMlp: () => 'mlp 架构不建模张量并行；请用 --tp 1',
  headsByTp: ({ heads, tp }) => `注意力头数（${heads}）必须能被 tp（${tp}）整除`,
  kvHeadsAndTp: ({ kvHeads, tp }) => `KV 头数（${kvHeads}）与 tp（${tp}）必须有一个能整除另一个`,
  ppBeyondLayers: ({ pp, layers }) => `pp（${pp}）不能超过层数（${layers}）`,
  layersByChunks: ({ layers, pp, ppVirtual }) => `层数（${layers}）必须能均分成 pp × pp-virtual（${pp} × ${ppVirtual}）个模型块`,
  checkpointBeyondLayers: ({ checkpointEvery, layers }) => `checkpoint-every（${checkpointEvery}）不能超过层数（${layers}）`,
  virtualWithoutPp: ({ ppVirtual }) => `pp-virtual（${ppVirtual}）是在流水线阶段之间交错调度：需要 --pp 2 或更大`,
  accumByPp: ({ gradAccum, pp }) => `grad-accum（${gradAccum}）必须是 pp（${pp}）的倍数；交错调度按每组 pp 个微批次运行`,
  checkpointsWithoutFullRecompute: () =>
    'checkpoints 卸载的是检查点处各层的输入，所以需要 --recompute full（Unsloth 的 use_gradient_checkpointing="unsloth"）；要卸载全部保存的激活值请用 streamed',
  shardGroupWithoutZero3: () => 'shard-group 是在一组 GPU 内做 ZeRO-3 切分（HSDP）：需要 --zero 3',
  shardGroupByDp: ({ shardGroup, dp }) => `shard-group（${shardGroup}）必须能整除 dp（${dp}）：每组持有一份完整副本`,
  keepGatheredWithoutZero3: () => 'keep-gathered-weights 保留的是 ZeRO-3 聚合后的权重：需要 --zero 3',
  paramOffloadWithoutZero3: () => '卸载参数需要 --zero 3（ZeRO-Infinity、FSDP CPU 卸载）',
  offloadWithoutZero: () =>
    '卸载需要 ZeRO：--zero 1、2 或 3（DeepSpeed ZeRO-Offload）；FSDP 的 CPU 卸载是 --zero 3 --offload optimizer+params',
  configWithShape: () => 'config.json 已给出完整的模型：请去掉 --model、--params 和各形状参数',
  paramsAlone: () => '--params 只能单独使用，不能与 --model 或形状参数同时给出',
  noModel: ({ models }) =>
    `请给出 --model ID、带 --hidden 和 --layers 的 --arch，或 --params N（可选模型：${models.join('、')}）`,
  unknownModel: ({ model, models }) => `未知的模型“${model}”（可选：${models.join('、')}）`,
  hiddenRequired: ({ arch }) => `--arch ${arch} 需要同时给出 --hidden`,
  layersRequired: ({ arch }) => `--arch ${arch} 需要同时给出 --layers`,
  headsRequired: ({ hidden }) => `隐藏维度（${hidden}）不是 64 的倍数时，需要给出 --heads`,
  hiddenByHeads: ({ hidden, heads }) => `隐藏维度（${hidden}）必须能被注意力头数（${heads}）整除`,
  kvHeadsDivideHeads: ({ kvHeads, heads }) => `KV 头数（${kvHeads}）必须能整除注意力头数（${heads}）`,
  topKBeyondExperts: ({ topK, experts }) => `top-k（${topK}）不能超过专家数（${experts}）`,
  expertsOnMlp: () => '混合专家（MoE）只对 Transformer 架构建模',
  inputsOffMlp: ({ arch }) => `--inputs 描述的是 mlp 的输入层；${arch} 架构的输入是 token`,
  labelsOnMlp: () => 'mlp 架构本身就以分类层结尾：类别数请用 --vocab 给出',
  seqOnMlp: ({ seq }) => `mlp 架构没有序列维度：序列长度必须为 1（当前为 ${seq}）；批大小用 --micro-batch 设置`,
  meanSeqBeyondSeq: ({ meanSeq, seq }) =>
    `mean-seq ${meanSeq} 大于 --seq ${seq}：平均真实长度不能超过序列被填充、打包或截断到的长度`,
  paddingFreeWithEager: () =>
    '无填充（padding-free）批次需要 FlashAttention（TRL 的 padding_free 只支持 FlashAttention 2 或 3）：请用 --attention sdpa，或 --batching padded',
  optimizerInBackwardWithAccum: () => 'optimizer-in-backward 在梯度一算出就立即更新参数，无法做梯度累积：请用 --grad-accum 1',
  fp8WithoutTensorCores: ({ recipe, gpu }) =>
    `fp8 ${recipe} 需要 FP8 张量核心（Ada、Hopper、Blackwell、MI300）；${gpu} 没有：请用 --fp8 none`,
  fp8TeOffNvidia: ({ gpu }) => `fp8 te 是 NVIDIA 的 Transformer Engine；${gpu} 不是 NVIDIA GPU：请改用 torchao 方案`,
  fp8InInfer: () => 'fp8 是训练方案：--mode infer 时请去掉它',
  fp8WithAdapters: ({ finetune }) => `fp8 只对全量微调计算；--finetune ${finetune} 时请用 --fp8 none`,
  fp8TeWithZero3: () => '未建模 fp8 te 与 --zero 3 的组合（FSDP2 会在反向传播中重新量化权重）：请改用 torchao 方案',
  fp8AllGatherNeeds: () => 'fp8-all-gather 需要 --fp8 torchao-tensorwise（torchao 只在 tensorwise 缩放下允许）和 --zero 3',
  unknownGpu: ({ gpu, gpus }) => `未知的 GPU“${gpu}”（可选：${gpus.join('、')}）`,
  unknownTeacher: ({ teacher, models }) => `未知的教师模型“${teacher}”（可选：${models.join('、')}）`,
  teacherInInfer: () => '知识蒸馏训练的是学生模型：使用 --teacher 时请用 --mode train',
  headroomRange: ({ value }) => `预留余量必须是 0 到 50 之间的百分比，当前为 ${value}`,
  mfuRange: ({ value }) => `MFU 必须是大于 0、不超过 100 的百分比，当前为 ${value}`,
  storedUnknown: () =>
    'stored 表示 checkpoint 发布时的格式，由 config.json 给出（quantization_config 或 torch_dtype）；这个模型没有写明：请选择 fp32、fp16、bf16 或某种量化格式',
  quantizedWithoutShape: ({ format }) =>
    `${format} 量化的是 Linear 层，只给 --params 无法描述它们：请给出 --model 或带形状的 --arch，或改用 fp32、fp16、bf16`,
  formatNotForArch: ({ format, arch, archs }) =>
    `${format} 不支持 ${arch} 模型（该库支持 ${archs.join('、')}）；请选择 fp16、bf16、llm-int8、nf4 或 nf4-dq`,
  formatWithoutExperts: ({ format }) => `${format} 存储的是混合专家（MoE）中的专家；这个模型没有专家`,
  gptqPacking: ({ format, module, inFeatures, outFeatures }) =>
    `${format} 要求输入和输出宽度都是 32 的倍数；${module} 为 ${inFeatures} → ${outFeatures}`,
  awqPacking: ({ format, module, inFeatures, outFeatures, group }) =>
    `${format} 要求输入宽度是 ${group} 的倍数、输出宽度是 8 的倍数；${module} 为 ${inFeatures} → ${outFeatures}`,
  mxfp4Packing: ({ format, module, inFeatures, outFeatures, block }) =>
    `${format} 要求输入宽度是 ${block} 的倍数；${module} 为 ${inFeatures} → ${outFeatures}`,
  adaptersWithoutShape: ({ finetune }) =>
    `--finetune ${finetune} 适配的是模型的 Linear 层：请给出 --model 或带形状的 --arch，而不是 --params`,
  loraDropoutRange: ({ value }) => `lora-dropout 必须是满足 0 ≤ p < 1 的概率 p，当前为 ${value}`,
  loraRankWhole: ({ rank }) => `需要一个 ≥ 1 的整数，当前为 ${rank}`,
  loraTargetsList: ({ presets, targets, unknown }) =>
    `应为 ${presets.join('、')}，或由 ${targets.join(',')} 组成的逗号分隔列表；当前为${unknown.length === 0 ? '空列表' : `“${unknown.join(', ')}”`}`,
  modulesToSaveList: ({ modules, unknown }) =>
    `应为 none，或由 ${modules.join(',')} 组成的逗号分隔列表；当前为${unknown.length === 0 ? '空列表' : `“${unknown.join(', ')}”`}`,
  missingProjections: ({ arch, missing, have }) => `${arch} 没有 ${missing.join('、')} 投影；可选：${have.join(',')}`,
  fusedProjections: ({ arch, projections, module }) =>
    `${arch} 把 ${projections.join('、')} 融合在同一个模块（${module}）中；要么全部作为目标，要么都不选`,
  loraOnMlp: () => 'LoRA 适配的是 Transformer 的投影层（q,k,v,o,gate,up,down）；普通 MLP 没有这些层，请用全量微调',
  doraWithTp: () => 'DoRA 不支持张量并行（PEFT 的 LoraParallelLinear）：请用 --tp 1 或去掉 --dora',
  unknownFlag: ({ flag }) => `未知参数 --${flag}`,
  flagTwice: ({ flag }) => `--${flag} 只能给一次`,
  flagWithoutValue: ({ flag, placeholder }) => `--${flag} 需要一个值${placeholder ? `（${placeholder}）` : ''}`,
  flagAndAlias: ({ flag, alias }) => `--${flag} 与 --${alias} 只能给一个`,
  nothingToEstimate: () => '没有可估算的内容',
  tooLargeToCount: () => '这个配置太大，无法精确计算（单个部分就会超过 9 PB）；请检查各项尺寸',
  configKvHeads: ({ kvHeads, headsKey, heads }) => `（${kvHeads}）必须能整除 ${headsKey}（${heads}）`,
  configHiddenByHeads: ({ hidden, headsKey, heads }) => `（${hidden}）必须能被 ${headsKey}（${heads}）整除（未给出 head_dim 时）`,
  configTopK: ({ topK, experts, expertsKey }) => `（${topK}）不能超过 ${expertsKey} 的 ${experts} 个专家`,
  configLayerIndices: ({ layers }) => `必须列出 0 到 ${layers - 1} 之间的层号`,
  configLayerTypes: ({ layers, entries }) => `必须每层一项（${layers} 层），当前有 ${entries} 项`,
  ditTooLarge: () => '超过 1 MB 的上限；transformer 的 config.json 通常只有几 KB',
  ditNotJson: ({ reason }) => `不是合法的 JSON（${reason}）`,
  ditNotObject: () => '需要一个 JSON 对象',
  ditClassName: ({ className, classes }) => `_class_name ${className} 不是引擎能计算的扩散 transformer（${classes.join('、')}）`,
  ditCount: ({ value, max }) => `需要 1 到 ${max} 之间的整数，当前为 ${value}`,
  ditFlag: ({ value }) => `只能是 true 或 false，当前为 ${value}`,
  ditChoiceNotCounted: ({ value, values }) => `暂不计算 ${value}：应为 ${values.join(' 或 ')} 或 null`,
  ditIndices: ({ value, layers }) => `需要 0 到 ${layers - 1} 之间互不相同的块编号，当前为 ${value}`,
  ditPatch: ({ value }) => `需要三个 1 到 64 之间的整数 [frames, height, width]，当前为 ${value}`,
  firstLastFrameNotCounted: ({ value }) => `暂不计算 ${value}：未建模首尾帧位置编码`,
  imageDimPair: ({ value }) => `${value}：image_dim 与 added_kv_proj_dim 必须同时给出`,
  unknownPipeline: ({ id }) => `未知的管线预设 ${id}`,
  unknownGpuPreset: ({ gpu }) => `未知的 GPU 预设 ${gpu}（见 estimate --help）`,
  resolutionFormat: ({ value }) => `需要 宽x高 形式的像素尺寸（如 1280x720），当前为 ${value}`,
  sideNotMultiple: ({ side, value, multiple, pipeline, latentPixels, patch }) =>
    `${side === 'width' ? '宽度' : '高度'} ${value} 不是 ${multiple} 的倍数：${pipeline} 会调整它的尺寸（潜变量每格 ${latentPixels} 像素，patch 为 ${patch}）`,
  imagesOneFrame: ({ pipeline, frames }) => `${pipeline} 生成的是图像：帧数必须为 1，当前为 ${frames}`,
  framesByTemporal: ({ temporal, frames, pipeline }) =>
    `帧数 − 1 必须是 ${temporal}（VAE 的时间压缩倍数）的倍数，当前为 ${frames}：${pipeline} 会对它取整`,
  diffusionHeadroom: ({ value }) => `必须是 0 到 99 之间的百分比，当前为 ${value}`,
};

const STAGE_ZH_CN: Readonly<Record<PipelineStage, string>> = { only: '唯一', first: '第一个', last: '最后一个' };

/** The estimate's warnings in 简体中文, by code; flags, file and API names stay as the CLI spells them. */
const WARNINGS_ZH_CN: WarningWords = {
  compileAssumption: () =>
    '--compile：未建模；激活值按 eager autograd 保存的张量计，是上限：torch.compile 的 min-cut 划分器（torch/_functorch/partitioners.py 中的 min_cut_rematerialization_partition）可能保存得更少，并在反向时重算廉价的逐元素算子',
  paramsOnly: ({ mode }) =>
    mode === 'train'
      ? '只给 --params 时只计模型状态，激活值为 0。要计入激活值，请给 --model，或用 --arch 加形状参数'
      : '只给 --params 时只计权重，KV 缓存和激活值为 0。要计入它们，请给 --model，或用 --arch 加形状参数',
  attentionOnMlp: () => 'mlp 架构没有注意力，--attention 不起作用；去掉这个参数',
  seqBeyondPositions: ({ seq, positions }) =>
    `序列长度 ${count.format(seq)} 超过了模型的 ${count.format(positions)} 个可学习位置编码；模型无法直接处理这么长的序列`,
  teacherVocab: ({ teacher, student }) =>
    `教师模型的词表（${count.format(teacher)}）与学生模型的（${count.format(student)}）不同；logit 蒸馏要求两者共用同一个词表`,
  loraFlagsIgnored: ({ flags }) => `${flags.join('、')} 只用于 --finetune lora 或 qlora；已忽略`,
  qloraRecompute: () =>
    'QLoRA：prepare_model_for_kbit_training 会打开梯度检查点，因此这里按 --recompute full 计；不用梯度检查点时请传 --recompute none',
  spWithoutTp: () => '--tp 1 时 --sp 不起作用（序列并行按张量并行度切分）；去掉 --sp 或调大 --tp',
  zeroWithoutDp: ({ stage }) => `--dp 1 时 ZeRO-${stage} 什么也切分不了；请调大 --dp`,
  opRecomputeOnMlp: () =>
    '算子级重计算保存矩阵乘（aten.mm）的输出；mlp 架构的层带偏置（addmm），所以它保存的与 --recompute full --checkpoint-every 1 相同',
  selectiveOnMlp: () => '选择性重计算只丢弃注意力的激活值；mlp 架构没有注意力，所以省不下任何显存（请用 --recompute full）',
  selectiveWithSdpa: () =>
    '选择性重计算丢弃 s×s 的注意力激活值，而 SDPA（FlashAttention）本来就不保存它们：不会再省显存；请用 --recompute full 或 --attention eager',
  tieWithLabels: () => '有 --num-labels 时 --tie-embeddings 不起作用：分类头是独立的 标签数 × 隐藏维度 矩阵，从不与词嵌入共享',
  gradDtypeWithAdapters: () =>
    '--grad-dtype 设置的是全量微调的梯度；LoRA 和 QLoRA 的适配器梯度沿用适配器的数据类型（--lora-dtype）',
  noBf16: ({ gpu }) => `${gpu} 没有 BF16 张量核心；请用 --precision mixed-fp16 或 amp-fp16`,
  ignoredInInfer: ({ flags }) => `推理模式下忽略：${flags.join('、')}`,
  tiedHeadStored: () =>
    'LM head 与词嵌入共用一个矩阵（tie_word_embeddings）：按加载后的情况只计一次；有些 checkpoint 还会另存一份 lm_head（Qwen3-0.6B：文件中 1,503,264,768 字节，加载后 1,192,099,840 字节），所以下载量可能更大',
  kvCacheWithoutMla: () => '--kv-cache 选择的是多头潜在注意力（DeepSeek-V2/V3）的缓存方式；这个模型缓存的是键和值，已忽略',
  inferFlagsInTraining: () => '--tokens、--weights 和 --kv-cache 只用于 --mode infer；训练时已忽略',
  pipelineStage: ({ stage }) =>
    `流水线并行：每卡数字取第一个和最后一个阶段中较大的那个，即${STAGE_ZH_CN[stage]}阶段；步时和主机内存取较慢、较大的那个阶段`,
  overMargin: ({ gpu, capacityBytes, headroom, shortfallBytes }) =>
    `放得进 ${gpu} 的 ${formatGiB(capacityBytes)}，但占用了 ${headroom} % 预留余量中的 ${formatGiB(shortfallBytes)}：能跑，只是应对显存碎片的余地比建议的少`,
  doesNotFit: ({ gpu, headroom, shortfallBytes }) =>
    `${gpu} 放不下：算上 ${headroom} % 的预留余量，超出 ${formatGiB(shortfallBytes)}`,
  textConfigOnly: ({ modelType }) => `只读取了 text_config：${modelType ?? '多模态'} 模型的其余部分（视觉编码器、投影层）未计入`,
  unknownModelType: ({ modelType, read, ignored }) =>
    `未知的 model_type ${modelType === undefined ? '（未给出）' : `'${modelType}'`}：按 Llama 式解码器读取了 ${read.join('、')}；${ignored.length === 0 ? '没有忽略任何键' : `忽略了 ${ignored.join('、')}`}`,
  quantizationNotCounted: ({ method, block }) =>
    `quantization_config ${method} 不是引擎能计算的存储格式（${block} × ${block} 分块的 fp8、mxfp4）：无法使用 --weights stored，请自行选择格式`,
  nextnLayersSkipped: () =>
    'checkpoint 中还存有多 token 预测层（num_nextn_predict_layers），Transformers 不会加载它们，因此未计入',
  noauxOnDeepseekV2: () => 'deepseek_v2 上的 topk_method noaux_tc：其校正偏置按 DeepSeek-V3 的存储方式计入',
  layerTypesOther: () =>
    'layer_types 中有 sliding_attention 和 full_attention 以外的类型：每一层的 KV 缓存都按完整长度计，是上限',
  layerTypesIrregular: ({ window }) =>
    `layer_types 不符合“每隔 n 层一个全局层”的规律：每一层的 KV 缓存都按完整长度计（忽略窗口 ${count.format(window)}），是上限`,
  conditioningEncodeUncounted: () =>
    '图生视频：WanImageToVideoPipeline 在去噪前还会用 VAE 编码条件帧（先是输入图像，再是空白帧）；这次编码暂未计入',
  diffusionDoesNotFit: ({ gpu, shortfallBytes, phase, headroom }) =>
    `${gpu} 放不下：算上 ${headroom} % 的预留余量，在${DIFFUSION_ZH_CN.phases[phase]}时超出 ${formatGiB(shortfallBytes)}`,
};

/** The memory engine's words in 简体中文; English names (flags, stacks, GPU and model names) stay as they are. */
export const ENGINE_ZH_CN: typeof ENGINE_EN = {
  flags: FLAGS_ZH_CN,
  stacks: {
    'hf-trainer': 'Hugging Face Trainer',
    trl: 'TRL SFTTrainer',
    pytorch: '原生 PyTorch 训练循环',
    deepspeed: 'DeepSpeed',
    fsdp2: 'PyTorch FSDP2',
    megatron: 'Megatron-LM',
    torchtitan: 'torchtitan',
    torchtune: 'torchtune',
    'llama-factory': 'LLaMA-Factory',
    axolotl: 'axolotl',
    unsloth: 'Unsloth',
  },
  // An id this table lacks prints as the id: tests/unit/i18n/engine-words.test.ts runs the calculators and fails on it.
  lineLabel: (line: MemoryLine): string => LINE_LABELS_ZH_CN[line.id] ?? line.id,
  device: { gpu: '', cpu: '主机内存：', nvme: 'NVMe：' },
  // An error without a problem was worded in the page's language by its maker (the planner's request, a Hub fetch).
  fieldError: (error: ShownFieldError): string =>
    error.problem === undefined ? error.message : wordRule(error.problem, RULES_ZH_CN),
  warnings: WARNINGS_ZH_CN,
  rules: RULES_ZH_CN,
  // The engine words its assumptions in English only, and they vary with the settings: name what they are about, and
  // where to read them one by one.
  stepTimeAssumptions: (): string => '算力利用率、通信与计算的重叠、每台服务器的 GPU 数等，逐条见终端中 estimate 命令的输出',
  scenarios: {
    yourSettings: '你的设置',
    fp32: 'fp32',
    yourPrecision: '你的精度',
    wholeBatch: '整批一次算完',
    microBatches: '拆成微批次',
    keepActivations: '保存全部激活值',
    yourRecompute: '你的重计算',
    oneGpu: '单卡',
    yourParallel: '你的并行方案',
    nothingOffloaded: '不卸载',
    yourOffload: '你的卸载',
    fullFinetune: '全量微调',
    yourAdapters: '你的适配器',
    bf16Weights: 'bf16 权重',
    yourWeights: '你的权重格式',
    studentAlone: '只有学生模型',
    studentWithTeacher: '学生模型 + 冻结的教师模型',
    plainStart: 'fp32，AdamW',
    addPrecision: (precision: string): string => `+ ${precision}`,
    addRecompute: (recompute: string): string => `+ ${recompute} 重计算`,
    addOptimizer: (optimizer: string): string => `+ ${optimizer}`,
    addZero: (stage: number, gpus: number): string => `+ ${gpus} 张 GPU 上的 ZeRO-${stage}`,
    addOffload: (what: string): string => `+ 卸载 ${what}`,
  },
};
