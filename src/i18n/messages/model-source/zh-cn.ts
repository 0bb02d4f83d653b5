import type { ModelSourceErrors } from './en';

/** Why a model was not read, in 简体中文; ids, hosts and file names stay as they are. */
export const MODEL_SOURCE_ERRORS_ZH_CN: ModelSourceErrors = {
  badId: (id) => `“${id}”不是 Hugging Face 模型 id：应为 命名空间/名称（字母、数字、- _ .），例如 Qwen/Qwen3-8B`,
  notFound: (id, host) => `${host} 上没有 ${id}/config.json（HTTP 404）：请检查 id 及其拼写`,
  refused: (id, host, status) =>
    `${host} 拒绝了 ${id}/config.json 的请求（HTTP ${status}）：该仓库需要申请访问、是私有的或不存在；请下载它的 config.json 后粘贴进来`,
  status: (id, host, status) => `${host} 对 ${id}/config.json 返回了 HTTP ${status}`,
  network: (host, reason) =>
    `无法连接 ${host}（${reason}）：可能处于离线状态、在此处被屏蔽，或对方拒绝本站的请求；请换另一个站点，或直接粘贴文件`,
  tooBig: (bytes) => `文件有 ${bytes} 字节，超过 1 MB 的上限；模型的 config.json 通常只有几 KB`,
  notText: '文件不是 UTF-8 文本',
  badLink: (param) => `链接中的 ${param} 参数已损坏（不是 base64url）；请重新选择模型`,
};
