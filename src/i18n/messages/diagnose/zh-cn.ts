import { lessonBySlug, type LessonSlug } from '../../../base/lessons';
import { TIMELINE_COMMAND, type ExplainWords } from '../../../diagnose/explain';
import { LESSON_LINKS } from '../../../diagnose/links';
import type { OomFigure, OomMessage } from '../../../diagnose/oom-message';
import type { UnreadWords } from '../../../diagnose/notes';
import { wordPickleFault, type PickleProblemWords, type PickleWords } from '../../../diagnose/pickle';
import type { SnapshotRefusalWords } from '../../../diagnose/snapshot';
import { formatBytes } from '../../../base/bytes';
import type { DiagnoseMessages } from './en';

/** Why a reader skipped a line, in Chinese, code for code; commands, flags, column and row names stay as the tools print them. */
const UNREAD_ZH_CN: UnreadWords = {
  moreNotRead: (p) => `另有 ${p.count} 行未读取`,
  textCut: ({ mebiChars }) => `只读取了前 ${mebiChars} Mi 个字符`,
  csvFieldCount: ({ fields, headerFields }) =>
    `这一行有 ${fields} 个字段，表头却有 ${headerFields} 个（小数用了逗号，还是这一行被截断了？）`,
  usedNotMib: ({ column, value }) => `${column} 的值 "${value}" 不是以 MiB 计的大小`,
  indexNotGpu: ({ value }) => `index 的值 "${value}" 不是 GPU 编号`,
  timestampUnread: ({ value }) => `timestamp 的值 "${value}" 不是 YYYY/MM/DD HH:MM:SS 格式`,
  noMemoryRow: ({ gpu, atEnd }) => `GPU ${gpu} 后面没有显存那一行${atEnd ? '（输出被截断了？）' : ''}`,
  dmonRowUnread: () => '不是带 GPU 编号和 fb 数值的 dmon 数据行',
  dmonUtilization: () =>
    '这是 nvidia-smi dmon 的输出：它的 mem 列是读写显存的时间占比，不是已用显存。记录显存请用 nvidia-smi --query-gpu=timestamp,index,memory.used,memory.total --format=csv -l 1（或 nvidia-smi dmon -s m，其 fb 列才是已用显存）',
  xmlOutput: () =>
    '这是 nvidia-smi -q -x 的 XML 输出：单次读数请用 nvidia-smi -q -d MEMORY，时间线请用 nvidia-smi --query-gpu=timestamp,index,memory.used,memory.total --format=csv -l 1',
  noNvidiaSmi: () =>
    '既没有含 memory.used 的 CSV 表头，也没有 nvidia-smi 表格：请加上 --format=csv 运行 nvidia-smi（保留表头行）',
  gpusNotToldApart: () =>
    '没有 index、uuid 或 pci.bus_id 列：如果这份日志包含多块 GPU，它们的行无法区分，只能当作一块来读；请在 --query-gpu 中加上 index',
  noOomMessage: () => '没有找到 "CUDA out of memory. Tried to allocate …" 这样的报错信息',
  figureUnread: ({ name, text }) => `读不出 "${name}" 的数值（"${text}"）`,
  figureMissing: ({ name }) => `报错信息里没有 "${name}" 这一项数值`,
  noSummaryHeader: () => '没有 "PyTorch CUDA memory summary" 表头：设备、CUDA OOM 次数和 cudaMalloc 重试次数均未知',
  unknownRow: ({ title }) => `不认识的行 "${title}"`,
  rowValueUnread: ({ title, sizes }) => `"${title}" 行有一个值不是${sizes ? '大小' : '计数'}`,
  tableCut: () => '表格在这里被截断：后面各行的值未知，不是 0',
  noRow: ({ title }) => `没有可读的 "${title}" 行`,
  moreSummaries: (p) => `粘贴的内容里还有 ${p.count} 份摘要未读取：请一次只粘贴一个设备的摘要`,
  notASnapshot: () => '这个 pickle 不是显存快照：没有 segments 或 device_traces 列表',
  segmentsSkipped: (p) => `跳过了 ${p.count} 个读不出 total_size 的段`,
  traceEntriesSkipped: (p) => `设备 ${p.device}：跳过了 ${p.count} 条没有 action 的记录`,
};

/** Byte counts and offsets inside a sentence, grouped as Chinese text groups them. */
const count = new Intl.NumberFormat('zh-CN');

/** Why the data-only unpickler stopped, in Chinese, code for code; opcode names, bytes and Python type names stay as pickletools and Python print them. */
const PICKLE_PROBLEMS_ZH_CN: PickleProblemWords = {
  emptyFile: () => '文件是空的',
  notProtocol2: () => '不是协议 2 或更高版本的 pickle（文件开头不是 PROTO 操作码 0x80）',
  noStop: () => 'pickle 没有以 STOP 操作码结束（文件被截断了？）',
  unsupportedProtocol: ({ protocol }) => `不支持 pickle 协议 ${protocol}（本读取器只支持协议 2 到 5）`,
  outOfBandBuffer: ({ opcode }) => `不支持带外缓冲区（${opcode}）：显存快照里不会有这种数据`,
  refusedOpcode: ({ opcode, byte, offset }) =>
    `操作码 ${opcode}（${byte}，位于第 ${count.format(offset)} 字节）会导入或运行代码，而显存快照从来不需要这样做`,
  unknownOpcode: ({ byte, offset }) =>
    `未知或不支持的操作码 ${byte}（位于第 ${count.format(offset)} 字节）：本读取器只读取纯数据（协议 2 到 5）`,
  truncated: ({ needed, left }) =>
    `还需要 ${count.format(needed)} 个字节，但文件只剩下 ${count.format(left)} 个字节（文件被截断了？）`,
  negativeLength: ({ length }) => `长度为负数（${length}）`,
  invalidUtf8: () => '字符串不是有效的 UTF-8',
  noNewline: () => '它的文本参数在 64 字节之内没有换行符',
  notAnInteger: ({ text }) => `"${text}" 不是整数`,
  notAFloat: ({ text }) => `"${text}" 不是浮点数`,
  notAMemoIndex: ({ text }) => `"${text}" 不是 memo 索引`,
  emptyStack: () => '栈是空的',
  markForValue: () => '应当是一个值的位置上是 MARK',
  noTopValue: () => '栈顶没有值',
  noMark: () => '栈上没有 MARK',
  notAList: () => '目标不是 list 或 set',
  notADict: () => '目标不是 dict',
  oddPairs: () => '键值对的元素个数是奇数',
  memoMissing: ({ index }) => `memo 槽位 ${index} 从未存入过值`,
  engineStopped: ({ reason }) => `无法读取这个 pickle：${reason}`,
};

/** The unpickler's faults in Chinese: the opcode that met a problem goes first, as in the English. */
const PICKLE_WORDS_ZH_CN: PickleWords = {
  problems: PICKLE_PROBLEMS_ZH_CN,
  at: ({ opcode, offset }, problem) => `${opcode}（位于第 ${count.format(offset)} 字节）：${problem}`,
};

/** Why the snapshot viewer did not read a file, in Chinese, code for code. */
const SNAPSHOT_REFUSALS_ZH_CN: SnapshotRefusalWords = {
  tooLarge: ({ sizeBytes, limitBytes }) =>
    `文件大小为 ${formatBytes(sizeBytes, 'MiB', 0)}；本查看器只读取不超过 ${formatBytes(limitBytes, 'MiB', 0)} 的快照（请用 _record_memory_history(max_entries=…) 少记录一些条目）`,
  pickleUnread: ({ fault }) => wordPickleFault(fault, PICKLE_WORDS_ZH_CN),
  noSnapshotKeys: () => '这个 pickle 里没有 segments 或 device_traces：它不是 torch.cuda.memory._dump_snapshot() 写出的文件',
};

/** "第 2 课：找出泄漏": how a tool names a lesson, or a section of it, that it links to. */
const lessonLabel = (slug: LessonSlug, title: string): string => `第 ${lessonBySlug(slug).number} 课：${title}`;

/**
 * How each derived figure was computed, by figure: the parser records its rule in English (the CLI prints it), so the
 * Chinese is chosen from the figure, and for `reservedBytes` from the wording that decides which rule applied.
 */
function derivedRule(figure: OomFigure, oom: OomMessage): string {
  switch (figure) {
    case 'reservedBytes':
      return oom.wording === 'cached'
        ? '已分配 + cached（PyTorch 1.4 之前，“cached”指已预留但未分配的部分）'
        : 'PyTorch 已分配 + PyTorch 已预留但未分配';
    case 'reservedUnallocatedBytes':
      return 'PyTorch 预留总量 − 已分配';
    case 'processInUseBytes':
      return `把进程 ${oom.jobPid ?? '?'} 视为本任务：它是所列进程中显存能覆盖 PyTorch 预留总量的最小者（容器里 PyTorch 对不上自己的进程号）`;
    case 'nonPyTorchBytes':
      return '本进程占用 − PyTorch 预留';
    case 'fragmentationShare':
      return '已预留但未分配 ÷ 已预留';
    default:
      return '由报错中的其他数字推算';
  }
}

/** The sentences the analysis produces, in Chinese: the same shape as the pure layer's `EXPLAIN_EN`. */
const EXPLAIN_ZH_CN: ExplainWords = {
  verdicts: {
    flat: {
      title: '平稳',
      meaning: '预热之后显存趋于稳定，不再变化。如果这次运行崩了，OOM 来自某一步比平时需要更多显存：去看 OOM 报错或显存快照。',
    },
    leak: {
      title: '逐步攀升：泄漏',
      meaning:
        '运行的每一段都比上一段结束得更高。有东西让张量跨步存活：连着计算图保存的 loss、不断追加进列表的输出、越来越大的缓存。',
    },
    spike: {
      title: '突然的尖峰',
      meaning:
        '显存在短时间内跳到远高于平时的水平：一个特别大的批次、一条很长的序列、没有包在 torch.no_grad() 里的评估，或者第一次优化器更新时创建优化器状态。',
    },
    'no-timeline': {
      title: '只有一次读数，没有时间线',
      meaning: `粘贴一次的表格（或寥寥几次读数）只能说明那一刻用了多少，看不出显存是在攀升、出现尖峰还是趋于平稳。要得到时间线，请在任务运行时记录日志，再把日志放到这里读：${TIMELINE_COMMAND}`,
    },
    'near-limit': {
      title: '贴着上限运行',
      meaning: '平时的用量离显卡容量不到 10%。稍长一点的序列或一点显存碎片就会让它越界；用第 2 到第 4 课的技术腾出一些余量。',
    },
  },
  evidence: {
    capacityOf: (capacity, share) => `（共 ${capacity}，占 ${share}）`,
    usedOnce: (used, of) => `打印时用了 ${used}${of}。`,
    readings: (peak, of, median) => `几次读数中最高 ${peak}${of}；中位数 ${median}。`,
    atSeconds: (seconds) => `出现在日志第 ${seconds} 秒`,
    atSample: (sample) => `出现在第 ${sample} 个采样`,
    peak: (peak, when, median, capacity) =>
      `峰值 ${peak}，${when}；平时水平（中位数）${median}` +
      (capacity === null ? '（日志里没有 memory.total，用峰值代替容量）。' : `，占容量 ${capacity.bytes} 的 ${capacity.share}。`),
    windows: (first, last, rising) => `预热之后，把运行分成八段，每段的中位数从 ${first} 变到 ${last}，其中上升了 ${rising} 次。`,
    nearPeak: (share, samples) => `在 ${samples} 个有效采样中，有 ${share} 处于峰值附近（相差不到容量的 5%）。`,
  },
  processes: {
    heading: '谁占着显存（Processes 表）：',
    gpu: (index, count, listed, used) => `GPU ${index}：${count} 个进程，列出 ${listed}${used === null ? '' : `，已用 ${used}`}`,
    notReported: '未报告',
    wddm: '“未报告”：Windows（WDDM）不提供每个进程的显存；上面 GPU 的总用量仍然把它算在内。',
    shared: (pids) =>
      `进程 ${pids} 在多张 GPU 上都占了显存：要么任务碰了自己以外的 GPU（每张卡一个 CUDA 上下文），要么它本来就设计成跨卡运行。`,
  },
  mig: {
    heading: 'MIG 实例（各有独立显存；任务只看得到自己的实例）：',
    usedOf: (used, total) => `${used} / ${total}`,
  },
  wordings: {
    current: '当前措辞（PyTorch 2.2 及以后）',
    'pytorch-2.1': 'PyTorch 2.1 的措辞（原文拼错为“total capacty”）',
    'reserved-in-total': '较早的措辞（PyTorch 1.4 到 2.0：“reserved in total by PyTorch”）',
    cached: '1.4 之前的措辞：其中“cached”是已预留但未分配，所以 预留 = 已分配 + cached',
    mps: 'Apple MPS 后端的措辞',
  },
  platforms: {
    hip: 'ROCm（AMD）版本：分配器读取 PYTORCH_HIP_ALLOC_CONF（CUDA 版本读取 PYTORCH_CUDA_ALLOC_CONF），用 rocm-smi 代替 nvidia-smi。',
    mps: 'Apple MPS 后端：显存与 macOS 和其他应用共享，上限是高水位线（high watermark）。只适用于 CUDA 的办法在这里无效：PYTORCH_CUDA_ALLOC_CONF（expandable_segments、max_split_size_mb）、set_per_process_memory_fraction、nvidia-smi，以及跨 GPU 切分。',
  },
  cases: {
    'request-too-large': '单次申请比整张 GPU 还大：任何分配器设置都无法让它放下；必须缩小或拆分这个张量本身。',
    cap: '被上限拦住了：进程撞上了一个低于设备实际容量的限制。',
    'free-but-refused':
      '报告的空闲显存足够，分配却失败了：空闲显存被切成了碎块（桌面、其他进程或驱动占用所致），或者分配器申请的段比请求本身更大。',
    'another-process': '另一个进程占了这张 GPU 的大部分：本任务需要的空间被外部占用了。',
    fragmentation: '显存碎片：PyTorch 缓存里空闲的显存总量够这次申请，但没有一块连续的足够大。',
    shortage: '真正的显存不足：存活的张量占满了 GPU；必须有东西少占一些。',
  },
  findings: {
    truncated: () => '报错在最后一个数字之前被截断：截断之后的数字是未知，而不是 0。请粘贴完整的一行。',
    'allocated-above-total': ({ bytes: a, againstBytes: b }) =>
      `已分配（${a}）超过了总容量（${b}）。在 Windows 上，WDDM 驱动允许 CUDA 溢出到共享的系统内存，所以总容量只算显卡自己的显存；超出部分以 PCIe 的速度运行。`,
    'request-above-total': ({ bytes: a, againstBytes: b }) => `这次申请（${a}）比 GPU 的总容量（${b}）还大。`,
    'free-covers-request': ({ bytes: a, againstBytes: b }) =>
      `驱动报告有 ${a} 空闲，不少于申请的 ${b}，分配却仍然失败：空闲显存不是一整块那么大、分配器把申请向上取整成了一个新段、有上限在起作用，或者其间被另一个进程占走了。因此，下面没有哪条办法会仅凭空闲显存就被判定为足够。`,
    'reserved-below-allocated': ({ bytes: a, againstBytes: b }) =>
      `已预留（${b}）小于已分配（${a}），这不可能：预留包含已分配。这些数字是在不同时刻打印的，或者被改过；“已预留但未分配”这一项不予采用。`,
    'reserved-above-process': ({ bytes: a, againstBytes: b }) =>
      `PyTorch 的预留总量（${a}）超过了本进程的显存占用（${b}），在同一张 GPU 上这不可能；占用这个数字可能属于另一个设备或另一个时刻。`,
    'job-process-inferred': ({ bytes: a, againstBytes: b, jobPid }) =>
      `报错里没有可用的“this process”数字，所以把进程 ${jobPid}（${a}）视为本任务：它是所列进程中显存能覆盖 PyTorch 预留总量（${b}）的最小者。在容器里，PyTorch 对不上自己的进程号。`,
    'figures-above-total': ({ bytes: a, againstBytes: b }) =>
      `空闲显存加上所有进程的显存共 ${a}，超过了总容量（${b}）：这些数字是在不同时刻读取的。`,
    'summary-other-device': ({ gpu }) =>
      `一起粘贴的 memory_summary 属于另一个设备，而不是申请失败的 GPU ${gpu}：它的数字说明不了这张 GPU（多卡运行时，请打印出错那个 rank 的 summary）。`,
    'summary-allocated-differs': ({ bytes: a, againstBytes: b }) =>
      `memory_summary 显示已分配 ${a}，报错里是 ${b}：两者打印于不同时刻（summary 打印时已有张量被释放或新建），请各按各的时刻来读。`,
    'request-above-cap': ({ bytes: a, againstBytes: b }) =>
      `已分配、其他分配与这次申请合计（${a}），在打印精度内达到了允许的最大值（${b}）：拦住它的是 MPS 高水位线，而不是硬件。`,
  },
  phases: {
    loading: '加载模型时：在任何批次运行之前，光是按加载精度存放的权重就放不下。',
    forward:
      '前向传播中：正在构建激活值。如果是第一步，说明扣掉权重之后剩下的显存放不下这个批次；如果已经跑了很多步，则是有东西从之前的步骤留了下来（泄漏），或者遇到了一条特别长的输入。',
    backward:
      '反向传播中：梯度正在生成，而为反向保存的激活值还活着，这通常是训练的峰值。如果是第一步，批次或序列太大；如果已跑了几千步，则是输入变长了，或者显存在增长（泄漏）。',
    'optimizer-step':
      '优化器更新中。第一步时优化器会创建它的状态（AdamW：每个参数两个 fp32 张量，即每参数 8 字节），所以在这里崩溃说明模型状态放不下；跑了很多步之后才崩，说明中间有别的东西在增长。',
    generate: '生成过程中：KV 缓存随 批次 ×（提示 + 新 token）× beam 数 增长，叠加在权重之上；不涉及梯度。',
    evaluation:
      '评估过程中：没有 torch.no_grad() 时，每次前向都会为一个永远不会到来的反向保留激活值，而且评估的批次或输入往往比训练时更大。',
  },
  traceback: {
    op: (op) => `申请这块显存的是 ${op}。`,
    own: (frame) => `途经你自己代码的最后一行：${frame}。`,
    noPhase: (frames) => `这段 traceback（${frames} 帧）看不出处于哪个阶段：前向、反向、优化器更新、生成、评估或加载。`,
    ranOut: (phase) => `显存耗尽于${phase}`,
  },
  remedyFrees: (bytes, sufficient) => `最多可释放 ${bytes}。${sufficient ? '仅凭这一条就能为失败的申请腾出空间。' : ''}`,
  remedies: {
    'expandable-segments': (f) => ({
      title: `设置 ${f.allocConf}=expandable_segments:True`,
      reason: `PyTorch 已预留但未分配的显存被缓存成了一些太小或太分散的块，满足不了这次申请。可扩展段（expandable segments）让分配器扩大同一个段，而不是留下空隙（没有这个选项的 PyTorch 版本：max_split_size_mb）。${f.frees}`,
    }),
    'other-ranks-contexts': (f) => ({
      title: '让每个 rank 在碰 CUDA 之前就绑定自己的 GPU',
      reason: `另有 ${f.strays.length} 个进程在这张 GPU 上各占了一小块（${f.strays.map((p) => `${p.pid}：${p.size}`).join('，')}）：正好是一个 CUDA 上下文的大小。这就是典型的“每个 rank 都在 GPU 0 上开了上下文”：在任何 CUDA 调用之前调用 torch.cuda.set_device(local_rank)（或为每个 rank 设置 CUDA_VISIBLE_DEVICES），包括 torch.load(map_location=…) 和 NCCL 初始化。${f.frees}`,
    }),
    'other-process': (f) => ({
      title: '停掉这张 GPU 上的其他进程',
      reason: `本任务之外还有显存占用：另一个训练任务、一个 notebook 内核、一个推理服务。用 ${f.smi} 查看。${f.frees}`,
    }),
    'memory-fraction-cap': (f) => ({
      title: '调高或去掉 set_per_process_memory_fraction',
      reason: `这个进程被限制在显卡容量以下；GPU 的其余部分它用不到。${f.frees}`,
    }),
    'mps-watermark': () => ({
      title: '调高 PYTORCH_MPS_HIGH_WATERMARK_RATIO，或释放 Mac 上的内存',
      reason:
        'MPS 分配器不会突破它的高水位线（推荐工作集的一个比例）。调高比例就能抬高上限；设为 0.0 则取消上限，但 macOS 可能因此换页或卡顿。关掉其他应用可以释放它共享的统一内存。',
    }),
    'private-pools': (f) => ({
      title: '检查 CUDA Graphs 和其他私有显存池',
      reason: `有显存被私有池占着（CUDA Graphs、torch.compile 的 cudagraph trees），只有它们各自的图才能复用。${f.frees}`,
    }),
    'non-pytorch-memory': (f) => ({
      title: '算上不由 PyTorch 分配的显存',
      reason:
        f.platform === 'mps'
          ? `有 ${f.nonPyTorch} 是在 MPS 分配器之外分配的（“other allocations”：本进程的 Metal 缓冲区，不在 PyTorch 的缓存里）。其中能释放多少未知。`
          : `本进程有 ${f.nonPyTorch} 不属于 PyTorch 的缓存：CUDA 上下文、cuBLAS 和 cuDNN 的工作区、NCCL 缓冲区，或其他直接分配显存的库。CUDA 上下文无法释放，所以其中能省下多少未知。`,
    }),
    'one-large-allocation': (f) => ({
      title: '找出那一个大张量',
      reason: `失败的这一次申请就有 ${f.tried}，占了 GPU 的一大块：通常是大词表上的 logits、长序列的注意力分数，或者远大于平时的批次。显存快照能告诉你是哪一行申请的。`,
    }),
    'reduce-activations': (f) => ({
      title: '减少激活值：更小的微批次、梯度检查点、混合精度',
      reason: `PyTorch 持有 ${f.allocated} 的存活张量。训练时其中大部分通常是激活值，梯度累积、梯度检查点和 16 位 autocast 都能减少它；能省多少取决于模型，所以这里不计算。`,
    }),
    'shard-model-states': (f) =>
      f.condition === 'several-gpus'
        ? {
            title: '如果有多张 GPU：切分模型状态（否则就卸载）',
            reason:
              '存活张量占了 GPU 的一半以上。如果其中大部分是权重、梯度和优化器状态，ZeRO/FSDP 会把它们分摊到多张 GPU 上，但只有多卡时才有用；单卡时可选的是 CPU 卸载或 8-bit 优化器。填上你有几张 GPU，这条建议就不再是有条件的。',
          }
        : {
            title: `把模型状态切分到你的 ${f.gpus ?? '多'} 张 GPU 上（ZeRO/FSDP）`,
            reason: `存活张量占了 GPU 的一半以上。如果其中大部分是权重、梯度和优化器状态，ZeRO-2/3 或 FSDP 让每张 GPU 只保留其中的${f.gpus === null ? '一部分' : ` 1/${f.gpus}`}。`,
          },
    'offload-model-states': () => ({
      title: '卸载模型状态，或使用 8-bit 优化器（单卡）',
      reason:
        '存活张量占了 GPU 的一半以上，而只有一张 GPU，无从切分：把优化器状态（以及参数）卸载到 CPU、使用 8-bit 优化器，或在冻结的模型上做 LoRA，都能缩小模型状态。',
    }),
    'optimizer-step-peak': (f) => ({
      title: '压低优化器更新的峰值：8-bit 优化器、foreach=False，或把状态移出 GPU',
      reason: `${f.gpus !== null && f.gpus >= 2 ? `在你的 ${f.gpus} 张 GPU 上用 ZeRO-1/2 可以切分优化器状态；` : ''}多张量（foreach）和 fused 实现为了速度会构建和一份状态一样大的临时列表，foreach=False 可以避免；8-bit 优化器每份状态只占四分之一的字节；CPU 卸载把状态移出 GPU。如果是第一步就崩了，问题就在这里；如果是跑了很多步之后，去找是什么在增长。`,
    }),
    'inference-memory': (f) =>
      f.phase === 'generate'
        ? {
            title: '缩小 KV 缓存：减少同时生成的新 token、beam 或序列数',
            reason:
              '调低 max_new_tokens、num_beams、num_return_sequences 或批次；量化或卸载 KV 缓存，或使用 4/8 位权重，都能给它留出更多空间。',
          }
        : {
            title: '在 torch.no_grad() 下用更小的批次做评估',
            reason:
              '把评估包在 torch.no_grad()（或 torch.inference_mode()）里并调用 model.eval()，这样不会为反向保留激活值；用更小的评估批次，并在评估前释放训练步骤留下的东西（del loss, outputs）。',
          },
    'load-smaller-weights': () => ({
      title: '以更小的精度加载权重，或把权重分散开',
      reason:
        "以 bf16/fp16 加载（torch_dtype），以 8 位或 4 位加载（bitsandbytes、GPTQ/AWQ 检查点），或用 device_map='auto' 把部分层放到其他 GPU 或 CPU 上。",
    }),
  },
  figureSource: {
    read: '读取',
    derived: (_rule, figure, oom) => `推算：${derivedRule(figure, oom)}`,
  },
  summary: {
    allocated: {
      label: '已分配：当前 / 峰值',
      meaning:
        '存活的张量（torch.cuda.memory_allocated 和 max_memory_allocated）。峰值是必须放得下的量；当前值是两步之间留下的量。',
    },
    reserved: {
      label: '已预留：当前 / 峰值',
      meaning: '缓存分配器从驱动那里拿到的显存（memory_reserved）。nvidia-smi 显示的是它再加上 CUDA 上下文。',
    },
    idle: {
      label: '已预留但未分配',
      value: (idle, share) => `${idle}（占预留的 ${share}）`,
      large: '空闲缓存很大：刚过峰值时这很正常，但如果缓存这么多时还发生 OOM，很可能是显存碎片；试试 expandable_segments:True。',
      small: '缓存大部分都在使用中。',
    },
    nonReleasable: {
      label: '不可释放：当前 / 峰值',
      meaning: '被拆分的块中空闲的碎片，只要同一块的其余部分还在用，就无法归还：这是显存碎片最直接的度量。',
    },
    allocations: {
      label: '分配次数：当前 / 峰值 / 累计',
      meaning: '存活的和创建过的张量个数。如果在相同的步骤之间当前数量不断增长，就是泄漏。',
    },
    ooms: {
      label: 'CUDA OOM 次数',
      some: '这个进程已经发生过显存不足；上面的峰值包含了 OOM 前一刻。',
      none: '这个进程到目前为止没有发生过显存不足。',
    },
    retries: {
      label: 'cudaMalloc 重试次数',
      some: '分配器不得不清空整个缓存再重试 cudaMalloc：这是显存压力，即使没有发生 OOM，也会拖慢每一步（每次都要同步）。',
      none: '缓存从未被清空过。',
    },
  },
  snapshotOom: ({ device, requested, free, active, reserved }) =>
    `设备 ${device}：申请 ${requested} 失败${free === null ? '' : `，当时设备上空闲 ${free}`}。` +
    (reserved === null
      ? `那一刻 trace 中存活张量共 ${active}。`
      : `当时 PyTorch 的存活张量共 ${active}，trace 所见的预留为 ${reserved}。`),
  linkTitles: {
    [LESSON_LINKS.whereTheMemoryGoes]: lessonLabel('where-the-memory-goes', '显存都去哪儿了'),
    [LESSON_LINKS.diagnose]: lessonLabel('diagnose-your-run', '诊断你的训练'),
    [LESSON_LINKS.threeNumbers]: lessonLabel('where-the-memory-goes', '三个对不上的数字'),
    [LESSON_LINKS.fragmentation]: lessonLabel('diagnose-your-run', '显存碎片与 expandable_segments'),
    [LESSON_LINKS.findTheLeak]: lessonLabel('diagnose-your-run', '找出泄漏'),
    [LESSON_LINKS.snapshot]: lessonLabel('diagnose-your-run', '保存显存快照'),
    [LESSON_LINKS.watchTerminal]: lessonLabel('diagnose-your-run', '从终端观察'),
    [LESSON_LINKS.mixedPrecision]: lessonLabel('mixed-precision', '混合精度'),
    [LESSON_LINKS.gradientAccumulation]: lessonLabel('gradient-accumulation', '梯度累积'),
    [LESSON_LINKS.checkpointing]: lessonLabel('gradient-checkpointing', '梯度检查点'),
    [LESSON_LINKS.parallelism]: lessonLabel('parallelism', '并行'),
    [LESSON_LINKS.offload]: lessonLabel('offload', '卸载'),
    [LESSON_LINKS.inference]: lessonLabel('inference-memory', '推理显存'),
    [LESSON_LINKS.compression]: lessonLabel('distillation-and-compression', '蒸馏与压缩'),
    [LESSON_LINKS.puttingTogether]: lessonLabel('putting-it-together', '综合运用'),
    [LESSON_LINKS.toolTriage]: '分诊：显存在哪一刻耗尽？',
    [LESSON_LINKS.toolNvidiaSmi]: '工具：nvidia-smi 日志',
    [LESSON_LINKS.toolOom]: '工具：OOM 报错解读',
    [LESSON_LINKS.toolSummary]: '工具：memory_summary 读取器',
    [LESSON_LINKS.toolSnapshot]: '工具：显存快照查看器',
  },
};

/** The diagnose tools' words in 简体中文: the same keys as `DIAGNOSE_EN` (a key missing or added fails the typecheck). */
export const DIAGNOSE_ZH_CN: DiagnoseMessages = {
  explain: EXPLAIN_ZH_CN,
  knownErrors: {
    'cuda-driver':
      'CUDA 驱动的“out of memory”错误（由某个 kernel 或库抛出，而不是 PyTorch 的分配器，所以不带任何数字；用 CUDA_LAUNCH_BLOCKING=1 重新运行，看是哪个调用）',
    cublas: 'cuBLAS 错误',
    cudnn: 'cuDNN 错误',
    nccl: 'NCCL 错误',
    tensorflow: 'TensorFlow 的显存不足错误',
    'device-assert': 'CUDA 设备端断言（device-side assert，通常是索引越界）',
    'hip-driver': 'HIP 驱动的“out of memory”错误（在 PyTorch 的分配器之外抛出，所以不带任何数字）',
  },
  input: {
    privacy: '在你的浏览器里读取：粘贴或拖入的内容不会离开这个页面。',
    chooseFile: '选择或拖入文件',
    pasteLabel: '或者粘贴到这里',
    analyse: '读取',
    examples: '试试示例：',
    progress: (read, total) => `读取中… ${read} / ${total}`,
    failed: (browserReason) => (browserReason === null ? '分析中止。' : `分析中止：${browserReason}`),
    dropHere: '把文件放到这里',
    terminal: '在终端里，于文件所在目录运行：',
    copyCommand: '复制命令',
    copiedCommand: '已复制',
    unreadLine: (line) => `第 ${line} 行：`,
    unreadReasons: UNREAD_ZH_CN,
    labelEnd: '：',
    listSeparator: '，',
    titleEnd: '。',
    counted: (title, count) => `${title}（${count}）`,
  },
  nvidiaSmi: {
    title: 'nvidia-smi 日志',
    placeholder:
      'timestamp, index, name, memory.used [MiB], memory.total [MiB], utilization.gpu [%]\n2025/03/14 10:00:00.000, 0, NVIDIA A100-SXM4-80GB, 31500 MiB, 81920 MiB, 97 %',
    examples: {
      leak: '两张 GPU，有泄漏（CSV）',
      spike: '一次尖峰（CSV，nounits）',
      nearLimit: '贴着上限（nvidia-smi -l 1 表格）',
    },
    noSamples: '在输入中没有找到 GPU 显存采样。',
    chartLabel: (gpus) => `${gpus} 张 GPU 的显存用量随时间的变化，虚线为每张 GPU 的容量`,
    xTime: '距第一次采样的秒数',
    xSample: '采样序号',
    yUsed: '显存用量（GiB）',
    gpu: (index, name) => `GPU ${index}${name ? ` · ${name}` : ''}`,
    samples: (n) => `${n} 个采样`,
    next: '接着读',
    unread: '未读取',
  },
  oom: {
    title: 'OOM 报错',
    placeholder: 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of …',
    examples: {
      current: 'PyTorch 2.x，缓存碎片化',
      otherProcess: 'GPU 上还有另一个进程',
      legacy: 'PyTorch 1.x 的措辞',
    },
    notFound: '在输入中没有找到 PyTorch 分配器给出的 CUDA、HIP 或 MPS“out of memory”报错。',
    knownError: (name) => `这是${name}，不是 PyTorch 分配器给出的显存不足报错。`,
    platform: { cuda: 'CUDA', hip: 'HIP（ROCm）', mps: 'MPS（Apple）' },
    figure: '数字',
    value: '数值',
    source: '读取或推算',
    rows: {
      tried: '尝试分配',
      total: '总容量',
      free: 'GPU 空闲',
      process: '本进程占用（含非 PyTorch 部分）',
      allocated: 'PyTorch 已分配（存活张量）',
      reserved: 'PyTorch 已预留',
      reservedUnallocated: 'PyTorch 已预留但未分配',
      privatePools: '私有显存池中（CUDA Graphs）',
      allowed: '允许上限（set_per_process_memory_fraction，或 MPS 上限）',
      nonPyTorch: '本进程中不属于 PyTorch 的部分',
      otherProcess: (pid) => `进程 ${pid}`,
      fragmentation: '碎片占比（已预留但未分配 ÷ 已预留）',
    },
    read: '读取',
    findings: '对不上的地方',
    verdict: '结论',
    rounding: 'PyTorch 打印两位小数，所以每个数字精确到其单位的约 0.01。',
    remedies: '可以尝试的办法（最有希望的在前）',
    unread: '未读取',
    summary: (deviceId) => `同一段粘贴中的 memory_summary${deviceId === null ? '' : `（设备 ${deviceId}）`}`,
    summaryUnreadable: '其中没有可读的内容；上面的报错单独解读。',
    summaryUnread: 'memory_summary 中未读取的部分',
    gpus: '本任务的 GPU 数（可选）',
    gpusHint: '切分类建议（ZeRO、FSDP）只在多卡时有用；填上卡数，这些建议就不再是有条件的。',
    traceback: '在哪里耗尽',
  },
  summary: {
    title: 'memory_summary',
    placeholder:
      '|===========================================================================|\n|                  PyTorch CUDA memory summary, device ID 0                 |',
    examples: { finetune: '一次 OOM 之后的微调' },
    notFound: '在输入中没有找到可读的“Allocated memory”或“GPU reserved memory”行。',
    chartLabel: '已分配与已预留显存，当前值与峰值',
    xGiB: 'GiB',
    current: '当前',
    peak: '峰值',
    allocated: '已分配',
    reserved: '已预留',
    figure: '数字',
    value: '数值',
    meaning: '对你意味着什么',
    rounding: 'memory_summary 把每个大小向下取整到它的单位（B、KiB、MiB、GiB）。',
    unread: '未读取',
  },
  snapshot: {
    title: '显存快照',
    example: '一张 24 GiB 显卡在 logits 处耗尽',
    refused: (refusal) => `拒绝读取：${refusal}`,
    failed: (refusal) => `无法读取这个文件：${refusal}`,
    refusals: SNAPSHOT_REFUSALS_ZH_CN,
    peak: (bytes) => `活跃显存峰值 ${bytes}`,
    timelineLabel: '记录期间的活跃显存与已预留显存，标出了显存不足事件',
    oomMark: 'OOM',
    xEvent: 'trace 事件序号',
    xMs: '距第一个事件的毫秒数',
    yGiB: '显存（GiB）',
    active: '活跃（存活张量）',
    reserved: '已预留（段）',
    largest: '峰值时最大的存活分配',
    size: '大小',
    where: '分配位置',
    noFrames: '没有记录调用栈（用 _record_memory_history(stacks="python") 记录）',
    segments: '段与分配',
    segmentsNote: (shown, total, idle) => `快照时 ${total} 个段中最大的 ${shown} 个；已预留显存中有 ${idle} 未被使用。`,
    segmentsLabel: '每个段的大小，分为活跃字节与空闲字节',
    segmentAxis: '段（从大到小）',
    inUse: '活跃',
    free: '空闲',
    ooms: '显存不足事件',
    noOoms: '这段 trace 中没有记录到 OOM。',
    device: (d, events) => `设备 ${d} · ${events} 个 trace 事件`,
    unread: '未读取',
  },
};
