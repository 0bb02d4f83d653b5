import type { PlannerWords } from '../../../planner/messages';
import type { PLANNER_EN } from './en';

/** A count with its thousands grouped as zh-CN writes them. */
const count = (n: number): string => n.toLocaleString('zh-CN');

/**
 * The planner's fields (the engine's and the planner's flags), each with its unit: the English labels are the flags'
 * definitions, which the CLI's help prints too.
 */
const FIELD_LABELS: Readonly<Partial<Record<string, string>>> = {
  gpus: '卡数',
  'global-batch': '全局批次，每步的序列数',
  seq: '序列长度，token 数',
  task: '任务',
  'max-host-gb': '可用于卸载的主机内存，GB',
  headroom: '预留的显存余量，%',
  'rank-by': '排序依据',
  'price-tier': '价格档位',
  'epoch-tokens': '每个 epoch 的 token 数',
  'train-tokens': '训练的总 token 数',
};

/** The search's words: the plans' choices as the table lists them, and why combinations were left out. */
const SEARCH: PlannerWords = {
  run: {
    line: (steps, time, gpuHours, cost) => `${steps.toLocaleString('zh-CN')} 步 · ${time} · ${gpuHours} GPU 小时 · ${cost}`,
    noPrice: '无价格',
    cost: (cost, tier) => `${tier} ${cost}`,
    tiers: { 'on-demand': '按需实例', reserved: '预留实例', spot: '竞价实例' },
  },
  rejections: {
    noMicroBatch: '没有哪种微批次能把全局批次平均分到这些数据并行的 GPU 上',
    modelStates: '光是模型状态（权重、梯度、优化器状态和 CUDA 上下文）就超出了 GPU 的可用显存',
    activations: '模型状态放得下，但每个微批次哪怕只有一条序列，激活值也会让显存超出',
    hostMemory: 'GPU 放得下，但卸载的状态所需主机内存超出了 --max-host-gb 的上限',
  },
  dominance: {
    fused: '无论显存还是时间，都不会比换用 fused AdamW 的同一方案更省（未估算）',
    sdpa: '在这个序列长度下，无论显存还是时间，都不会比换用 SDPA 注意力的同一方案更省（未估算）',
    eightBitFloor: '所需显存不少于换用 8 位 AdamW 的同一方案，而后者在任何微批次下都放不下（未估算）',
    offloadFloor: '所需显存不少于把更多状态卸载到 CPU 的同一方案，而后者在任何微批次下都放不下（未估算）',
    bf16Floor: '所需显存不少于纯 bf16 的同一方案，而后者在任何微批次下都放不下（未估算）',
    recomputeFloor: '保留的激活值不少于完全重计算的同一方案，而后者在任何微批次下都放不下（未估算）',
  },
  rules: {
    unevenBatch: (globalBatch, dp) => `全局批次 ${globalBatch} 无法平均分到 ${dp} 个数据并行的 GPU 上`,
    weightsOffloadNeedsZero3: '卸载权重需要 ZeRO-3（ZeRO-Infinity，或 FSDP 的 CPU 卸载）',
    optimizerOffloadNeedsZero: '卸载优化器状态需要 ZeRO-1、2 或 3（ZeRO-Offload）',
    zeroOnOneGpu: '只有一个数据并行 GPU 时 ZeRO 什么也切分不了（单卡上只用它来做卸载）',
    fp16WithBf16: (gpu) => `${gpu} 支持 BF16：改用 FP16 只会多出损失缩放，显存和时间都不变`,
    noBf16: (gpu) => `${gpu} 没有 BF16 张量核心`,
    selectiveOnMlp: '选择性重计算丢弃的是注意力分数，而 mlp 模型没有注意力',
    noAttentionInMlp: 'mlp 模型没有注意力',
    selectiveWithSdpa: '选择性重计算丢弃的是注意力分数，而 SDPA 从不保存它们',
  },
  choices: {
    oneGpu: '单卡',
    layout: (tp, pp, dp) => `tp ${tp}${tp > 1 ? ' + sp' : ''} · pp ${pp} · dp ${dp}`,
    everyWeight: '训练全部权重',
    lora: 'LoRA r=16，全部 Linear 层（只训练适配器）',
    qlora: 'QLoRA r=16，全部 Linear 层，NF4 基座（只训练适配器）',
    offloadWeights: '优化器状态和权重卸载到 CPU',
    offloadOptimizer: '优化器状态卸载到 CPU',
    noOffload: '不卸载',
    noZero: '不用 ZeRO',
    zero0: 'ZeRO-0（DDP）',
    zero1: 'ZeRO-1',
    zero2: 'ZeRO-2',
    zero3: 'ZeRO-3 / FSDP',
    fullRecompute: '完全重计算',
    selectiveRecompute: '选择性重计算',
    noRecompute: '不重计算',
    eager: 'eager 注意力',
    sdpa: 'SDPA（FlashAttention）',
    adamw8bit: '8 位 AdamW（bitsandbytes）',
    fused: 'AdamW，fused 实现',
    foreach: 'AdamW，foreach 实现（PyTorch 默认）',
    forLoop: 'AdamW，for 循环实现',
    microBatch: (microBatch, gradAccum) =>
      gradAccum === 1 ? `微批次 ${microBatch}，不累积` : `微批次 ${microBatch} × ${gradAccum} 步梯度累积`,
  },
};

/** The planner island's words in 简体中文, key for key as `PLANNER_EN`. */
export const PLANNER_ZH_CN: typeof PLANNER_EN = {
  search: SEARCH,
  ariaLabel: '训练显存规划器',
  fields: {
    model: '模型',
    gpu: '你的 GPU',
    rent: '按下方价格，对比租用 GPU 的方案',
    allowLossy: '预训练：也尝试纯 16 位权重和 8 位 AdamW（会改变训练的数值行为）',
  },
  fieldLabel: (field) => `${FIELD_LABELS[field.flag] ?? field.label}（${field.flag}）`,
  optional: '可选',
  tasks: { pretrain: '预训练', finetune: '微调（全参数、LoRA 或 QLoRA）' },
  rankings: { time: '单步耗时', 'step-cost': '每步成本', 'epoch-cost': '每个 epoch 的成本' },
  tiers: SEARCH.run.tiers,
  prices: {
    heading: '每小时 GPU 价格',
    note: (date, source) =>
      `示例价格以美元计，截至 ${date}，并非报价：请填入你所用云厂商的价格。来源：${source}。价格留空的 GPU 不参与租用对比。`,
    gpu: 'GPU',
    partRow: '三档价格要么都填，要么都不填（都不填则不租用这款 GPU）',
    unread: '链接中未采用的价格：',
    unknownGpu: (gpu, text) => `价格 '${text}' 中的 GPU '${gpu}' 不认识`,
    unreadable: (text) => `无法读取价格 '${text}'`,
  },
  searching: '正在搜索…',
  terminal: '在终端里做同样的搜索：',
  terminalWithConfig: '在终端里做同样的搜索（先把模型的 config.json 保存为 config.json）：',
  copyCommand: '复制命令',
  copiedCommand: '已复制',
  searchFailed: '搜索失败：',
  summary: (own, rented, combinations, estimates, ms) =>
    `你的 GPU 上放得下 ${own} 个方案${rented > 0 ? `，租用的 GPU 上另有 ${rented} 个` : ''}。共搜索 ${count(combinations)} 种组合，调用显存引擎估算 ${count(estimates)} 次，用时 ${ms.toFixed(0)} ms（在本浏览器中实测）。`,
  estimateNote:
    '单步耗时和成本均为显存引擎的单步耗时模型给出的估计，并附上实测的误差区间（公开发表的训练中，10 次有 8 次落在区间内）；按引擎的计算，每个方案在预留显存余量后都放得下。',
  table: {
    rank: '#',
    details: '详情',
    hardware: 'GPU',
    techniques: '技术组合',
    perGpu: '每卡显存',
    step: '单步',
    cost: '成本',
    run: '整个训练',
    link: '链接',
  },
  rent: '租用',
  noPrice: '无价格',
  perStep: '/步',
  perEpoch: '/epoch',
  show: '展开',
  hide: '收起',
  share: '分享',
  showMore: (n) => `再显示 ${n} 个`,
  groupMembers: (n, open) => `${open ? '收起' : '展开'}单步耗时区间内的另外 ${n} 个方案`,
  groupDifferences: (differences) => (differences.length === 0 ? '' : `它们的区别在于${differences.join('；')}。`),
  dimensionNames: {
    hardware: 'GPU',
    layout: '并行布局',
    finetune: '训练哪些参数',
    offload: '卸载',
    zero: 'ZeRO',
    precision: '精度',
    recompute: '重计算',
    attention: '注意力实现',
    optimizer: '优化器',
    'micro-batch': '微批次',
  },
  groupsNote: (ratio) =>
    `单步耗时彼此相差在 ×${ratio} 以内（即单步耗时模型的误差区间）的方案合为一行，由最简单的方案领头：用到的技术更少、流水线更浅、卸载更少。`,
  byDefault: (what) => `（默认：${what}）`,
  notAChoice: (value) => `${value}（不是可选项）`,
  sections: {
    own: (hardware) => `你的 GPU：${hardware}`,
    rented: '租用的 GPU（卡数与你的相同），供对比',
  },
  shared: {
    heading: '链接中的方案',
    missing: '在当前设置下，链接中的方案放不下（或已不在方案列表中）。',
  },
  nothingFits: '你的 GPU 上没有放得下的方案。',
  shortfall: (gap, what) => `差距最小的组合还差 ${gap} 的${what}：`,
  gpuMemory: '显存',
  hostMemory: '主机内存',
  gpuAndHostMemory: '显存与主机内存（两者都超出上限）',
  wouldFit: '换成这些硬件就放得下：',
  wouldFitNone: '试过的 GPU 型号和卡数都放不下。',
  rejected: '其余组合为什么放不下',
  notTried: '未尝试的组合及原因',
  closest: (gap) => `最接近的还差 ${gap}`,
  breakdown: {
    total: '每卡合计',
    host: '整机主机内存',
  },
  timeHeading: '单步耗时（估计）',
  runHeading: '训练完全部 token（估计，附单步耗时区间）',
  bandNote: (source) => `区间来源：${source}`,
  timelineLoading: '正在绘制单步时间线…',
  timelineFailed: '单步时间线加载失败，请刷新页面重试。',
  lessonsHeading: '用到的课程',
  noLessons: '无：不加任何技术就放得下',
  estimateCommand: '在终端里复现：',
  changesNumerics: '会改变训练的数值行为',
  numericsNote:
    '这个方案会改变训练的数值行为：纯 16 位权重把每次更新都舍入到 16 位（没有 fp32 主权重），8 位 AdamW 则按块量化保存动量。预训练通常保留 fp32 主权重和 32 位 AdamW；依赖这个方案之前，先拿它的 loss 和这样一次训练对比。',
  finetuneNote: '这个方案训练全部权重（全参数微调）。',
  adapterNote:
    '这个方案改变了训练的参数：基座权重冻结（QLoRA 下以 4 位 NF4 存放），只训练每个 Linear 层上秩为 16 的 LoRA 适配器，效果可能与全参数微调不同。',
  count,
  listSeparator: '、',
  colon: '：',
};
