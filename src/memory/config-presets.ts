/**
 * Presets of current models, each generated from its committed config.json (model-configs/, sources in SOURCES.md
 * there) by `readConfigJson`, so a preset's shape is exactly the checkpoint's and never typed by hand. Two files are
 * derived from the checkpoint's original parameters by transformers' conversion rules (scripts/derive-model-configs.ts)
 * where the released config.json itself could not be sourced: Llama 3.1 405B and Mistral Small 3.
 */
import { readConfigJson } from './config-json.ts';
import type { ModelPreset } from './presets.ts';
import deepseekV2Lite from './model-configs/deepseek-v2-lite.json' with { type: 'json' };
import deepseekV3 from './model-configs/deepseek-v3.json' with { type: 'json' };
import gemma2_9b from './model-configs/gemma-2-9b.json' with { type: 'json' };
import gemma3_1b from './model-configs/gemma-3-1b.json' with { type: 'json' };
import glm4_9b from './model-configs/glm-4-9b.json' with { type: 'json' };
import gptOss120b from './model-configs/gpt-oss-120b.json' with { type: 'json' };
import gptOss20b from './model-configs/gpt-oss-20b.json' with { type: 'json' };
import llama31_405b from './model-configs/llama-3.1-405b.json' with { type: 'json' };
import llama31_70b from './model-configs/llama-3.1-70b.json' with { type: 'json' };
import llama31_8b from './model-configs/llama-3.1-8b.json' with { type: 'json' };
import llama32_1b from './model-configs/llama-3.2-1b.json' with { type: 'json' };
import llama32_3b from './model-configs/llama-3.2-3b.json' with { type: 'json' };
import mistralNemo from './model-configs/mistral-nemo.json' with { type: 'json' };
import mistralSmall24b from './model-configs/mistral-small-24b.json' with { type: 'json' };
import mixtral8x22b from './model-configs/mixtral-8x22b.json' with { type: 'json' };
import phi4 from './model-configs/phi-4.json' with { type: 'json' };
import qwen25_72b from './model-configs/qwen2.5-72b.json' with { type: 'json' };
import qwen25_7b from './model-configs/qwen2.5-7b.json' with { type: 'json' };
import qwen3_06b from './model-configs/qwen3-0.6b.json' with { type: 'json' };
import qwen3_235bA22b from './model-configs/qwen3-235b-a22b.json' with { type: 'json' };
import qwen3_30bA3b from './model-configs/qwen3-30b-a3b.json' with { type: 'json' };
import qwen3_32b from './model-configs/qwen3-32b.json' with { type: 'json' };
import qwen3_8b from './model-configs/qwen3-8b.json' with { type: 'json' };

/** Id (the config file's name), label, Hugging Face checkpoint and its parsed config.json. */
const CONFIG_FILES: readonly (readonly [id: string, label: string, checkpoint: string, json: unknown])[] = [
  ['llama-3.1-8b', 'Llama 3.1 8B', 'meta-llama/Llama-3.1-8B', llama31_8b],
  ['llama-3.1-70b', 'Llama 3.1 70B', 'meta-llama/Llama-3.1-70B-Instruct', llama31_70b],
  ['llama-3.1-405b', 'Llama 3.1 405B', 'meta-llama/Llama-3.1-405B', llama31_405b],
  ['llama-3.2-1b', 'Llama 3.2 1B', 'meta-llama/Llama-3.2-1B', llama32_1b],
  ['llama-3.2-3b', 'Llama 3.2 3B', 'meta-llama/Llama-3.2-3B', llama32_3b],
  ['qwen2.5-7b', 'Qwen2.5 7B', 'Qwen/Qwen2.5-7B', qwen25_7b],
  ['qwen2.5-72b', 'Qwen2.5 72B', 'Qwen/Qwen2.5-72B-Instruct', qwen25_72b],
  ['qwen3-0.6b', 'Qwen3 0.6B', 'Qwen/Qwen3-0.6B', qwen3_06b],
  ['qwen3-8b', 'Qwen3 8B', 'Qwen/Qwen3-8B', qwen3_8b],
  ['qwen3-32b', 'Qwen3 32B', 'Qwen/Qwen3-32B', qwen3_32b],
  ['qwen3-30b-a3b', 'Qwen3 30B-A3B (MoE)', 'Qwen/Qwen3-30B-A3B', qwen3_30bA3b],
  ['qwen3-235b-a22b', 'Qwen3 235B-A22B (MoE)', 'Qwen/Qwen3-235B-A22B-Instruct-2507', qwen3_235bA22b],
  ['gemma-2-9b', 'Gemma 2 9B', 'google/gemma-2-9b-it', gemma2_9b],
  ['gemma-3-1b', 'Gemma 3 1B (text)', 'google/gemma-3-1b-it', gemma3_1b],
  ['phi-4', 'Phi-4 (14B)', 'microsoft/phi-4', phi4],
  ['mistral-nemo', 'Mistral Nemo (12B)', 'mistralai/Mistral-Nemo-Base-2407', mistralNemo],
  ['mistral-small-24b', 'Mistral Small 3 (24B)', 'mistralai/Mistral-Small-24B-Instruct-2501', mistralSmall24b],
  ['mixtral-8x22b', 'Mixtral 8x22B (MoE)', 'mistralai/Mixtral-8x22B-v0.1', mixtral8x22b],
  ['glm-4-9b', 'GLM-4 9B', 'THUDM/glm-4-9b-chat', glm4_9b],
  ['gpt-oss-20b', 'gpt-oss 20B (MoE)', 'openai/gpt-oss-20b', gptOss20b],
  ['gpt-oss-120b', 'gpt-oss 120B (MoE)', 'openai/gpt-oss-120b', gptOss120b],
  ['deepseek-v2-lite', 'DeepSeek-V2-Lite (MoE, MLA)', 'deepseek-ai/DeepSeek-V2-Lite', deepseekV2Lite],
  ['deepseek-v3', 'DeepSeek-V3 (MoE, MLA)', 'deepseek-ai/DeepSeek-V3', deepseekV3],
];

/** A preset from a committed config.json; a file that does not read is a build error, not a silent shape. */
function presetFromConfig(id: string, label: string, checkpoint: string, json: unknown): ModelPreset {
  const reading = readConfigJson(json);
  if (!reading.ok) throw new Error(`model-configs/${id}.json: ${reading.errors.map((e) => e.message).join('; ')}`);
  return {
    id,
    label,
    config: Object.freeze(reading.config),
    source: `HF ${checkpoint} config.json (src/memory/model-configs/${id}.json)`,
  };
}

/** Every preset generated from a config.json, in the order the pickers list them. */
export const CONFIG_PRESETS: readonly ModelPreset[] = CONFIG_FILES.map(([id, label, checkpoint, json]) =>
  presetFromConfig(id, label, checkpoint, json),
);
