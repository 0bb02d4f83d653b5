import { wordCoded } from '../../../base/coded-words';
import type { SetupErrorWords } from '../../../setup/error-words';
import type { SetupReasons } from '../../../setup/reasons';
import type { TomlWords } from '../../../setup/toml-subset';
import type { SetupWords } from '../../../setup/words';
import type { TRAINING_CONFIG_EN } from './en';

/** The reader's words around a mapping. */
const SETUP: SetupWords = {
  notModelled: (what) => `未建模：${what}`,
  noEffect: (why) => `不影响显存：${why}`,
  namesFile: (path) => `引用了 ${path}`,
  stackDefault: (why) => `取训练框架默认值：${why}`,
  conflictValue: (keyAndValue, file) => `${file} 中的 \`${keyAndValue}\``,
  conflictAnd: '与',
  conflict: (said, option, value, why) => `${said}不一致：${option} = ${value}；${why}`,
  mergeOrder:
    'accelerate 配置 < 训练器参数（TrainingArguments/TRL、LLaMA-Factory、axolotl、torchtune、torchtitan、Unsloth）< DeepSpeed JSON；同级时后给的文件优先',
};

/**
 * The training-config reader's reasons (src/setup/reasons.ts) in 简体中文, code for code. Keys, flags, tool and API
 * names stay as code, as in the files they come from.
 */
const REASONS: SetupReasons = {
  packedCounted: () => '打包后的行按打包计算，展平与否都一样',
  paddingFreeInstead: () => '已关闭：该批次改为无填充（padding-free）',
  paddedBatch: () => '已关闭：该批次按填充计算',
  otherModulesTrained: (modules) => `${modules} 在适配器之外全量训练`,
  quantStorage: () => '4 位量化码打包后占 n/2 字节，与存放它的 dtype 无关（bitsandbytes Params4bit 的 quant_storage）',
  optimizerNotCounted: (name, counted) => `优化器 ${name}：引擎只计算 ${counted}`,
  autocastLoadDtype: (half) => `${half} autocast，但权重加载时的 dtype 此文件未给出`,
  fp16Weights: () => 'fp16 权重：Trainer 拒绝对 fp16 梯度做 unscale；纯 fp16 不是引擎支持的精度',
  attentionKind: (name) => `注意力实现 ${name}`,
  inlineDeepSpeed: () => '内联的 DeepSpeed 配置：请另存为 JSON 文件，作为第二个文件添加',
  adaptersOn: (modules) => `${modules} 上的适配器`,
  eightBitBase: () => '8 位（LLM.int8）量化的基座模型',
  lossType: (type) => `损失类型 loss_type ${type}`,
  hybridShardGroup: (word) => `${word}：分片组是单台机器上的 GPU，由启动器决定（--shard-group N）`,
  autocastScriptDtype: (half) => `${half} autocast，但权重加载时的 dtype 由训练脚本决定`,
  precisionTraining: (mode) => `${mode} 训练`,
  megatron: () => '通过 accelerate 运行的 Megatron-LM（请读取它自己的参数）',
  oneMachineHybrid: () => '单台机器：混合分片组即全部进程，等同 FULL_SHARD',
  contextParallelOver: (gpus) => `跨 ${gpus} 张 GPU 的上下文并行`,
  fp8MsAmp: () => '通过 MS-AMP 的 fp8 训练',
  fp8NoBackend: () => '未设 fp8_config.backend（TE 或 AO）的 fp8 训练',
  referenceModels: (stage) => `${stage}：策略模型之外的参考模型（PPO 还有奖励模型和价值模型）`,
  unslothKernels: () => 'Unsloth 打过补丁的算子',
  unslothCheckpointing: () => 'Unsloth 的梯度检查点，会把检查点处的激活值卸载到主机内存',
  galore: () => 'GaLore 的低秩优化器状态',
  apollo: () => 'APOLLO 的优化器状态',
  badam: () => 'BAdam 的分块更新',
  upcastLayerNorm: () => '层归一化上转为 fp32',
  quantizedBase: (method) => `${method} 量化的基座模型`,
  bitsBase: (bits) => `${bits} 位量化的基座模型`,
  fineTuningKind: (type) => `${type} 微调`,
  neatPackingPacks: () => 'neat_packing 已经在打包',
  neatPackingOff: () => '已关闭：若开启 packing，打包后的行可能跨文档做注意力；字节数相同',
  activationOffloadingMode: (mode) => `激活值卸载模式 “${mode}”`,
  adapterKind: (adapter) => `${adapter} 适配器`,
  checkpointsToDisk: () => '检查点处的激活值卸载到磁盘',
  lossComponent: (component) => `损失函数 ${component}`,
  replicasInferred: (replicas) => `由总进程数推出的 ${replicas} 个分片组副本（请传入 --dp 和 --shard-group）`,
  adapterOnOutput: () => '输出头上的适配器',
  fp8Off: () => 'enable_fp8_training 未开启',
  fp8Recipe: (name) => `float8 方案 ${name}`,
  float8Linear: () => 'float8 训练（torchao Float8Linear）',
  allGpusShard: () => '-1 表示在启动器给出的全部 GPU 上分片：请传入 --dp',
  pipelineStages: (degree) => `${degree} 级流水线并行（引擎的 --pp，暂不从文件读取）`,
  contextParallelism: (degree) => `${degree} 路上下文并行`,
  expertParallelism: (degree) => `${degree} 路专家并行`,
  accumulationUnfixed: () => '梯度累积步数 = 全局批次 /（本地批次 × 数据并行度），此文件未定下',
  bf16ThroughFullyShard: () => '分片时经 fully_shard 用 bf16，否则用 torch.autocast',
  everyNthBlock: (n) => `只在每第 ${n} 个块做检查点`,
  selectiveDefault: () => 'selective 未给 selective_ac_option：取训练框架默认值',
  memoryBudget: () => '编译器按显存预算做的检查点',
  optimizerName: (name) => `优化器 ${name}`,
  allgatherBucket: (elements) => `${elements} 个元素的 all-gather 缓冲桶`,
  reduceBucket: (elements) => `${elements} 个元素的 reduce 缓冲桶`,
  prefetchBucket: (elements) => `ZeRO-3 提前预取 ${elements} 个参数`,
  persistenceThreshold: (elements) => `少于 ${elements} 个元素的参数保持聚合`,
  maxLiveParameters: (elements) => `同时最多保留 ${elements} 个已聚合的参数`,
  maxReuseDistance: (elements) => `${elements} 个参数以内会复用的已聚合参数被保留`,
  hpzShard: (size) => `ZeRO++ 二级权重分片：16 位权重再存一份，分片到 ${size} 张 GPU（每张 GPU 2·P/${size} 字节）`,
  deepSpeedOptimizer: (type) => `DeepSpeed 优化器 ${type}：此处引擎只计算 Adam、AdamW 和 Lion`,
  autoNotZero3: () => '保持 DeepSpeed 的设置（非 ZeRO-3）',
  autoHiddenUnknown: () => '按隐藏层大小确定的缓冲区，此处未知',
  autoNoHalf: () => 'auto：没有训练器文件给出 bf16 或 fp16',
  autoNoOption: (option) => `auto：没有训练器文件给出 ${option}`,
  deepSpeedWins: () =>
    'DeepSpeed JSON 优先：DeepSpeed 按它构建引擎（两者不一致时 transformers 会在启动时报错，见 trainer_config_finalize）',
  trainerWins: () => '训练器自己的参数优先于启动器的配置',
  laterFileWins: () => '后给的文件优先',
};

const count = new Intl.NumberFormat('zh-CN');

/** `a、b 或 c`: the values a key takes, as the Chinese errors list them. */
function orList(values: readonly string[]): string {
  return values.length < 2 ? values.join('') : `${values.slice(0, -1).join('、')} 或 ${values.at(-1) ?? ''}`;
}

/** Why a TOML line is not read (src/setup/toml-subset.ts), code for code. */
const TOML: TomlWords = {
  arraysOfTables: () => '不读取表数组（[[…]]）',
  headerNotClosed: ({ line }) => `表头必须以 ] 结尾：${line}`,
  notKeyValue: ({ line }) => `应为 key = value，实际为 ${line}`,
  givenTwice: ({ key }) => `${key} 重复给出`,
  notBareKey: ({ key }) => `应为裸键（bare key），实际为 ${key}`,
  valueNotTable: ({ key }) => `${key} 是一个值，不是表`,
  noValue: () => '键缺少值',
  multiLineString: () => '不读取多行字符串',
  textAfterString: ({ text }) => `字符串后有多余的文本：${text}`,
  inlineTable: () => '不读取内联表（{…}）',
  unknownValue: ({ text }) => `读取器不认识的值：${text}`,
  unknownEscape: ({ escape }) => `未知的转义 \\${escape}`,
  stringNotClosed: () => '字符串没有在本行内闭合',
  arrayNotClosed: () => '数组必须在本行内闭合',
  nestedArray: () => '不读取嵌套数组',
  noComma: ({ text }) => `数组元素之间应以 , 分隔，实际为 ${text}`,
};

/**
 * Why the reader refuses a file (src/setup/error-words.ts) in 简体中文, code for code. Keys, values and a parser's own
 * reason stay as the file and the parser give them.
 */
const ERRORS: SetupErrorWords = {
  tooLarge: ({ bytes }) => `${count.format(bytes)} 字节，超过 1 MiB 的上限；训练配置文件通常只有几 KB`,
  empty: () => '文件是空的',
  notToml: ({ line, problem }) => `无法按 TOML 读取（第 ${count.format(line)} 行：${wordCoded(problem, TOML)}）`,
  notJson: ({ reason }) => `不是有效的 JSON（${reason}）`,
  notYaml: ({ reason }) => `不是有效的 YAML（${reason}）`,
  yamlTag: ({ reason }) => `不读取 YAML 标签（${reason}）`,
  notKeysOrCommandLine: () => '应为键值对（JSON 或 YAML），或由 --flags 组成的一行命令',
  unknownTool: () =>
    '无法判断是哪个工具写的：应含有 TrainingArguments/SFTConfig、DeepSpeed、accelerate、LLaMA-Factory、axolotl、torchtune、torchtitan 或 Unsloth 的配置项',
  notNumber: ({ value }) => `应为数字，实际为 ${value}`,
  notBoolean: ({ value }) => `应为 true 或 false，实际为 ${value}`,
  notCount: ({ value }) => `应为正整数，实际为 ${value}`,
  notText: ({ value }) => `应为文本，实际为 ${value}`,
  notNames: ({ value }) => `应为名称列表，实际为 ${value}`,
  notAChoice: ({ allowed, value }) => `应为 ${orList(allowed)}，实际为 ${value}`,
  notOneOf: ({ allowed }) => `应为以下之一：${allowed.join('、')}`,
  dropoutRange: ({ value }) => `dropout 概率应在 [0, 1) 之间，实际为 ${value}`,
  shardDegree: ({ value }) => `应为 -1 或整数，实际为 ${value}`,
  shardDim: ({ value }) => `应为整数或 -1，实际为 ${value}`,
  selectiveAcOption: ({ value }) => `应为 op 或整数，实际为 ${value}`,
  globalBatch: ({ global, perStep }) =>
    `${count.format(global)} 不是 local_batch_size × 数据并行度（${count.format(perStep)}）的整数倍`,
  bothHalves: () => 'bf16 和 fp16 同时为 true；TrainingArguments 不接受这种组合',
  unknownModules: ({ modules }) => `未知的模块：${modules.join('、')}`,
  hybridNeedsProcesses: ({ key, machines }) => `${key} 跨 ${count.format(machines)} 台机器时需要给出进程数`,
  processesByMachines: ({ processes, machines }) =>
    `num_processes（${count.format(processes)}）必须能均分到 ${count.format(machines)} 台机器上，才能做混合分片`,
  replicateNeedsShard: () => 'dp_replicate_size > 1 时需要设置 dp_shard_size（HSDP）',
};

/** The training-config reader's words in 简体中文, key for key as `TRAINING_CONFIG_EN`. */
export const TRAINING_CONFIG_ZH_CN: typeof TRAINING_CONFIG_EN = {
  setup: SETUP,
  reasons: REASONS,
  errors: ERRORS,
  pasteLabel: '粘贴训练配置',
  pastePlaceholder:
    'LLaMA-Factory、axolotl、torchtune 或 accelerate 的 YAML，torchtitan 的 TOML，DeepSpeed 或 TrainingArguments 的 JSON，或一行训练命令',
  fileName: '文件名',
  add: '读取',
  drop: '或拖入、选择文件（文件只在本浏览器中读取）',
  clear: '全部清除',
  files: '已读取的文件',
  mergeOrder: '合并顺序',
  flagsWin: (order) => `${order}；命令行上另加的参数优先于所有文件。`,
  colon: '：',
  listSeparator: '、',
  stack: '训练框架',
  key: '配置项',
  value: '值',
  effect: '引擎选项',
  source: '规则出处',
  conflict: '冲突',
  missing: (file, key) => `${file} 的 ${key} 引用了另一个文件：请一并添加，否则其中的设置不会计入。`,
  unknown: '读取器不认识的配置项',
  ignored: '不影响显存的配置项',
  copyIntro: '估算显存：',
  copy: '复制',
  copied: '已复制',
  tableCaption: '每个配置项如何对应到显存引擎',
};
