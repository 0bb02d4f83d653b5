/**
 * Parameter counts of a diffusion pipeline's parts, tensor by tensor as diffusers and Transformers build them: the
 * transformer from its diffusers config (`DitShape`), and the T5 and CLIP text encoders from their config.json keys.
 * Module layouts: diffusers 0.40.0.dev0 (commit 58eb52c) models/transformers/transformer_wan.py (`WanAttention` lines
 * 199–209, `WanTimeTextImageEmbedding` 320–323, `WanTransformerBlock` 434–460, `WanTransformer3DModel` 598–624),
 * transformer_flux.py (`FluxAttention` 316–333, `FluxSingleTransformerBlock` 364–367, `FluxTransformerBlock` 422–441,
 * `FluxTransformer2DModel` 633–666), transformer_sd3.py (`SD3Transformer2DModel` 142–170), attention.py
 * (`JointTransformerBlock` 594–666: the last, context-pre-only block has no `to_add_out` and no `ff_context`),
 * embeddings.py (`TimestepEmbedding`, `PixArtAlphaTextProjection`; `PatchEmbed`'s sin-cos table is a persistent buffer
 * when `pos_embed_max_size` is set, lines 527–528) and normalization.py (`AdaLayerNormZero` 6·dim,
 * `AdaLayerNormZeroSingle` 3·dim, `AdaLayerNormContinuous` 2·dim); Transformers models/t5/modeling_t5.py and
 * models/clip/modeling_clip.py.
 */
import type { DitShape, FluxShape, Sd3Shape, WanShape } from './diffusion-config.ts';

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
  /** Values of persistent buffers the checkpoint stores beside the parameters (SD3's sin-cos position table). */
  readonly buffers: number;
  /**
   * The transformer's blocks (the children that are a `ModuleList`, which block-level group offloading splits into one
   * group per block: hooks/group_offloading.py line 748, diffusers 0.40.0.dev0): all of them together, and the largest one.
   */
  readonly blocks: { readonly all: BlockParams; readonly largest: BlockParams };
  /**
   * Parameters of the largest module holding parameters of its own (a Linear, a Conv, a norm): what sequential CPU
   * offload brings to the GPU at once (accelerate 1.15.0.dev0 hooks.py lines 532–537: `attach_align_device_hook` hooks every module with direct tensors).
   */
  readonly largestLeaf: number;
}

/** Parameters of one or more transformer blocks, and how many of them layerwise casting stores in fp8. */
export interface BlockParams {
  readonly params: number;
  readonly fp8Stored: number;
}

const times = (count: number, block: BlockParams): BlockParams => ({
  params: count * block.params,
  fp8Stored: count * block.fp8Stored,
});

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
  // Image-to-video: the cross-attention's add_k_proj and add_v_proj (added_kv_proj_dim→dim, with bias) and its
  // norm_added_k RMSNorm(dim) (WanAttention lines 211–215).
  const imageKv = shape.addedKvProjDim === null ? 0 : 2 * linear(shape.addedKvProjDim, dim);
  const imageKvNorm = shape.addedKvProjDim === null ? 0 : dim;
  const blockLinears = 2 * attentionLinears + ffnLinears + imageKv;
  // norm2 (affine FP32LayerNorm when cross_attn_norm) and the block's scale_shift_table (1, 6, dim).
  const block = blockLinears + 2 * attentionNorms + imageKvNorm + (shape.crossAttnNorm ? 2 * dim : 0) + 6 * dim;
  const patchEmbedding = shape.inChannels * dim * patchCells + dim;
  // time_embedder freq→dim→dim, time_proj dim→6·dim, text_embedder text→dim→dim.
  // WanImageEmbedding (lines 284–290): affine FP32LayerNorm(image_dim), FeedForward(image_dim, dim, mult=1, "gelu")
  // (image_dim→image_dim→dim), affine FP32LayerNorm(dim).
  const imageEmbedder =
    shape.imageDim === null
      ? 0
      : 2 * shape.imageDim + linear(shape.imageDim, shape.imageDim) + linear(shape.imageDim, dim) + 2 * dim;
  const conditionEmbedder =
    twoLayerEmbedder(shape.freqDim, dim) + linear(dim, 6 * dim) + twoLayerEmbedder(shape.textDim, dim) + imageEmbedder;
  const head = linear(dim, shape.outChannels * patchCells) + 2 * dim;
  return {
    total: patchEmbedding + conditionEmbedder + shape.layers * block + head,
    // Skipped: patch_embedding, condition_embedder (WanTransformer3DModel._skip_layerwise_casting_patterns) and
    // proj_out ("^proj_out$"); the blocks' attention and feed-forward Linears are cast.
    fp8Stored: shape.layers * blockLinears,
    largestCastLinear: Math.max(linear(dim, shape.ffnDim), linear(shape.ffnDim, dim), linear(dim, dim)),
    buffers: 0,
    blocks: {
      all: times(shape.layers, { params: block, fp8Stored: blockLinears }),
      largest: { params: block, fp8Stored: blockLinears },
    },
    largestLeaf: Math.max(
      linear(dim, 6 * dim),
      linear(dim, shape.ffnDim),
      linear(shape.ffnDim, dim),
      linear(shape.textDim, dim),
      patchEmbedding,
      linear(dim, shape.outChannels * patchCells),
    ),
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
    buffers: 0,
    blocks: {
      all: {
        params: shape.layers * doubleBlock + shape.singleLayers * singleBlock,
        fp8Stored: shape.layers * doubleLinears + shape.singleLayers * singleLinears,
      },
      largest:
        doubleBlock >= singleBlock
          ? { params: doubleBlock, fp8Stored: doubleLinears }
          : { params: singleBlock, fp8Stored: singleLinears },
    },
    // The AdaLayerNormZero Linear (dim→6·dim) of the double blocks, or the single block's proj_out (5·dim→dim).
    largestLeaf: Math.max(linear(dim, 6 * dim), linear(dim + mlp, dim), linear(dim, mlp), linear(mlp, dim)),
  };
}

function sd3Params(shape: Sd3Shape): DitParamCounts {
  const dim = shape.heads * shape.headDim;
  const mlp = 4 * dim; // FeedForward's default mult 4
  const feedForward = linear(dim, mlp) + linear(mlp, dim);
  // Joint attention: to_q/k/v and to_out on the image stream, add_q/k/v_proj and to_add_out on the text stream.
  const attention = 8 * linear(dim, dim);
  // qk_norm "rms_norm" (SD3.5): norm_q, norm_k, norm_added_q and norm_added_k, each RMSNorm(head_dim) with a weight
  // (attention_processor.py lines 207–209, 285–287).
  const qkNorms = shape.qkNorm ? 4 * shape.headDim : 0;
  // MMDiT-X blocks (use_dual_attention, attention.py lines 645–656): attn2 over the image stream (to_q/k/v, to_out
  // with bias, its own q/k norms), and norm1 is SD35AdaLayerNormZeroX (dim→9·dim) instead of AdaLayerNormZero.
  const dualLinears = 4 * linear(dim, dim);
  const dualExtra = dualLinears + (shape.qkNorm ? 2 * shape.headDim : 0) + linear(dim, 9 * dim) - linear(dim, 6 * dim);
  const dualBlocks = shape.dualAttentionLayers.length;
  // Every block but the last: norm1 and norm1_context AdaLayerNormZero (dim→6·dim), attention, ff and ff_context.
  const jointLinears = attention + 2 * feedForward;
  const joint = 2 * linear(dim, 6 * dim) + jointLinears + qkNorms;
  // The last block (context_pre_only): norm1_context is AdaLayerNormContinuous (dim→2·dim), no to_add_out, no ff_context.
  const lastLinears = attention - linear(dim, dim) + feedForward;
  const last = linear(dim, 6 * dim) + linear(dim, 2 * dim) + lastLinears + qkNorms;
  const largest: BlockParams =
    dualBlocks > 0
      ? { params: joint + dualExtra, fp8Stored: jointLinears + dualLinears }
      : { params: joint, fp8Stored: jointLinears };
  const patchEmbed = shape.inChannels * dim * shape.patchSize * shape.patchSize + dim;
  // time_text_embed: timestep (256→dim→dim) and the pooled text projection; context_embedder joint→caption width.
  const embedders =
    twoLayerEmbedder(256, dim) +
    twoLayerEmbedder(shape.pooledProjectionDim, dim) +
    linear(shape.jointAttentionDim, shape.captionProjectionDim);
  const head = linear(dim, 2 * dim) + linear(dim, shape.patchSize * shape.patchSize * shape.outChannels);
  return {
    total: patchEmbed + embedders + (shape.layers - 1) * joint + last + dualBlocks * dualExtra + head,
    // Skipped: pos_embed (the patch embedding), every module under a name holding "norm", and the top-level proj_out.
    fp8Stored: embedders + (shape.layers - 1) * jointLinears + lastLinears + dualBlocks * dualLinears,
    largestCastLinear: Math.max(linear(dim, mlp), linear(mlp, dim), linear(shape.jointAttentionDim, shape.captionProjectionDim)),
    buffers: shape.posEmbedMaxSize * shape.posEmbedMaxSize * dim,
    blocks: {
      all: {
        params: (shape.layers - 1) * joint + last + dualBlocks * dualExtra,
        fp8Stored: (shape.layers - 1) * jointLinears + lastLinears + dualBlocks * dualLinears,
      },
      largest,
    },
    // The AdaLayerNormZero Linear (dim→6·dim, or 9·dim in an MMDiT-X block) of each block, or a feed-forward Linear.
    largestLeaf: Math.max(
      linear(dim, 6 * dim),
      linear(dim, mlp),
      linear(mlp, dim),
      linear(shape.jointAttentionDim, shape.captionProjectionDim),
    ),
  };
}

/** Count a diffusion transformer's parameters from its shape. */
export function countDitParams(shape: DitShape): DitParamCounts {
  if (shape.family === 'wan') return wanParams(shape);
  return shape.family === 'flux' ? fluxParams(shape) : sd3Params(shape);
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
  /** `projection_dim` of `CLIPTextModelWithProjection` (its bias-free text_projection), or 0 for `CLIPTextModel`. */
  readonly projection: number;
}

/**
 * Parameters of `CLIPTextModel`: token and position embeddings, per layer two LayerNorms, biased q/k/v/out and a
 * biased fc1/fc2 MLP, and the final LayerNorm; `CLIPTextModelWithProjection` adds a bias-free text_projection.
 */
export function clipTextParams(shape: ClipTextShape): number {
  const layer = 2 * 2 * shape.hidden + 4 * linear(shape.hidden, shape.hidden) + linear(shape.hidden, shape.intermediate);
  const mlpOut = linear(shape.intermediate, shape.hidden);
  const projection = shape.hidden * shape.projection;
  return (shape.vocab + shape.positions) * shape.hidden + shape.layers * (layer + mlpOut) + 2 * shape.hidden + projection;
}

/** A CLIP vision tower's shape: the keys of its `vision_config`. */
export interface ClipVisionShape {
  /** `hidden_size`, `num_hidden_layers`, `intermediate_size`. */
  readonly hidden: number;
  readonly layers: number;
  readonly intermediate: number;
  /** `image_size` and `patch_size`, pixels. */
  readonly imageSize: number;
  readonly patchSize: number;
}

/**
 * Parameters of Transformers' `CLIPVisionModel` (models/clip/modeling_clip.py): the class embedding, a bias-free
 * patch convolution (3 channels), a position embedding per patch and the class token, pre_layrnorm, per layer two
 * LayerNorms, biased q/k/v/out and fc1/fc2, and post_layernorm.
 */
export function clipVisionParams(shape: ClipVisionShape): number {
  const positions = (shape.imageSize / shape.patchSize) ** 2 + 1;
  const embeddings = shape.hidden + 3 * shape.patchSize * shape.patchSize * shape.hidden + positions * shape.hidden;
  const layer =
    2 * 2 * shape.hidden +
    4 * linear(shape.hidden, shape.hidden) +
    linear(shape.hidden, shape.intermediate) +
    linear(shape.intermediate, shape.hidden);
  return embeddings + 2 * shape.hidden + shape.layers * layer + 2 * shape.hidden;
}
