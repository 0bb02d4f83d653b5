import type { MemoryLine } from '../../../memory/index';
import type { DIFFUSION_EN } from './en';

/**
 * What each line of the phase table holds, by the engine's line id. The English label carries the numbers that
 * produced it; here the bytes columns beside it show the size, so the words name the part alone.
 */
export const DIFFUSION_LINE_LABELS_ZH_CN: Readonly<Record<string, string>> = {
  'transformer-weights': 'Transformer 权重',
  'transformer-upcast': '正在运行的层从 fp8 转成 bf16 的副本',
  'image-encoder': '图像编码器权重',
  'image-encoder-activations': '图像编码器前向激活值',
  'vae-weights': 'VAE 权重',
  'denoise-activations': '单步去噪的激活值',
  latents: '潜变量（latents，fp32，3 份）',
  'vae-decode': 'VAE 解码',
  'cuda-context': 'CUDA 上下文与内核',
};

/** The text encoders' lines are numbered by the pipeline (`text-encoder-2-activations`): their words take the number. */
const TEXT_ENCODER_LINE = /^text-encoder-(\d+)(-activations)?$/;

/** The line's words by its id; an id this table lacks prints as the id, and tests/unit/i18n fails on it. */
function lineLabel(line: MemoryLine): string {
  const encoder = TEXT_ENCODER_LINE.exec(line.id);
  if (encoder !== null) return `文本编码器 ${encoder[1]}${encoder[2] === undefined ? ' 权重' : ' 前向激活值'}`;
  return DIFFUSION_LINE_LABELS_ZH_CN[line.id] ?? line.id;
}

/** The image and video generation calculator in 简体中文. */
export const DIFFUSION_ZH_CN: typeof DIFFUSION_EN = {
  ariaLabel: '图像与视频生成显存计算器',
  groups: { model: '管线', output: '输出', memory: '权重放在哪里', hardware: '硬件' },
  model: '管线（pipeline）',
  components: '参数量',
  transformer: 'Transformer',
  vae: 'VAE',
  resolution: '分辨率（宽×高，像素）',
  frames: '帧数',
  steps: '去噪步数',
  weights: 'Transformer 权重格式',
  offload: '卸载',
  offloads: {
    none: 'none：全部留在 GPU 上',
    'text-encoder': '编码完成后把文本编码器移到 CPU',
    model: 'model：每次只放一个组件',
    sequential: 'sequential：每次只放一个模块',
    group: 'group：每次一个块，并预取下一个',
  },
  textEncoderCpu: '在 CPU 上运行文本编码器',
  vaeTiling: '分块（tiling）解码 VAE',
  guidance: '引导（guidance）',
  pipelineDefault: (value: string) => `（管线默认：${value}）`,
  gpu: 'GPU',
  headroom: '预留余量（%）',
  noGpu: '（不选 GPU：跳过能否装下的检查）',
  fits: (gpu: string, spare: string) => `${gpu} 装得下，扣除预留余量后还剩 ${spare}`,
  overBy: (gpu: string, over: string) => `${gpu} 装不下：算上预留余量，超出 ${over}`,
  pickGpu: '选择一块 GPU 来检查能否装下',
  peakAt: (peak: string, phase: string) => `峰值 ${peak}，出现在${phase}时`,
  phases: { encode: '编码提示词', denoise: '去噪', decode: '用 VAE 解码' },
  phaseColumns: { encode: '编码', denoise: '去噪', decode: '解码' },
  tokens: (visual: string, text: number) => `每次前向 ${visual} 个图像或视频 token，另有 ${text} 个文本 token`,
  staleNote: '请修正高亮的字段：下面的结果对应上一次有效的设置。',
  tableCaption: '一次生成中每个阶段 GPU 上驻留的显存（GiB）',
  part: 'GPU 上的部分',
  total: '合计',
  host: (bytes: string) => `卸载到主机或在 CPU 上运行的部分占用主机内存：${bytes}。`,
  transfer: (bytes: string, passes: number, seconds: string | null, link: string) =>
    `每次生成，卸载要经主机链路拷贝 ${bytes}（Transformer 前向 ${passes} 次）` +
    (seconds === null ? '。' : `：在 ${link} 上至少需要 ${seconds}。`),
  remediesTitle: '怎样才能装下',
  remediesIntro: '每一行都是能装下的最小改动组合，由同一套估算算出；拷贝最少（最快）的排在前面。',
  remedyLine: (peak: string, phase: string, seconds: string) => `${phase}时峰值 ${peak}，拷贝耗时 ${seconds}`,
  apply: '应用',
  noRemedy: '这里的选项都无法让它装下：请降低分辨率、减少帧数，或换一块显存更大的 GPU。',
  copyIntro: '在终端中运行同样的估算：',
  copy: '复制',
  copied: '已复制',
  warnings: '警告',
  lineLabel,
};
