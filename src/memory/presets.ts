/**
 * Model presets: shapes from each model's published config.json. Parameter counts are
 * computed by `countParams`; tests check them against the published totals.
 */
import { CONFIG_PRESETS } from './config-presets.ts';
import type { CheckpointDtype, ModelConfig } from './model.ts';

/** A named model shape. */
export interface ModelPreset {
  /** Lowercase-kebab id used by `--model` and `?model=`. */
  id: string;
  /** Human-readable name. */
  label: string;
  /** Architecture and shape. */
  config: ModelConfig;
  /** Where the shape comes from (one line). */
  source: string;
}

type Shape = Omit<ModelConfig, 'experts' | 'topK' | 'slidingWindow'> &
  Partial<Pick<ModelConfig, 'experts' | 'topK' | 'slidingWindow'>>;

function preset(id: string, label: string, source: string, shape: Shape): ModelPreset {
  return { id, label, source, config: { experts: 1, topK: 1, slidingWindow: null, ...shape } };
}

const gpt2 = (hidden: number, layers: number, heads: number): Shape => ({
  arch: 'gpt2',
  hidden,
  layers,
  heads,
  kvHeads: heads,
  ffn: 4 * hidden,
  vocab: 50257,
  positions: 1024,
  tiedEmbeddings: true,
  contextLength: 1024,
  // The config.json names no dtype; model.safetensors holds 4 bytes per parameter (548 MB for the 124M model): float32.
  storedDtype: 'float32',
});

/** A Llama-style shape; `storedDtype` is its config.json `torch_dtype` (Llama 2: float16; Llama 3, Mistral, Mixtral: bfloat16). */
const llama = (
  hidden: number,
  layers: number,
  heads: number,
  kvHeads: number,
  ffn: number,
  vocab: number,
  contextLength: number,
  storedDtype: CheckpointDtype,
): Shape => ({
  arch: 'llama',
  hidden,
  layers,
  heads,
  kvHeads,
  ffn,
  vocab,
  positions: 0,
  tiedEmbeddings: false,
  contextLength,
  storedDtype,
});

/** Every model preset, by id: the hand-described ones lessons and golden files use, then those read from a config.json. */
export const MODEL_PRESETS: readonly ModelPreset[] = [
  preset('gpt2', 'GPT-2 (124M)', 'HF openai-community/gpt2 config.json', gpt2(768, 12, 12)),
  preset('gpt2-medium', 'GPT-2 Medium (355M)', 'HF openai-community/gpt2-medium config.json', gpt2(1024, 24, 16)),
  preset('gpt2-large', 'GPT-2 Large (774M)', 'HF openai-community/gpt2-large config.json', gpt2(1280, 36, 20)),
  preset('gpt2-xl', 'GPT-2 XL (1.5B)', 'HF openai-community/gpt2-xl config.json', gpt2(1600, 48, 25)),
  preset(
    'bert-base-uncased',
    'BERT base uncased (110M)',
    'HF google-bert/bert-base-uncased config.json (BertModel with pooler)',
    {
      arch: 'bert',
      hidden: 768,
      layers: 12,
      heads: 12,
      kvHeads: 12,
      ffn: 3072,
      vocab: 30522,
      positions: 512,
      tiedEmbeddings: true,
      contextLength: 512,
      // The config.json names no dtype; model.safetensors holds 4 bytes per parameter (440 MB for 110M): float32.
      storedDtype: 'float32',
    },
  ),
  preset(
    'llama-2-7b',
    'Llama 2 7B',
    'HF meta-llama/Llama-2-7b-hf config.json',
    llama(4096, 32, 32, 32, 11008, 32000, 4096, 'float16'),
  ),
  preset(
    'llama-2-13b',
    'Llama 2 13B',
    'HF meta-llama/Llama-2-13b-hf config.json',
    llama(5120, 40, 40, 40, 13824, 32000, 4096, 'float16'),
  ),
  preset(
    'llama-2-70b',
    'Llama 2 70B',
    'HF meta-llama/Llama-2-70b-hf config.json',
    llama(8192, 80, 64, 8, 28672, 32000, 4096, 'float16'),
  ),
  preset(
    'llama-3-8b',
    'Llama 3 8B',
    'HF meta-llama/Meta-Llama-3-8B config.json',
    llama(4096, 32, 32, 8, 14336, 128256, 8192, 'bfloat16'),
  ),
  preset(
    'llama-3-70b',
    'Llama 3 70B',
    'HF meta-llama/Meta-Llama-3-70B config.json',
    llama(8192, 80, 64, 8, 28672, 128256, 8192, 'bfloat16'),
  ),
  // v0.1 attends over a 4096-token sliding window (config.json "sliding_window": 4096); 8192 is the estimate's default seq.
  preset('mistral-7b', 'Mistral 7B v0.1', 'HF mistralai/Mistral-7B-v0.1 config.json; arXiv 2310.06825', {
    ...llama(4096, 32, 32, 8, 14336, 32000, 8192, 'bfloat16'),
    slidingWindow: 4096,
  }),
  // Default seq 4096 is this site's choice for estimates; the model accepts 32768.
  preset('mixtral-8x7b', 'Mixtral 8x7B v0.1 (MoE)', 'HF mistralai/Mixtral-8x7B-v0.1 config.json; arXiv 2401.04088', {
    ...llama(4096, 32, 32, 8, 14336, 32000, 4096, 'bfloat16'),
    experts: 8,
    topK: 2,
  }),
  preset('demo-tiny-gpt', 'Demo: tiny GPT (site lab)', 'GPU Memory Lab demo model (src/graphs)', {
    arch: 'gpt2',
    hidden: 64,
    layers: 2,
    heads: 4,
    kvHeads: 4,
    ffn: 256,
    vocab: 256,
    positions: 64,
    tiedEmbeddings: true,
    contextLength: 64,
    // The lab builds its models in float32 (src/graphs).
    storedDtype: 'float32',
  }),
  preset('demo-mlp', 'Demo: MLP (site lab)', 'GPU Memory Lab demo model (src/graphs)', {
    arch: 'mlp',
    hidden: 256,
    layers: 8,
    heads: 1,
    kvHeads: 1,
    ffn: 256,
    vocab: 10,
    positions: 0,
    tiedEmbeddings: false,
    contextLength: 1,
    storedDtype: 'float32',
  }),
  ...CONFIG_PRESETS,
];

/** Look up a model preset by id; undefined when unknown. */
export function getModelPreset(id: string): ModelPreset | undefined {
  return MODELS_BY_ID.get(id);
}
// A map, not a scan: every estimate looks its model up.
const MODELS_BY_ID: ReadonlyMap<string, ModelPreset> = new Map(MODEL_PRESETS.map((p) => [p.id, p]));
