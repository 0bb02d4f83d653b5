/**
 * The Linear modules of a model as Hugging Face Transformers builds it (GPT-2's Conv1D counted as Linear):
 * the list that quantizers replace and that LoRA adapts. Shapes come from the config, never per model.
 */
import { ARCH_TRAITS, kvWidth, queryWidth, type ModelConfig } from './model.ts';

/** The projection a linear layer computes, in the words `--lora-targets` uses. */
export type Projection = 'q' | 'k' | 'v' | 'o' | 'gate' | 'up' | 'down';

/** Every projection, in the order the CLI lists them. */
export const PROJECTIONS: readonly Projection[] = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'];

/**
 * Where a linear layer sits, which decides who quantizes or adapts it:
 * `block` = attention and MLP projections inside the repeated layers (every quantizer and LoRA preset);
 * `router` = a mixture-of-experts gate; `head` = the output layer; `pooler` = BERT's pooler dense layer.
 */
export type LinearRole = 'block' | 'router' | 'head' | 'pooler';

/** One kind of Linear module, repeated `copies` times in the model. */
export interface LinearLayer {
  /** Module path as `model.named_modules()` prints it; `{i}` is the layer index, `{e}` the expert index. */
  module: string;
  /** Projections this module computes: one, or q, k and v together for GPT-2's fused `c_attn`; empty for router, head and pooler. */
  projections: readonly Projection[];
  /** Where the layer sits. */
  role: LinearRole;
  /** Input features (columns of the weight). */
  inFeatures: number;
  /** Output features (rows of the weight). */
  outFeatures: number;
  /**
   * Copies in one repeated layer: experts for expert MLPs, 1 for other block layers and routers, 0 outside the layers
   * (and for the dense MLPs of a mixture-of-experts model's first layers, which not every layer has).
   */
  perLayer: number;
  /** Copies in the whole model: perLayer × layers, or 1 outside the layers. */
  copies: number;
  /** Whether the module has a bias vector (every quantizer keeps it in 16-bit). */
  bias: boolean;
}

/** A layer kind with its shape filled in; `perLayer` copies in each of `layers` repeated layers, or one module outside them (perLayer 0). */
function layer(
  module: string,
  role: LinearRole,
  projections: readonly Projection[],
  inFeatures: number,
  outFeatures: number,
  perLayer: number,
  layers: number,
  bias: boolean,
): LinearLayer {
  return { module, role, projections, inFeatures, outFeatures, perLayer, copies: perLayer === 0 ? 1 : perLayer * layers, bias };
}

/**
 * Llama-family modules (HF `LlamaForCausalLM` and the decoders read from a config.json: Qwen2/3, Gemma 2/3, Phi-3,
 * gpt-oss, DeepSeek; `MixtralForCausalLM` as Transformers 4.x builds it, one nn.Linear per expert and an nn.Linear
 * router). Transformers 5 stores Mixtral's experts as 3-D parameters (`MixtralExperts.gate_up_proj`, `down_proj`):
 * its bitsandbytes integration converts only modules whose type is exactly nn.Linear or Conv1D, and PEFT 0.21 adapts
 * the experts through `target_parameters` with other counts (tests/unit/memory/fixtures/peft-counts-transformers-5.json).
 * This list follows 4.x, the layout of AutoGPTQ/AutoAWQ checkpoints and of the published PEFT runs. Phi-3's fused
 * qkv_proj/gate_up_proj and InternLM2's wqkv hold the same weights as the separate projections listed here.
 */
function llamaLayers(model: ModelConfig): LinearLayer[] {
  const { hidden: h, ffn: f, layers: L, experts: E } = model;
  const denseLayers = model.moe?.denseLayers ?? 0;
  const routed = L - denseLayers;
  const mlp =
    E > 1
      ? [...expertLayers(model, routed), ...sharedExpertLayers(model, routed), ...denseMlpLayers(model, denseLayers)]
      : [
          layer('model.layers.{i}.mlp.gate_proj', 'block', ['gate'], h, f, 1, L, false),
          layer('model.layers.{i}.mlp.up_proj', 'block', ['up'], h, f, 1, L, false),
          layer('model.layers.{i}.mlp.down_proj', 'block', ['down'], f, h, 1, L, false),
        ];
  return [...attentionLayers(model), ...mlp, decoderHead(model)];
}

/** A decoder's head: `lm_head` over the vocabulary, or a classification head's bias-free `score` over the labels. */
function decoderHead(model: ModelConfig): LinearLayer {
  const { hidden: h, layers: L } = model;
  return model.numLabels === undefined
    ? layer('lm_head', 'head', [], h, model.vocab, 0, L, false)
    : layer('score', 'head', [], h, model.numLabels, 0, L, false);
}

/** q, k, v and o projections (q to heads × headDim), or MLA's (HF modeling_deepseek_v3.py DeepseekV3Attention). */
function attentionLayers(model: ModelConfig): LinearLayer[] {
  const { hidden: h, layers: L, heads: a } = model;
  const qkvBias = model.attentionBias?.qkv ?? false;
  const outBias = model.attentionBias?.output ?? false;
  const mla = model.mla;
  if (mla !== undefined) {
    const qkHead = mla.qkNopeHeadDim + mla.qkRopeHeadDim;
    const query =
      mla.qLoraRank === null
        ? [layer('model.layers.{i}.self_attn.q_proj', 'block', ['q'], h, a * qkHead, 1, L, qkvBias)]
        : [
            layer('model.layers.{i}.self_attn.q_a_proj', 'block', ['q'], h, mla.qLoraRank, 1, L, qkvBias),
            layer('model.layers.{i}.self_attn.q_b_proj', 'block', ['q'], mla.qLoraRank, a * qkHead, 1, L, false),
          ];
    return [
      ...query,
      layer(
        'model.layers.{i}.self_attn.kv_a_proj_with_mqa',
        'block',
        ['k', 'v'],
        h,
        mla.kvLoraRank + mla.qkRopeHeadDim,
        1,
        L,
        qkvBias,
      ),
      layer(
        'model.layers.{i}.self_attn.kv_b_proj',
        'block',
        ['k', 'v'],
        mla.kvLoraRank,
        a * (mla.qkNopeHeadDim + mla.vHeadDim),
        1,
        L,
        false,
      ),
      layer('model.layers.{i}.self_attn.o_proj', 'block', ['o'], a * mla.vHeadDim, h, 1, L, outBias),
    ];
  }
  const q = queryWidth(model);
  const kv = kvWidth(model);
  return [
    layer('model.layers.{i}.self_attn.q_proj', 'block', ['q'], h, q, 1, L, qkvBias),
    layer('model.layers.{i}.self_attn.k_proj', 'block', ['k'], h, kv, 1, L, qkvBias),
    layer('model.layers.{i}.self_attn.v_proj', 'block', ['v'], h, kv, 1, L, qkvBias),
    layer('model.layers.{i}.self_attn.o_proj', 'block', ['o'], q, h, 1, L, outBias),
  ];
}

/**
 * Routed experts and the router in `routed` layers. Mixtral names its expert projections w1 (gate), w3 (up), w2 (down)
 * (HF modeling_mixtral.py, MixtralBlockSparseTop2MLP); Qwen-MoE and DeepSeek name them gate_proj, up_proj, down_proj.
 */
function expertLayers(model: ModelConfig, routed: number): LinearLayer[] {
  const { hidden: h, ffn: f, experts: E } = model;
  const bias = model.moe?.expertBias ?? false;
  const mixtral = model.family === undefined || model.family === 'mixtral';
  const prefix = mixtral ? 'model.layers.{i}.block_sparse_moe' : 'model.layers.{i}.mlp';
  const [gate, up, down] = mixtral ? ['w1', 'w3', 'w2'] : ['gate_proj', 'up_proj', 'down_proj'];
  return [
    layer(`${prefix}.experts.{e}.${gate}`, 'block', ['gate'], h, f, E, routed, bias),
    layer(`${prefix}.experts.{e}.${up}`, 'block', ['up'], h, f, E, routed, bias),
    layer(`${prefix}.experts.{e}.${down}`, 'block', ['down'], f, h, E, routed, bias),
    layer(`${prefix}.gate`, 'router', [], h, E, 1, routed, model.moe?.routerBias ?? false),
  ];
}

/** The always-on shared expert of DeepSeek and Qwen2-MoE, in `routed` layers. */
function sharedExpertLayers(model: ModelConfig, routed: number): LinearLayer[] {
  const h = model.hidden;
  const width = model.moe?.sharedFfn ?? 0;
  if (width === 0) return [];
  return [
    layer('model.layers.{i}.mlp.shared_experts.gate_proj', 'block', ['gate'], h, width, 1, routed, false),
    layer('model.layers.{i}.mlp.shared_experts.up_proj', 'block', ['up'], h, width, 1, routed, false),
    layer('model.layers.{i}.mlp.shared_experts.down_proj', 'block', ['down'], width, h, 1, routed, false),
  ];
}

/**
 * The dense MLPs of a mixture-of-experts model's first `count` layers. They are not in every repeated layer, so they
 * count as modules of their own (perLayer 0) with `count` copies.
 */
function denseMlpLayers(model: ModelConfig, count: number): LinearLayer[] {
  const h = model.hidden;
  const f = model.moe?.denseFfn ?? model.ffn;
  if (count === 0) return [];
  return [
    { ...layer('model.layers.{i}.mlp.gate_proj', 'block', ['gate'], h, f, 0, 0, false), copies: count },
    { ...layer('model.layers.{i}.mlp.up_proj', 'block', ['up'], h, f, 0, 0, false), copies: count },
    { ...layer('model.layers.{i}.mlp.down_proj', 'block', ['down'], f, h, 0, 0, false), copies: count },
  ];
}

/** GPT-2 modules (HF `GPT2LMHeadModel`): Conv1D layers, q, k and v fused in `c_attn`; the head is tied to `wte`. */
function gpt2Layers(model: ModelConfig): LinearLayer[] {
  const { hidden: h, ffn: f, layers: L } = model;
  return [
    layer('transformer.h.{i}.attn.c_attn', 'block', ['q', 'k', 'v'], h, h + 2 * kvWidth(model), 1, L, true),
    layer('transformer.h.{i}.attn.c_proj', 'block', ['o'], h, h, 1, L, true),
    layer('transformer.h.{i}.mlp.c_fc', 'block', ['up'], h, f, 1, L, true),
    layer('transformer.h.{i}.mlp.c_proj', 'block', ['down'], f, h, 1, L, true),
    decoderHead(model),
  ];
}

/** BERT modules (HF `BertModel` with pooler; no LM head, matching `countParams`; a classification head's `classifier`). */
function bertLayers(model: ModelConfig): LinearLayer[] {
  const { hidden: h, ffn: f, layers: L } = model;
  const kv = kvWidth(model);
  return [
    layer('encoder.layer.{i}.attention.self.query', 'block', ['q'], h, h, 1, L, true),
    layer('encoder.layer.{i}.attention.self.key', 'block', ['k'], h, kv, 1, L, true),
    layer('encoder.layer.{i}.attention.self.value', 'block', ['v'], h, kv, 1, L, true),
    layer('encoder.layer.{i}.attention.output.dense', 'block', ['o'], h, h, 1, L, true),
    layer('encoder.layer.{i}.intermediate.dense', 'block', ['up'], h, f, 1, L, true),
    layer('encoder.layer.{i}.output.dense', 'block', ['down'], f, h, 1, L, true),
    layer('pooler.dense', 'pooler', [], h, h, 0, L, true),
    ...(model.numLabels === undefined ? [] : [layer('classifier', 'head', [], h, model.numLabels, 0, L, true)]),
  ];
}

/** The site's plain MLP: optional input layer, L hidden Linear+ReLU blocks, classifier head (src/graphs). */
function mlpLayers(model: ModelConfig): LinearLayer[] {
  const { hidden: h, layers: L } = model;
  const input = model.inputs === undefined ? [] : [layer('input', 'block', [], model.inputs, h, 0, L, true)];
  return [...input, layer('hidden.{i}', 'block', [], h, h, 1, L, true), layer('head', 'head', [], h, model.vocab, 0, L, true)];
}

/**
 * Every Linear module kind of `model`, with its shape and copies. Sources: HF Transformers modeling_llama.py,
 * modeling_mixtral.py (4.x), modeling_gpt2.py, modeling_bert.py. A tied head is still listed (it is a module),
 * but its weight is the embedding's: `isHeadTied` tells callers not to count it twice.
 */
export function linearLayers(model: ModelConfig): readonly LinearLayer[] {
  // Listed once per shape: autocast's weight copies read them on every estimate the planner runs (npm run bench).
  let listed = LISTED.get(model);
  if (listed === undefined) LISTED.set(model, (listed = listLayers(model)));
  return listed;
}
const LISTED = new WeakMap<ModelConfig, readonly LinearLayer[]>();

function listLayers(model: ModelConfig): LinearLayer[] {
  if (model.arch === 'llama') return llamaLayers(model);
  if (model.arch === 'gpt2') return gpt2Layers(model);
  if (model.arch === 'bert') return bertLayers(model);
  return mlpLayers(model);
}

/** Whether `layer` is an LM head whose weight is the token embedding (GPT-2, tied Llama variants; never a classification head). */
export function isHeadTied(model: ModelConfig, linear: LinearLayer): boolean {
  return linear.role === 'head' && model.tiedEmbeddings && model.numLabels === undefined && ARCH_TRAITS[model.arch].transformer;
}

/** Weight elements of one copy of `linear`: in × out. */
export function linearWeightParams(linear: LinearLayer): number {
  return linear.inFeatures * linear.outFeatures;
}

/** Weight elements every matmul reads (each Linear once, a tied head as the embedding it reuses): what autocast casts. */
export function matmulWeightParams(model: ModelConfig, role?: LinearRole): number {
  return linearLayers(model)
    .filter((linear) => role === undefined || linear.role === role)
    .reduce((sum, linear) => sum + linearWeightParams(linear) * linear.copies, 0);
}
