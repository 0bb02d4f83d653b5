import type { DistillationJob } from '../../../lab/measure/distillation';
import type { RunStage } from '../../../lab/measure/run-stage';
import type { LabMessages } from './en';

/** 蒸馏实验的进度行里各模型的名字。 */
const PROGRESS_MODELS_ZH_CN: Record<DistillationJob, string> = {
  'teacher-fp32': '教师模型（fp32）',
  'teacher-int8': '教师模型（int8）',
  student: '学生模型',
};

/** 测量 worker 正在做什么，写在进度行里侧名和冒号之后。 */
function describeRunStageZhCn(stage: RunStage): string {
  switch (stage.kind) {
    case 'starting-runtime':
      return '正在启动 onnxruntime-web';
    case 'loading-model':
      return `正在加载 ${stage.model}`;
    case 'loading-layers':
      return `正在加载第 ${stage.first}–${stage.last} 层`;
    case 'compiling-shaders':
      return `正在编译着色器（以批大小 ${stage.batch} 先跑一步）`;
    case 'warm-up':
      return `正在编译着色器（${describeRunStageZhCn(stage.stage)}）`;
    case 'step':
      return `第 ${stage.step} 步，共 ${stage.steps} 步`;
    case 'timing':
      return `计时：第 ${stage.step} 步，共 ${stage.steps} 步`;
    case 'forward-loading':
      return `${PROGRESS_MODELS_ZH_CN[stage.job]}：正在加载`;
    case 'forward-pass':
      return `${PROGRESS_MODELS_ZH_CN[stage.job]}：前向传播${stage.compiling ? '（编译着色器）' : ''}`;
    case 'test-accuracy':
      return `${PROGRESS_MODELS_ZH_CN[stage.job]}：计算测试集准确率`;
    case 'training':
      return `训练学生模型（${stage.targets === 'soft' ? '用软目标' : '只用硬标签'}）：第 ${stage.step} 步，共 ${stage.steps} 步`;
  }
}

/** zh-CN 的实验名称：每侧的名字、梯度检查的结论、为什么某个后端看不到或跑不了它。 */
const SINGLE_EXPERIMENTS_ZH_CN: LabMessages['single']['experiments'] = {
  'mixed-precision': {
    before: 'fp32',
    after: '16 位（AMP 风格）',
    passLabel: '梯度只相差 16 位舍入误差',
    failLabel: '梯度偏差超过 5%',
    wasmUnmeasurable:
      '在 WebAssembly 上，onnxruntime-web 用 fp32 的 CPU 内核运行 16 位模型（会把 16 位张量转换回 fp32），所以两个变体占用的字节相同、算出的数也相同。只有支持 16 位着色器（WebGPU shader-f16）的 GPU 才能显示预测所描述的节省。',
    wasmShows: null,
    needsWebGpu: null,
  },
  'gradient-accumulation': {
    before: '整批',
    after: '微批次',
    passLabel: '梯度相等（仅有 float32 舍入误差）',
    failLabel: '梯度不同',
    wasmUnmeasurable: null,
    wasmShows:
      '在 WebAssembly 上，这个数字是堆的高水位：它只增不减，每次增长约为自身大小的五分之一，并且包含运行时自己的内存池。所以节省看得出来，但只能按整级显示。WebGPU 则统计每一个缓冲区。',
    needsWebGpu: null,
  },
  'gradient-checkpointing': {
    before: '保留激活值',
    after: '重计算',
    passLabel: '梯度完全一致',
    failLabel: '梯度不同',
    wasmUnmeasurable:
      '在 WebAssembly 上，一步训练作为单个计算图运行。我们实测时（最大到宽度 512、16 层、批大小 2048），onnxruntime-web 的 CPU 内存规划器无论是否重计算都让堆停在同一高水位。重计算变体仍会在单步时间上体现它的代价；显存节省要在 WebGPU 上才看得到。',
    wasmShows: null,
    needsWebGpu: null,
  },
  leak: {
    before: '泄漏的循环',
    after: '修复后的循环',
    passLabel: '两个循环算出的梯度完全一致',
    failLabel: '两个循环算出的梯度不同',
    wasmUnmeasurable: null,
    wasmShows: null,
    needsWebGpu:
      '这个实验需要 WebGPU：泄漏的循环留住的是 GPU 张量，没有 WebGPU 时它们会存放在普通的 JavaScript 内存里，而网页无法测量这部分内存。请在支持 WebGPU 的浏览器（Chrome、Edge 或 Safari 26 及以上）中打开本页，观察显存逐级上涨。',
  },
  offload: {
    before: '权重全部常驻',
    after: '权重流式传输',
    passLabel: '梯度完全一致',
    failLabel: '梯度不同',
    wasmUnmeasurable: null,
    wasmShows: null,
    needsWebGpu:
      '这个实验需要 WebGPU：卸载是在主机内存和 GPU 显存之间搬运权重，而没有 WebGPU 时 onnxruntime-web 在 CPU 上运行，权重从不离开主机内存，也就没有显存可省。请在支持 WebGPU 的浏览器（Chrome、Edge 或 Safari 26 及以上）中打开本页，观察权重的流式传输。',
  },
};

/** zh-CN 的设置项名称，用在字段报错里。 */
const FIELD_NAMES_ZH_CN = {
  hidden: '宽度',
  layers: '层数',
  batch: '批大小',
  microBatches: '微批次数',
  devices: '设备数',
} as const;

/**
 * 实验部分（src/components/lab）的简体中文文案，键与 `LAB_EN` 一一对应。代码、API 名（onnxruntime-web、WebGPU、
 * shader-f16、.grad）保持英文；数字和单位之间留空格。
 */
export const LAB_ZH_CN: LabMessages = {
  frame: {
    ariaLabel: (title) => `实验：${title}`,
    run: '运行',
    running: '运行中…',
    runAgain: '再运行一次',
    tryAgain: '重试',
    idle: (idleText, jspiMb, asyncifyMb) =>
      `点击“运行”将下载 onnxruntime-web（支持 WebAssembly JSPI 的浏览器如 Chrome、Edge 为 ${jspiMb} MB，其他浏览器为 ${asyncifyMb} MB，只下载一次），然后${idleText}`,
    checking: '正在检查这个浏览器能运行什么…',
    willRunOnWasm: (cause) => `${cause}，所以这个实验将通过 WebAssembly 在 CPU 上运行。`,
    needsWebGpuTitle: '需要 WebGPU。',
    needsWebGpu: (why, cause) => `${why}（${cause}。）`,
    startingRun: '正在启动…',
    downloading: (percent, total) => `正在下载 onnxruntime-web：已完成 ${percent}%，共 ${total}`,
    downloadingBytes: (loaded) => `正在下载 onnxruntime-web：已下载 ${loaded}`,
    progress: (who, stage) => `${who}：${stage}…`,
    stage: describeRunStageZhCn,
    then: '，然后 ',
    methodLink: '实验室如何测量',
    wasmLink: 'WebAssembly 能显示什么',
    failureTitles: {
      'out-of-memory': '你刚刚在浏览器里遇到了 OOM',
      'device-lost': 'GPU 设备丢失',
      limits: '这个模型超出了你的 GPU 允许的上限',
      unsupported: '你的浏览器无法运行这个变体',
      error: '实验失败',
      'needs-webgpu': '需要 WebGPU',
    },
    failure: (why, detail) => `${why}（原始错误信息：${detail}）`,
    failureWhy: {
      'out-of-memory':
        '浏览器无法分配这一步需要的缓冲区——这和 CUDA 报告的 “out of memory” 是同一回事。试试更小的批大小或宽度，或者用本课讲的技术。',
      'device-lost': '浏览器重置了 GPU（通常是某一步运行太久或占用显存太多）。请刷新页面，换更小的尺寸再试。',
      limits:
        '有一个缓冲区会超过这台设备的 WebGPU 上限（maxBufferSize 或 maxStorageBufferBindingSize）。试试更小的批大小或宽度。',
      unsupported: '这里缺少本次运行需要的某项功能。',
      error: '运行模型时发生了意外错误。',
      'needs-webgpu': '这个实验测量的是 GPU 缓冲区，只有 WebGPU 才有。',
    },
  },
  controls: {
    labels: { hidden: '宽度', layers: '层数', batch: '批大小', microBatches: '微批次数', devices: '虚拟 GPU 数' },
    errors: {
      notAChoice: (field, options) => `${FIELD_NAMES_ZH_CN[field]}只能取 ${options.join('、')} 之一。`,
      batchRange: (min, max) => `批大小必须是 ${min} 到 ${max} 之间的整数。`,
      doesNotSplit: (batch, split, parts) =>
        split === 'microBatches'
          ? `批大小 ${batch} 无法均分成 ${parts} 个微批次。`
          : `批大小 ${batch} 无法均分成 ${parts} 份（每台设备一份）。`,
    },
    softwareNote: (software, gpu) =>
      `这个浏览器的 WebGPU 跑在软件适配器上，所有 GPU 内核都在 CPU 上执行，所以初始尺寸设为${software}（在真正的 GPU 上为${gpu}）。`,
    sizes: (hidden, layers, batch) => `宽度 ${hidden}、${layers} 层、批大小 ${batch}`,
  },
  backend: {
    fallbackCause: {
      'no-webgpu': () => '这个浏览器没有 WebGPU（缺少 navigator.gpu）',
      'no-adapter': () => '浏览器有 WebGPU，但没有提供适配器（GPU 驱动缺失或被列入黑名单）',
      'no-f16': (name) => `WebGPU 适配器（${name ?? '你的 GPU'}）不支持 16 位着色器（shader-f16）`,
    },
    ranInstead: {
      'no-webgpu': (cause) => `${cause}，所以模型通过 WebAssembly 在 CPU 上运行。`,
      'no-adapter': (cause) => `${cause}，所以模型通过 WebAssembly 运行。`,
      'no-f16': (cause) => `${cause}，所以两个变体都通过 WebAssembly 运行；它用 fp32 计算来执行 16 位模型。`,
    },
    ranOnWebGpu: (name, software) =>
      software
        ? `在 WebGPU 上运行（${name ?? '你的 GPU'}，软件适配器：所有内核都在 CPU 上执行）。`
        : `在 WebGPU 上运行（${name ?? '你的 GPU'}）。`,
  },
  single: {
    experiments: SINGLE_EXPERIMENTS_ZH_CN,
    title: (before, after) => `${before}对比${after}`,
    idleText: '在你的浏览器里测量两个变体。',
    caption: '每个变体实测的峰值，以及对它的两种预测',
    note: (memoryLabel) =>
      `实测：${memoryLabel}；“其中静止权重”是放好权重、创建好会话之后、第一步之前占用的量，超出的部分都是梯度、激活值和临时张量。本运行时：根据计算图的形状推算 onnxruntime-web 1.30 和实验室在 WebGPU 上为这些计算图占用多少。PyTorch（CUDA）：显存引擎对同一模型给出的峰值，即 PyTorch 在最忙时刻会占用的量（权重、梯度、激活值；不含 CUDA 上下文）。每个比值都是实测 ÷ 该预测。`,
    notModelled: '尚未建模',
    noteUnmeasurable: ' 第二行没有实测 ÷ 预测：它的预测对应的是这个后端无法展示的运行（见下文）。',
    columns: ['变体', '实测峰值', '单步时间，中位数（范围）', '其中静止权重', '本运行时', 'PyTorch（CUDA）', '损失'],
    microBatches: (count, size) => `（${count} × ${size}）`,
    batch: (size) => `（批大小 ${size}）`,
    heapLabel: 'WebAssembly 堆增长（粗粒度高水位）',
    buffersLabel: 'GPU 缓冲区峰值（onnxruntime-web 预留）',
    chartHeap: 'WebAssembly 堆增长',
    chartBuffers: '占用的 GPU 缓冲区',
    liveBuffers: '存活的 GPU 缓冲区',
    stepAxis: '训练步',
    timeAxis: '运行时间（秒）',
    saving: (percent) => `实测节省：${percent}%。`,
    noSaving: '在这些尺寸下没有测到节省。',
    accumulationRaised: (measured, runtime, secondSet, pytorch) =>
      `这里梯度累积反而抬高了峰值（实测 ${measured}；本运行时预测 ${runtime}）：onnxruntime-web 把每个微批次的梯度非原地相加，多出的第二份梯度（${secondSet}）比更小的微批次在激活值上省下的还多。PyTorch 原地累加 .grad，会是 ${pytorch}。`,
    noPyTorchSaving: (pytorch) =>
      `PyTorch（CUDA）预测在这些尺寸下没有节省（${pytorch}）：它最忙的时刻恰好不是这项技术能压低的那一刻。`,
    gapHeading: (label) => `${label}：本运行时与 PyTorch（CUDA）的差距：`,
    emulatedLabel: (label) => `${label}模型，以 fp32 计算`,
    emulatedGradients: (difference) =>
      `在 WebAssembly 上，16 位模型是以 fp32 计算的，所以看不到 16 位舍入（梯度最大相对差 ${difference}）。`,
    gradients: (verdict, difference) => `${verdict}（最大相对差 ${difference}）。`,
    adapter: (name) => ` 适配器：${name}。`,
  },
  cluster: {
    experiments: {
      sides: {
        'data-parallel': { before: '单卡，整批', after: '数据并行' },
        'zero-sharding': { before: 'DDP + Adam（ZeRO-0）', after: 'ZeRO-2' },
        'pipeline-parallel': { before: '单卡，全部层', after: '流水线（1F1B）' },
      },
      needsWebGpu:
        '这个实验需要 WebGPU：每块虚拟 GPU 都是一个独立 worker 中的 WebGPU 设备，它的显存就是该设备分配的 GPU 缓冲区。没有 WebGPU 时张量会存放在普通的 JavaScript 内存里，网页无法按 worker 分别测量。请在支持 WebGPU 的浏览器（Chrome、Edge 或 Safari 26 及以上）中打开本页。',
    },
    caption: '每台设备实测与预测的峰值',
    note: (memory, restExtra, predictedExtra) =>
      `每台设备的实测值：${memory}，取其峰值；“静止”是放好权重${restExtra}之后；“步间”是最后一步之后。本运行时：根据计算图形状，按每台设备自己的循环回放这些计算图，推算 onnxruntime-web 1.30 和实验室在 WebGPU 上占用多少。PyTorch（CUDA）：显存引擎对同一模型给出的每卡峰值${predictedExtra}，不含 CUDA 上下文。实测 ÷ PyTorch 用每侧最忙的那台设备与之比较。单步时间：每台设备在计时步上的中位数和范围；一侧的速度取决于最慢的设备，其余设备在每次交换时都要等它。`,
    restExtraAdam: '和 Adam 动量',
    predictedExtraPipeline: '（第一个阶段，较大的那个）',
    heapLabel: 'WebAssembly 堆增长（粗粒度高水位）',
    buffersLabel: 'onnxruntime-web 预留的 GPU 存储缓冲区',
    columns: [
      '方案',
      '设备',
      '峰值',
      '单步时间，中位数（范围）',
      '静止',
      '步间',
      '本运行时',
      'PyTorch（CUDA）',
      '实测 ÷ PyTorch',
    ],
    notModelled: '尚未建模',
    gapHeading: (label, rank) => `${label}，GPU ${rank}：本运行时与 PyTorch（CUDA）的差距：`,
    title: (before, after) => `${before}对比${after}`,
    idle: '为每台设备启动一块虚拟 GPU，每块都是独立 worker 中的 WebGPU 设备。',
    device: (rank) => `GPU ${rank}`,
    deviceOfSide: (label, rank) => `${label}，GPU ${rank}`,
    saving: (after, percent, before) => `“${after}”中最忙的设备，峰值比“${before}”低 ${percent}%。`,
    noSaving: '在这些尺寸下，每台设备都没有节省。',
    compares: { gradients: '梯度', weights: '权重' },
    same: (compares, difference) => `两侧算出的${compares}相同（最大相对差 ${difference}）。`,
    differ: (compares, difference) => `两侧算出的${compares}不同（最大相对差 ${difference}）。`,
    adapter: (name) => ` 适配器：${name}。`,
    bubble: (measured, ideal, stages, microBatches) =>
      `实测气泡：设备有 ${measured}% 的时间空闲；若各阶段耗时相等，1F1B 调度的空闲比例为 ${ideal}%（(p − 1)/(m + p − 1)，其中 p = ${stages}，m = ${microBatches}）。`,
    barsAxis: '每台设备的峰值字节数（MiB）；短横线：预测值',
    barsDescription: (sides) => `${sides.join('与')}每台设备的峰值：柱为实测，短横线为预测`,
    scheduleAxis: '步内时间（秒）',
    scheduleKinds: { forward: '前向', backward: '反向' },
    scheduleDescription: '流水线调度：每个微批次在每台设备上的前向和反向随时间的分布；空隙就是气泡',
  },
  distillation: {
    models: {
      teacher: '教师模型，fp32',
      int8Teacher: '教师模型，int8',
      student: '学生模型，fp32',
      wasmCaveat:
        '在 WebAssembly 上，唯一的内存数字是堆的高水位，它按兆字节级的步长增长，比这些模型还大（教师模型的权重只有 0.53 MiB）。准确率和前向耗时是真实的；显存节省要在 WebGPU 上才看得到。',
    },
    title: '教师模型对比蒸馏出的学生模型对比 int8 教师模型',
    idleText: '测量教师模型（fp32 和 int8）与学生模型，并把学生模型训练两次：一次用软目标，一次只用硬标签。',
    caption: '每个模型的显存、耗时与准确率',
    note: (batch, memory) =>
      `对 ${batch} 个测试样本做一次前向。实测：${memory}，从加载模型之前算起；“静止”是加载完模型、尚未运行时占用的量。本运行时：根据计算图形状推算 onnxruntime-web 1.30 在 WebGPU 上为这些计算图占用多少，并给出实测 ÷ 该值。PyTorch（CUDA）：显存引擎在推理模式下对同一模型的估算（按存储位宽计的权重加上前向工作集；不含 CUDA 上下文），并给出实测 ÷ 该值：fp32 模型比的是峰值；int8 教师模型比的是静止时的权重与引擎的 int8 权重项（它的峰值在下文解释）。准确率：全部 2,048 个留出的测试样本。`,
    heapLabel: 'WebAssembly 堆增长（粗粒度高水位）',
    buffersLabel: 'GPU 缓冲区峰值（onnxruntime-web 预留）',
    columns: ['模型', '参数量', '实测峰值', '静止', '本运行时', 'PyTorch（CUDA）', '前向耗时', '测试准确率'],
    parameters: (count) => count.toLocaleString('zh-CN'),
    milliseconds: (ms) => `${ms.toFixed(1)} ms`,
    percent: (share) => `${(share * 100).toFixed(1)}%`,
    int8Compared: 'int8 教师模型静止时的权重',
    atRestRatio: (ratio) => `静止时 ${ratio}`,
    notModelled: '非 WebGPU 下未建模',
    gapHeading: (label) => `${label}：本运行时与 PyTorch（CUDA）的差距：`,
    int8Copies: (int8AtRest, fp32AtRest, copies) =>
      `静止时，int8 教师模型占用 ${int8AtRest}，fp32 版本占用 ${fp32AtRest}。运行时它还要再多占 ${copies}，远高于预测：onnxruntime-web 把每个 DequantizeLinear 作为单独一步执行，写出一份 fp32 的权重矩阵副本供 MatMul 读取，而且在一次运行中只部分复用这些缓冲区。显存引擎假设的是直接读取 int8 权重的内核，就像 LLM.int8() 以及 4 位的 GPTQ、AWQ 内核那样。`,
    accuracies: (distilled, alpha, hardOnly, seconds, teacher, int8) => [
      `学生模型在这里从同一起点训练了两次，步数相同，用的是同样的 256 个带标签样本：用教师模型的软目标（α = ${alpha}）达到 `,
      distilled,
      '，只用硬标签达到 ',
      hardOnly,
      `（两次训练共耗时 ${seconds} 秒）。教师模型用 8,192 个样本训练，准确率为 ${teacher}；以 int8 存储时为 ${int8}。`,
    ],
    progressSides: {
      distillation: '知识蒸馏',
      'teacher-fp32': '教师模型（fp32）',
      'teacher-int8': '教师模型（int8）',
      student: '学生模型',
    },
    shares: (student, int8) => `实测：学生模型前向占用的显存是教师模型的 ${student}；int8 教师模型是 ${int8}。`,
    adapter: (name) => ` 适配器：${name}。`,
  },
  transfer: {
    caption: '计时那一步的主机↔GPU 数据传输',
    note: '上传时间是 worker 创建缓冲区并把权重交给它们所花的时间；之后的拷贝在 GPU 队列上、排在读取它们的内核之前执行，所以其完整代价体现在单步时间里。常驻的权重只在第一步之前上传一次。',
    columns: ['变体', '每步上传的权重', '上传时间', '每步回读的梯度', '单步时间，中位数（范围）'],
    milliseconds: (ms) => `${ms.toFixed(1)} ms`,
  },
  timeline: {
    yAxis: (unit) => `${unit}（MiB）`,
    description: (unit, x, series) => `${series.join('与')}的${unit}随${x}的变化`,
  },
  agreement: {
    side: (label, ratio) => `${label}（${ratio}）`,
    list: (items) => items.join('、'),
    webGpuExtras: (outOfPlace, list) =>
      `onnxruntime-web 只有在下一次 flush（每 16 个内核、每次回读以及运行结束时）之后才会复用已释放的缓冲区，所以一步中释放的显存在此之前仍与新分配的并存。${
        outOfPlace.length > 0
          ? `${list}以非原地方式累加梯度（acc_out = acc_in + g），因此同时存在两整份梯度，而 PyTorch 的 .grad += 是原地累加。`
          : ''
      }最后也是影响最小的一点：它把每个缓冲区向上取整到某个尺寸档位。`,
    verdicts: {
      close: (sides, kind, range, extras) =>
        `${sides}的实测值与预测相差不到 ${range.closePercent}%。这并不等于吻合：预测的是 PyTorch 在 CUDA 上的占用，而${
          kind === 'wasm-heap'
            ? ' WebAssembly 堆按粗粒度增长，并且包含运行时自己的内存池。'
            : `本运行时额外占用的部分可能恰好抵消了它没有占用的项。${extras}`
        }`,
      above: (sides, kind, range, extras) =>
        kind === 'wasm-heap'
          ? `${sides}的实测值高于预测：WebAssembly 堆只增不减，每次增长约为自身大小的五分之一，并且包含运行时自己的内存池。这是该后端的常见开销（最高 ${range.max}×），并不代表吻合。`
          : `${sides}的实测值高于预测，处在该后端的常见范围内（最高 ${range.max}×），并不代表吻合。${extras}`,
      below: (sides, _kind, range) =>
        `${sides}的实测值低于预测：运行时复用了公式分开计算的缓冲区，或者没有占用公式计入的某些项。这仍在该后端的常见范围内（最低 ${range.min}×），并不代表吻合。`,
      outside: (sides, _kind, range) =>
        `${sides}的实测值与预测之差超出了该后端通常的范围（${range.min}–${range.max}×）；下方链接的“实验室如何测量”解释了这类差距从何而来。`,
    },
  },
  runtime: {
    gapItems: {
      'second-gradient-set':
        '第二份梯度：实验室的计算图以非原地方式累加梯度（acc_out = acc_in + g；流水线的累加图为 sum = a + b），所以两份梯度同时存在，而 PyTorch 的 .grad += 是原地累加',
      'size-classes': '尺寸档位：运行时的每个缓冲区都向上取整到某个档位，释放的缓冲区在会话释放前一直缓存着',
      'reuse-after-flush': '释放的缓冲区只在 flush 之后才被复用（每 16 个内核、每次回读以及运行结束时）',
      'examples-and-labels': '实验室自己按确切大小分配的缓冲区：每个微批次的样本和标签，在第一步之前就已放好',
      rest: '未逐项列出：实验室的计算图与 PyTorch 一步训练的差别（一个计算图保留到结束的张量、回读到主机的梯度）',
    },
    gapLine: (bytes, cause) => `${bytes}：${cause}`,
    difference: (bytes) => `比 PyTorch（CUDA）多出的 ${bytes}`,
    agrees: (label, ratio, difference) => `${label}：实测与本运行时吻合（${ratio}）；它${difference}在下方逐项列出。`,
    close: (label, ratio, difference, percent) =>
      `${label}：实测与本运行时相差不到 ${percent}%（${ratio}），但在它${difference}中，逐项列出的部分解释不了超过 PyTorch 峰值 ${percent}% 的量，所以不算吻合。`,
    apart: (label, ratio, percent) =>
      `${label}：实测是本运行时的 ${ratio}，偏差超过 ${percent}%：在这些尺寸下，模型漏掉了本次运行占用的某些东西。`,
    unchecked: (label, ratio, difference, unchecked) =>
      `${label}：本运行时的数字是${unchecked}（还没有 16 位着色器的录制来检验它的规则），所以实测为它的 ${ratio} 也不称为吻合；它${difference}在下方逐项列出。`,
    uncheckedWords: '预测值，尚未用实测轨迹检验',
  },
  stepTime: {
    seconds: (s) => `${s.toFixed(2)} 秒`,
    range: (median, min, max) => `${median}（${min}–${max}）`,
    ratio: (ratio) => `（${ratio}×）`,
    withinNoise: '（在噪声范围内）',
    differ: (after, ratio, before, steps) =>
      `“${after}”的一步耗时是“${before}”的 ${ratio} 倍；在 ${steps} 个计时步中，两者的耗时范围互不重叠。`,
    same: (steps) => `在 ${steps} 个计时步中，两者的单步时间范围相互重叠：在这些尺寸下，这个浏览器看不出两者的耗时差别。`,
  },
};
