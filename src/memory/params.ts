/** Parameter counts from the architecture formula (never hard-coded per model). */
import { ARCH_TRAITS, classifierParams, headDim, kvWidth, queryWidth, type MlaShape, type ModelConfig } from './model.ts';

/** Parameter counts of a model, split the way sharding and pipelining need them. All counts in parameters. */
export interface ParamCounts {
  /**
   * Token embedding V·h (plus, for bert, position and token-type tables and the embedding LayerNorm; for gpt2, positions);
   * for an `mlp` with `inputs`, its input layer d·h + h, which like an embedding sits before the repeated layers.
   */
  embeddings: number;
  /** Token-embedding matrix alone, V·h (vocab-parallel under tensor parallelism). */
  tokenEmbedding: number;
  /** Parameters of one transformer layer (or one `mlp` hidden block); in a mixture-of-experts model, a routed layer. */
  perLayer: number;
  /** Part of `perLayer` that tensor parallelism splits (weight matrices and column-parallel biases). */
  perLayerTensorParallel: number;
  /**
   * Leading layers lighter than `perLayer` because their MLP is dense in a mixture-of-experts model (DeepSeek
   * `first_k_dense_replace`); 0 when every layer is alike.
   */
  denseLayers: number;
  /** Parameters of one such dense layer; 0 when there are none. */
  denseLayer: number;
  /** Part of `denseLayer` that tensor parallelism splits. */
  denseLayerTensorParallel: number;
  /** All layers: perLayer × (L − denseLayers) + denseLayer × denseLayers. */
  layers: number;
  /** Final norm before the head (gpt2 ln_f, llama norm); 0 for bert and mlp. */
  finalNorm: number;
  /** Untied output head (llama lm_head, mlp classifier) or a classification head (`score`); 0 when tied to the embedding. */
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

/** Parameters of one part of a layer: all of them, and those tensor parallelism splits (weight matrices, column-parallel biases). */
interface PartParams {
  total: number;
  tensorParallel: number;
}

/**
 * Per-layer attention parameters (HF LlamaAttention, Qwen2/Qwen3Attention, GptOssAttention, GPT2Attention):
 * q to heads × headDim, k and v to kvHeads × headDim, o back to h, each with the bias the model has;
 * per-head q/k RMSNorms (Qwen3, Gemma 3: headDim each) and gpt-oss's per-head sink logits are replicated.
 */
function attentionParams(model: ModelConfig): PartParams {
  if (model.mla !== undefined) return latentAttentionParams(model, model.mla);
  const h = model.hidden;
  const biases = ARCH_TRAITS[model.arch].biases;
  const qkvBias = model.attentionBias?.qkv ?? biases;
  const outBias = model.attentionBias?.output ?? biases;
  const qOut = queryWidth(model);
  const qkvOut = qOut + 2 * kvWidth(model);
  const qkv = h * qkvOut + (qkvBias ? qkvOut : 0);
  const out = qOut * h;
  const replicated =
    (outBias ? h : 0) + (model.qkNorm === true ? 2 * headDim(model) : 0) + (model.attentionSinks === true ? model.heads : 0);
  return { total: qkv + out + replicated, tensorParallel: qkv + out };
}

/**
 * Multi-head latent attention (HF modeling_deepseek_v3.py DeepseekV3Attention; arXiv 2405.04434 §2.1):
 * q_a_proj h·r_q + q_a_layernorm r_q + q_b_proj r_q·a·(d_nope + d_rope), or one q_proj h·a·(d_nope + d_rope) when
 * q_lora_rank is null; kv_a_proj_with_mqa h·(r_kv + d_rope) + kv_a_layernorm r_kv; kv_b_proj r_kv·a·(d_nope + d_v);
 * o_proj a·d_v·h. `attention_bias` adds biases to q_a/q_proj, kv_a and o_proj only.
 */
function latentAttentionParams(model: ModelConfig, mla: MlaShape): PartParams {
  const h = model.hidden;
  const a = model.heads;
  const qkHead = mla.qkNopeHeadDim + mla.qkRopeHeadDim;
  const qkvBias = model.attentionBias?.qkv ?? false;
  const outBias = model.attentionBias?.output ?? false;
  const qIn = mla.qLoraRank === null ? h * a * qkHead : h * mla.qLoraRank + mla.qLoraRank * a * qkHead;
  const qBias = qkvBias ? (mla.qLoraRank ?? a * qkHead) : 0;
  const qNorm = mla.qLoraRank ?? 0;
  const kvA = h * (mla.kvLoraRank + mla.qkRopeHeadDim) + (qkvBias ? mla.kvLoraRank + mla.qkRopeHeadDim : 0);
  const kvB = mla.kvLoraRank * a * (mla.qkNopeHeadDim + mla.vHeadDim);
  const out = a * mla.vHeadDim * h;
  const tensorParallel = qIn + qBias + kvA + kvB + out;
  return { total: tensorParallel + qNorm + mla.kvLoraRank + (outBias ? h : 0), tensorParallel };
}

/** Per-expert MLP parameters at width `f`: GELU has fc1 + fc2 (with biases), SwiGLU has gate, up, down (gpt-oss adds their biases). */
function mlpParams(model: ModelConfig, f: number, expertBias = false): PartParams & { largest: number } {
  const h = model.hidden;
  const traits = ARCH_TRAITS[model.arch];
  if (traits.mlp === 'swiglu') {
    // gpt-oss: gate_up_proj_bias (2f) is column-parallel, down_proj_bias (h) is added after the row-parallel reduce.
    const bias = expertBias ? 2 * f + h : 0;
    return { total: 3 * h * f + bias, tensorParallel: 3 * h * f + (expertBias ? 2 * f : 0), largest: h * f };
  }
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

/** The MLP side of a layer: routed experts (all and top-k), router, shared expert; or one dense MLP. */
interface MlpSide {
  total: number;
  active: number;
  tensorParallel: number;
  largest: number;
}

/**
 * One layer's MLP side. Dense: one MLP of width `ffn`. Mixture of experts (HF MixtralSparseMoeBlock, Qwen2/3MoeSparseMoeBlock,
 * DeepseekV3MoE, GptOssMLP): E experts of width `ffn`, a router Linear(h → E) with gpt-oss's bias and DeepSeek-V3's
 * e_score_correction_bias (E), and an always-on shared expert (DeepSeek, Qwen2-MoE, whose shared_expert_gate is Linear(h → 1)).
 */
function mlpSide(model: ModelConfig): MlpSide {
  const h = model.hidden;
  const moe = model.moe;
  const expert = mlpParams(model, model.ffn, moe?.expertBias === true);
  if (model.experts === 1)
    return { total: expert.total, active: expert.total, tensorParallel: expert.tensorParallel, largest: expert.largest };
  const router =
    h * model.experts + (moe?.routerBias === true ? model.experts : 0) + (moe?.correctionBias === true ? model.experts : 0);
  const shared = moe === undefined || moe.sharedFfn === 0 ? null : mlpParams(model, moe.sharedFfn);
  const sharedTotal = (shared?.total ?? 0) + (moe?.sharedExpertGate === true ? h : 0);
  return {
    total: model.experts * expert.total + router + sharedTotal,
    active: model.topK * expert.total + router + sharedTotal,
    tensorParallel: model.experts * expert.tensorParallel + (shared?.tensorParallel ?? 0),
    largest: Math.max(expert.largest, shared?.largest ?? 0),
  };
}

/**
 * Count parameters of `model` from its shape.
 * Formulas: GPT-2 12h² + 13h per layer (Radford et al. 2019, HF GPT2Model);
 * Llama 2h² + 2h·kv·d + 3hf + 2h per layer (HF LlamaModel), with the head width, biases, norms, latent attention
 * and experts of the decoders read from a config.json (see attentionParams, latentAttentionParams, mlpSide);
 * BERT as GPT-2 plus pooler (HF BertModel);
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
      denseLayers: 0,
      denseLayer: 0,
      denseLayerTensorParallel: 0,
      layers: perLayer * L,
      finalNorm: 0,
      head,
      pooler: 0,
      total,
      active: total,
      largestModule: Math.max(inputLayer, perLayer, head),
    };
  }
  const attention = attentionParams(model);
  const mlp = mlpSide(model);
  const norms = (model.normsPerLayer ?? 2) * normParams(model);
  const perLayer = attention.total + mlp.total + norms;
  const perLayerActive = attention.total + mlp.active + norms;
  const perLayerTensorParallel = attention.tensorParallel + mlp.tensorParallel;
  // Layers whose MLP is dense in a mixture-of-experts model (DeepSeek's first_k_dense_replace).
  const denseLayers = model.moe?.denseLayers ?? 0;
  const denseMlp = denseLayers === 0 || model.moe === undefined ? null : mlpParams(model, model.moe.denseFfn);
  const denseLayer = denseMlp === null ? 0 : attention.total + denseMlp.total + norms;
  const denseLayerTensorParallel = denseMlp === null ? 0 : attention.tensorParallel + denseMlp.tensorParallel;
  const layers = perLayer * (L - denseLayers) + denseLayer * denseLayers;
  const tokenEmbedding = V * h;
  const positions = model.positions * h;
  const bertExtras = model.arch === 'bert' ? 2 * h + 2 * h : 0; // token-type table (2 types) + embedding LayerNorm
  const embeddings = tokenEmbedding + positions + bertExtras;
  const finalNorm = ARCH_TRAITS[model.arch].finalNorm ? normParams(model) : 0;
  // A classification head is its own matrix, never tied (it has labels, not the vocabulary, as rows).
  const head = model.numLabels !== undefined ? classifierParams(model) : model.tiedEmbeddings ? 0 : V * h;
  const pooler = model.arch === 'bert' ? h * h + h : 0;
  const outside = embeddings + finalNorm + head + pooler;
  const total = layers + outside;
  return {
    embeddings,
    tokenEmbedding,
    perLayer,
    perLayerTensorParallel,
    denseLayers,
    denseLayer,
    denseLayerTensorParallel,
    layers,
    finalNorm,
    head,
    pooler,
    total,
    active: perLayerActive * (L - denseLayers) + denseLayer * denseLayers + outside,
    largestModule: Math.max(tokenEmbedding, head, largestAttentionModule(model), mlp.largest, denseMlp?.largest ?? 0, pooler),
  };
}

/** The largest attention module: HF GPT-2/BERT fuse Q, K, V into one; Llama-family models keep q_proj separate; MLA's largest projection. */
function largestAttentionModule(model: ModelConfig): number {
  const h = model.hidden;
  const mla = model.mla;
  if (mla !== undefined) {
    const qkHead = mla.qkNopeHeadDim + mla.qkRopeHeadDim;
    const q =
      mla.qLoraRank === null ? h * model.heads * qkHead : Math.max(h * mla.qLoraRank, mla.qLoraRank * model.heads * qkHead);
    return Math.max(q, mla.kvLoraRank * model.heads * (mla.qkNopeHeadDim + mla.vHeadDim), model.heads * mla.vHeadDim * h);
  }
  if (model.arch === 'llama') return h * queryWidth(model);
  const qkvOut = h + 2 * kvWidth(model);
  return h * qkvOut + (ARCH_TRAITS[model.arch].biases ? qkvOut : 0);
}
