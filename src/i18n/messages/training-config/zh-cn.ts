import type { SetupWords } from '../../../setup/words';
import type { TRAINING_CONFIG_EN } from './en';

/** The reader's words around a mapping; the rules' own reasons stay as written. */
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

/** The training-config reader's words in 简体中文, key for key as `TRAINING_CONFIG_EN`. */
export const TRAINING_CONFIG_ZH_CN: typeof TRAINING_CONFIG_EN = {
  setup: SETUP,
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
