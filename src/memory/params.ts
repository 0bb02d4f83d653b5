/** Parameter counts from the architecture formula (never hard-coded per model). */
import { ARCH_TRAITS, kvWidth, type ModelConfig } from './model.ts';

/** Parameter counts of a model, split the way sharding and pipelining need them. All counts in parameters. */
export interface ParamCounts {
  /**
   * Token embedding V·h (plus, for bert, position and token-type tables and the embedding LayerNorm; for gpt2, positions);
   * for an `mlp` with `inputs`, its input layer d·h + h, which like an embedding sits before the repeated layers.
   */
  embeddings: number;
  /** Token-embedding matrix alone, V·h (vocab-parallel under tensor parallelism). */
  tokenEmbedding: number;
  /** Parameters of one transformer layer (or one `mlp` hidden block). */
  perLayer: number;
  /** Part of `perLayer` that tensor parallelism splits (weight matrices and column-parallel biases). */
  perLayerTensorParallel: number;
  /** All layers: perLayer × L. */
  layers: number;
  /** Final norm before the head (gpt2 ln_f, llama norm); 0 for bert and mlp. */
  finalNorm: number;
  /** Untied output head (llama lm_head, mlp classifier); 0 when tied to the embedding. */
  head: number;
  /** bert pooler dense layer h² + h; 0 otherwise. */
  pooler: number;
  /** Total parameters. */
  total: number;
  /** Parameters a token actually uses (MoE: only top-k experts); equals total for dense models. */
  active: number;
  /** Largest single module's parameters (DeepSpeed's "largest layer", e.g. the embedding). */
  largestModule: number;
}

/** Per-layer attention parameters: Q, K, V and output projections plus biases. */
function attentionParams(model: ModelConfig, biases: boolean): { total: number; tensorParallel: number } {
  const h = model.hidden;
  const qkvOut = h + 2 * kvWidth(model);
  const qkv = h * qkvOut + (biases ? qkvOut : 0);
  const out = h * h;
  const outBias = biases ? h : 0;
  return { total: qkv + out + outBias, tensorParallel: qkv + out };
}

/** Per-expert MLP parameters: GELU has fc1 + fc2 (with biases), SwiGLU has gate, up, down. */
function mlpParams(model: ModelConfig): { total: number; tensorParallel: number; largest: number } {
  const { hidden: h, ffn: f } = model;
  const traits = ARCH_TRAITS[model.arch];
  if (traits.mlp === 'swiglu') return { total: 3 * h * f, tensorParallel: 3 * h * f, largest: h * f };
  const bias = traits.biases;
  const fc1 = h * f + (bias ? f : 0);
  const fc2 = f * h;
  const fc2Bias = bias ? h : 0;
  return { total: fc1 + fc2 + fc2Bias, tensorParallel: fc1 + fc2, largest: fc1 };
}

/** Norm parameters for one norm of width h: LayerNorm has weight and bias, RMSNorm only weight. */
function normParams(model: ModelConfig): number {
  const norm = ARCH_TRAITS[model.arch].norm;
  if (norm === 'layernorm') return 2 * model.hidden;
  if (norm === 'rmsnorm') return model.hidden;
  return 0;
}

/**
 * Count parameters of `model` from its shape.
 * Formulas: GPT-2 12h² + 13h per layer (Radford et al. 2019, HF GPT2Model);
 * Llama 2h² + 2h·kv·d + 3hf + 2h per layer (HF LlamaModel); BERT as GPT-2 plus pooler (HF BertModel);
 * mlp L(h² + h) + hV + V, plus d·h + h for an input layer of d features (a Linear layer's weight and bias).
 */
export function countParams(model: ModelConfig): ParamCounts {
  // Once per shape object: a preset's shape is shared by every estimate of that model (validate.ts presetShape).
  let counts = COUNTS.get(model);
  if (counts === undefined) COUNTS.set(model, (counts = countShape(model)));
  return counts;
}
const COUNTS = new WeakMap<ModelConfig, ParamCounts>();

function countShape(model: ModelConfig): ParamCounts {
  const h = model.hidden;
  const V = model.vocab;
  const L = model.layers;
  if (model.arch === 'mlp') {
    const perLayer = h * h + h;
    const head = h * V + V;
    const inputLayer = model.inputs === undefined ? 0 : model.inputs * h + h;
    const total = inputLayer + perLayer * L + head;
    return {
      embeddings: inputLayer,
      tokenEmbedding: 0,
      perLayer,
      perLayerTensorParallel: perLayer,
      layers: perLayer * L,
      finalNorm: 0,
      head,
      pooler: 0,
      total,
      active: total,
      largestModule: Math.max(inputLayer, perLayer, head),
    };
  }
  const biases = ARCH_TRAITS[model.arch].biases;
  const attention = attentionParams(model, biases);
  const mlp = mlpParams(model);
  const router = model.experts > 1 ? h * model.experts : 0;
  const norms = 2 * normParams(model);
  const perLayer = attention.total + model.experts * mlp.total + router + norms;
  const perLayerActive = attention.total + model.topK * mlp.total + router + norms;
  const perLayerTensorParallel = attention.tensorParallel + model.experts * mlp.tensorParallel;
  const tokenEmbedding = V * h;
  const positions = model.positions * h;
  const bertExtras = model.arch === 'bert' ? 2 * h + 2 * h : 0; // token-type table (2 types) + embedding LayerNorm
  const embeddings = tokenEmbedding + positions + bertExtras;
  const finalNorm = ARCH_TRAITS[model.arch].finalNorm ? normParams(model) : 0;
  const head = model.tiedEmbeddings ? 0 : V * h;
  const pooler = model.arch === 'bert' ? h * h + h : 0;
  const outside = embeddings + finalNorm + head + pooler;
  const total = perLayer * L + outside;
  // HF GPT-2/BERT fuse Q, K, V into one module; Llama keeps q_proj separate (the largest of the three).
  const qkvModule = model.arch === 'llama' ? h * h : h * (h + 2 * kvWidth(model)) + (biases ? h + 2 * kvWidth(model) : 0);
  return {
    embeddings,
    tokenEmbedding,
    perLayer,
    perLayerTensorParallel,
    layers: perLayer * L,
    finalNorm,
    head,
    pooler,
    total,
    active: perLayerActive * L + outside,
    largestModule: Math.max(tokenEmbedding, head, qkvModule, mlp.largest, pooler),
  };
}
