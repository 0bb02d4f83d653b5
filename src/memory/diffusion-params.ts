/**
 * Parameter counts of a diffusion pipeline's parts, tensor by tensor as diffusers and Transformers build them: the
 * transformer from its diffusers config (`DitShape`), and the T5 and CLIP text encoders from their config.json keys.
 * Module layouts: diffusers 0.40.0.dev0 (commit 58eb52c) models/transformers/transformer_wan.py (`WanAttention` lines
 * 199–209, `WanTimeTextImageEmbedding` 320–323, `WanTransformerBlock` 434–460, `WanTransformer3DModel` 598–624),
 * transformer_flux.py (`FluxAttention` 316–333, `FluxSingleTransformerBlock` 364–367, `FluxTransformerBlock` 422–441,
 * `FluxTransformer2DModel` 633–666), embeddings.py (`TimestepEmbedding`, `PixArtAlphaTextProjection`) and
 * normalization.py (`AdaLayerNormZero` 6·dim, `AdaLayerNormZeroSingle` 3·dim, `AdaLayerNormContinuous` 2·dim);
 * Transformers models/t5/modeling_t5.py and models/clip/modeling_clip.py.
 */
import type { DitShape, FluxShape, WanShape } from './diffusion-config.ts';

/** A transformer's parameters, and how many of them diffusers' layerwise casting stores in fp8. */
export interface DitParamCounts {
  /** Every parameter the checkpoint holds. */
  readonly total: number;
  /**
   * Parameters of the Linear and Conv layers that `enable_layerwise_casting(storage_dtype=torch.float8_e4m3fn)` stores
   * in fp8: every such layer except those whose name matches the skip patterns (hooks/layerwise_casting.py line 31
   * `DEFAULT_SKIP_MODULES_PATTERN`, plus the class's `_keep_in_fp32_modules` and `_skip_layerwise_casting_patterns`,
   * modeling_utils.py lines 498–505). The rest stays in the compute dtype.
   */
  readonly fp8Stored: number;
  /** Parameters of the largest fp8-stored Linear: the hook upcasts one layer at a time to the compute dtype to run it. */
  readonly largestCastLinear: number;
}

/** nn.Linear(inputs, outputs) with a bias. */
const linear = (inputs: number, outputs: number) => inputs * outputs + outputs;

/** diffusers `TimestepEmbedding(in, dim)` and `PixArtAlphaTextProjection(in, dim)`: two biased Linears, in→dim→dim. */
const twoLayerEmbedder = (inputs: number, dim: number) => linear(inputs, dim) + linear(dim, dim);

function wanParams(shape: WanShape): DitParamCounts {
  const dim = shape.heads * shape.headDim;
  const [pt, ph, pw] = shape.patchSize;
  const patchCells = pt * ph * pw;
  // WanAttention: to_q, to_k, to_v, to_out[0], each dim→dim with bias; norm_q, norm_k RMSNorm(dim) with a weight.
  const attentionLinears = 4 * linear(dim, dim);
  const attentionNorms = 2 * dim;
  // FeedForward(dim, inner_dim=ffn_dim, "gelu-approximate"): proj dim→ffn, then ffn→dim.
  const ffnLinears = linear(dim, shape.ffnDim) + linear(shape.ffnDim, dim);
  const blockLinears = 2 * attentionLinears + ffnLinears;
  // norm2 (affine FP32LayerNorm when cross_attn_norm) and the block's scale_shift_table (1, 6, dim).
  const block = blockLinears + 2 * attentionNorms + (shape.crossAttnNorm ? 2 * dim : 0) + 6 * dim;
  const patchEmbedding = shape.inChannels * dim * patchCells + dim;
  // time_embedder freq→dim→dim, time_proj dim→6·dim, text_embedder text→dim→dim.
  const conditionEmbedder = twoLayerEmbedder(shape.freqDim, dim) + linear(dim, 6 * dim) + twoLayerEmbedder(shape.textDim, dim);
  const head = linear(dim, shape.outChannels * patchCells) + 2 * dim;
  return {
    total: patchEmbedding + conditionEmbedder + shape.layers * block + head,
    // Skipped: patch_embedding, condition_embedder (WanTransformer3DModel._skip_layerwise_casting_patterns) and
    // proj_out ("^proj_out$"); the blocks' attention and feed-forward Linears are cast.
    fp8Stored: shape.layers * blockLinears,
    largestCastLinear: Math.max(linear(dim, shape.ffnDim), linear(shape.ffnDim, dim), linear(dim, dim)),
  };
}

function fluxParams(shape: FluxShape): DitParamCounts {
  const dim = shape.heads * shape.headDim;
  const mlp = 4 * dim; // mlp_ratio 4.0 (FluxSingleTransformerBlock) and FeedForward's default mult 4
  const qkNorms = 2 * shape.headDim; // norm_q, norm_k: RMSNorm(head_dim)
  const qkv = 3 * linear(dim, dim);
  // Double block: norm1 and norm1_context AdaLayerNormZero (dim→6·dim each); joint attention with the text stream's
  // add_q/k/v_proj and to_add_out; ff and ff_context.
  const doubleLinears = 2 * (qkv + linear(dim, dim)) + 2 * (linear(dim, mlp) + linear(mlp, dim));
  const doubleBlock = 2 * linear(dim, 6 * dim) + 2 * qkNorms + doubleLinears;
  // Single block: norm AdaLayerNormZeroSingle (dim→3·dim), proj_mlp dim→4·dim, proj_out 5·dim→dim, q/k/v (no to_out).
  const singleLinears = linear(dim, mlp) + linear(dim + mlp, dim) + qkv;
  const singleBlock = linear(dim, 3 * dim) + qkNorms + singleLinears;
  // time_text_embed: timestep (256→dim→dim), guidance (same, when guidance_embeds) and the pooled text projection.
  const timeTextEmbed =
    twoLayerEmbedder(256, dim) * (shape.guidanceEmbeds ? 2 : 1) + twoLayerEmbedder(shape.pooledProjectionDim, dim);
  const embedders = timeTextEmbed + linear(shape.jointAttentionDim, dim) + linear(shape.inChannels, dim);
  const normOut = linear(dim, 2 * dim);
  const projOut = linear(dim, shape.patchSize * shape.patchSize * shape.outChannels);
  return {
    total: embedders + shape.layers * doubleBlock + shape.singleLayers * singleBlock + normOut + projOut,
    // Skipped: every module under a name holding "norm" (the AdaLayerNorm Linears) and the top-level proj_out.
    fp8Stored: embedders + shape.layers * doubleLinears + shape.singleLayers * singleLinears,
    largestCastLinear: Math.max(linear(dim + mlp, dim), linear(dim, mlp), linear(mlp, dim), linear(shape.jointAttentionDim, dim)),
  };
}

/** Count a diffusion transformer's parameters from its shape. */
export function countDitParams(shape: DitShape): DitParamCounts {
  return shape.family === 'wan' ? wanParams(shape) : fluxParams(shape);
}

/** A T5 encoder's shape: the keys of its config.json (`T5Config`, also used by UMT5). */
export interface T5EncoderShape {
  /** `vocab_size`. */
  readonly vocab: number;
  /** `d_model`. */
  readonly dModel: number;
  /** `d_kv` × `num_heads`: the attention's inner width. */
  readonly dKv: number;
  readonly heads: number;
  /** `d_ff`, gated (`feed_forward_proj` "gated-gelu": wi_0 and wi_1). */
  readonly dFf: number;
  /** `num_layers`. */
  readonly layers: number;
  /** `relative_attention_num_buckets`. */
  readonly buckets: number;
  /** UMT5 gives every layer its own relative position bias; T5 only the first layer. */
  readonly biasInEveryLayer: boolean;
}

/**
 * Parameters of `T5EncoderModel`/`UMT5EncoderModel`: the shared embedding (the encoder's embed_tokens is the same tensor),
 * per layer q/k/v/o without bias, a gated feed-forward (wi_0, wi_1, wo) and two RMSNorm weights, the relative position
 * bias (buckets × heads) and the final norm.
 */
export function t5EncoderParams(shape: T5EncoderShape): number {
  const inner = shape.dKv * shape.heads;
  const layer = 4 * shape.dModel * inner + 3 * shape.dModel * shape.dFf + 2 * shape.dModel;
  const positionBias = shape.buckets * shape.heads * (shape.biasInEveryLayer ? shape.layers : 1);
  return shape.vocab * shape.dModel + shape.layers * layer + positionBias + shape.dModel;
}

/** A CLIP text tower's shape: the keys of its `text_config`. */
export interface ClipTextShape {
  /** `vocab_size`. */
  readonly vocab: number;
  /** `max_position_embeddings`. */
  readonly positions: number;
  /** `hidden_size`. */
  readonly hidden: number;
  /** `intermediate_size`. */
  readonly intermediate: number;
  /** `num_hidden_layers`. */
  readonly layers: number;
}

/**
 * Parameters of `CLIPTextModel`: token and position embeddings, per layer two LayerNorms, biased q/k/v/out and a
 * biased fc1/fc2 MLP, and the final LayerNorm (no projection: diffusers pipelines load CLIPTextModel).
 */
export function clipTextParams(shape: ClipTextShape): number {
  const layer = 2 * 2 * shape.hidden + 4 * linear(shape.hidden, shape.hidden) + linear(shape.hidden, shape.intermediate);
  const mlpOut = linear(shape.intermediate, shape.hidden);
  return (shape.vocab + shape.positions) * shape.hidden + shape.layers * (layer + mlpOut) + 2 * shape.hidden;
}
