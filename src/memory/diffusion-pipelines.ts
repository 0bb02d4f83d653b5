/**
 * What a diffusers pipeline puts around each transformer family: its text encoders, its VAE, how its latents map to
 * pixels, how many tokens the prompt becomes and how classifier-free guidance runs. Sources: diffusers 0.40.0.dev0
 * (commit 58eb52c) pipelines/wan/pipeline_wan.py and pipelines/flux/pipeline_flux.py (lines cited per field), and each
 * Hub repository's component config.json (SOURCES.md in model-configs/diffusers/).
 */
import type { DitFamily, DitShape } from './diffusion-config.ts';
import { clipTextParams, clipVisionParams, t5EncoderParams } from './diffusion-params.ts';

/** An encoder the pipeline runs once per generation: a text encoder on the prompt, or an image encoder on the image. */
export interface EncoderSpec {
  /** Its name in the breakdown. */
  readonly name: string;
  /** Parameters, counted from its config.json keys. */
  readonly params: number;
  /** Bytes per parameter as the pipeline's documented example loads it. */
  readonly bytesPerParam: number;
  /** Tokens it encodes per prompt (the tokenizer's padded length). */
  readonly tokens: number;
  /** Parameters of its largest module (the token embedding): what sequential CPU offload brings at once. */
  readonly largestLeafParams: number;
  /** Hidden width, feed-forward width and heads: what sizes its activations. */
  readonly hidden: number;
  readonly ffn: number;
  readonly heads: number;
  /** Where its shape and token length come from. */
  readonly source: string;
}

/** How the VAE decoder is built, for the decode model in diffusion-vae.ts. */
export type VaeDecoderKind = 'wan-causal-3d' | 'kl-2d';

/** A pipeline's VAE. */
export interface VaeSpec {
  readonly name: string;
  readonly kind: VaeDecoderKind;
  /** Parameters of the whole autoencoder (the pipeline loads encoder and decoder). */
  readonly params: number;
  /** Bytes per parameter and per activation as the pipeline's documented example loads it. */
  readonly bytesPerValue: number;
  /** Parameters of its largest module (a 3×3 or 3×3×3 convolution at the widest channels), for sequential offload. */
  readonly largestLeafParams: number;
  /** Channels of the decoder's blocks from the latent side out (`dims` of WanDecoder3d, reversed block_out_channels). */
  readonly decoderChannels: readonly number[];
  /** Latent channels (`z_dim` / `latent_channels`). */
  readonly latentChannels: number;
  /** Pixels per latent cell, per side. */
  readonly spatialCompression: number;
  /** Frames per latent frame after the first (1 for an image VAE). */
  readonly temporalCompression: number;
  /** `enable_tiling()` defaults: a tile's side and the stride between tiles, in pixels. */
  readonly tileSide: number;
  readonly tileStride: number;
  readonly source: string;
}

/** How classifier-free guidance runs: one pass (guidance-distilled), two passes in turn, or a batch of two. */
export type Guidance = 'none' | 'sequential' | 'batched';

/** Every guidance mode, for flags. */
export const GUIDANCES: readonly Guidance[] = ['none', 'sequential', 'batched'];

/** A diffusers pipeline around one transformer family. */
export interface PipelineSpec {
  readonly pipeline: string;
  readonly textEncoders: readonly EncoderSpec[];
  /** The image encoder of an image-to-video pipeline, or null. */
  readonly imageEncoder: EncoderSpec | null;
  readonly vae: VaeSpec;
  /** Tokens of context the transformer attends to (cross-attention context or joint sequence): text, and image for I2V. */
  readonly textTokens: number;
  /** Whether the text tokens join the image tokens in one sequence (FLUX's joint attention). */
  readonly jointText: boolean;
  /** The pipeline's default guidance, and why. */
  readonly guidance: Guidance;
  readonly guidanceSource: string;
  /** Default output size (`height`, `width`, `num_frames`) and denoising steps (`num_inference_steps`). */
  readonly defaults: { readonly width: number; readonly height: number; readonly frames: number; readonly steps: number };
}

/** UMT5-XXL's encoder (Wan-AI/Wan2.1-T2V-14B-Diffusers text_encoder/config.json). */
const UMT5_XXL = {
  vocab: 256_384,
  dModel: 4096,
  dKv: 64,
  heads: 64,
  dFf: 10_240,
  layers: 24,
  buckets: 32,
  biasInEveryLayer: true,
};

/** T5 v1.1 XXL's encoder (black-forest-labs/FLUX.1-dev text_encoder_2/config.json). */
const T5_V1_1_XXL = { ...UMT5_XXL, vocab: 32_128, biasInEveryLayer: false };

/** CLIP ViT-L/14's text tower (black-forest-labs/FLUX.1-dev text_encoder/config.json), as `CLIPTextModel`. */
const CLIP_VIT_L_14 = { vocab: 49_408, positions: 77, hidden: 768, intermediate: 3072, layers: 12, projection: 0 };

/** OpenCLIP ViT-bigG/14's text tower (stabilityai/stable-diffusion-3-medium-diffusers text_encoder_2/config.json). */
const CLIP_VIT_BIGG_14 = { vocab: 49_408, positions: 77, hidden: 1280, intermediate: 5120, layers: 32, projection: 1280 };

/**
 * The 16-channel AutoencoderKL of FLUX.1 and Stable Diffusion 3 (block_out_channels [128, 256, 512, 512], latent_channels
 * 16), loaded in the pipeline's bf16/fp16.
 */
const AUTOENCODER_KL_16: VaeSpec = {
  name: 'AutoencoderKL',
  kind: 'kl-2d',
  params: 83_819_683,
  bytesPerValue: 2,
  // ResnetBlock2D conv1/conv2: nn.Conv2d(512, 512, kernel_size=3) with bias (resnet.py lines 268, 284).
  largestLeafParams: 512 * 512 * 9 + 512,
  // block_out_channels reversed for the decoder's up blocks.
  decoderChannels: [512, 512, 256, 128],
  latentChannels: 16,
  spatialCompression: 8,
  temporalCompression: 1,
  // AutoencoderKL: tile_sample_min_size = sample_size (1024), overlap 0.25 (autoencoder_kl.py lines 133–140).
  tileSide: 1024,
  tileStride: 768,
  source:
    'autoencoder_kl.py lines 133–140; vae_scale_factor 8 (pipeline_flux.py line 208, pipeline_stable_diffusion_3.py line 219)',
};

/**
 * OpenCLIP ViT-H/14's vision tower as `CLIPVisionModel` (the image_encoder diffusers' scripts/convert_wan_to_diffusers.py
 * line 1264 loads from laion/CLIP-ViT-H-14-laion2B-s32B-b79K): hidden 1280, 32 layers, 16 heads, intermediate 5120,
 * 224-pixel images in 14-pixel patches.
 */
const CLIP_VIT_H_14_VISION = { hidden: 1280, layers: 32, heads: 16, intermediate: 5120, imageSize: 224, patchSize: 14 };

/** Tokens of one image through ViT-H/14: a class token and 16 × 16 patches. */
const CLIP_VIT_H_14_TOKENS = (CLIP_VIT_H_14_VISION.imageSize / CLIP_VIT_H_14_VISION.patchSize) ** 2 + 1;

/** The pipelines, by transformer family. */
export const PIPELINES: Readonly<Record<DitFamily, PipelineSpec>> = {
  wan: {
    pipeline: 'WanPipeline',
    textEncoders: [
      {
        name: 'UMT5-XXL encoder',
        params: t5EncoderParams(UMT5_XXL),
        bytesPerParam: 2,
        largestLeafParams: UMT5_XXL.vocab * UMT5_XXL.dModel,
        tokens: 512,
        hidden: UMT5_XXL.dModel,
        ffn: UMT5_XXL.dFf,
        heads: UMT5_XXL.heads,
        source: 'Wan2.1-T2V-14B-Diffusers text_encoder/config.json; max_sequence_length 512 (pipeline_wan.py line 403)',
      },
    ],
    imageEncoder: null,
    vae: {
      name: 'AutoencoderKLWan',
      kind: 'wan-causal-3d',
      params: 126_892_531,
      // The diffusers Wan docs load the VAE in float32 (docs/source/en/api/pipelines/wan.md, "T2V memory").
      bytesPerValue: 4,
      // WanResidualBlock conv1/conv2: WanCausalConv3d(384, 384, 3) with bias (autoencoder_kl_wan.py lines 340, 343).
      largestLeafParams: 384 * 384 * 27 + 384,
      // WanDecoder3d line 827: dims = [dim·u for u in [dim_mult[-1]] + dim_mult[::-1]], base_dim 96, dim_mult [1,2,4,4].
      decoderChannels: [384, 384, 384, 192, 96],
      latentChannels: 16,
      spatialCompression: 8,
      temporalCompression: 4,
      tileSide: 256,
      tileStride: 192,
      source:
        'autoencoder_kl_wan.py: scale factors (pipeline_wan.py lines 154–155), tile 256 px, stride 192 px (lines 1076–1081)',
    },
    textTokens: 512,
    jointText: false,
    guidance: 'sequential',
    guidanceSource: 'WanPipeline runs the conditional and the unconditional pass in turn (pipeline_wan.py lines 615–632)',
    // num_inference_steps 50 (pipeline_wan.py line 390).
    defaults: { width: 832, height: 480, frames: 81, steps: 50 },
  },
  flux: {
    pipeline: 'FluxPipeline',
    textEncoders: [
      {
        name: 'CLIP ViT-L/14 text',
        params: clipTextParams(CLIP_VIT_L_14),
        bytesPerParam: 2,
        largestLeafParams: CLIP_VIT_L_14.vocab * CLIP_VIT_L_14.hidden,
        tokens: 77,
        hidden: CLIP_VIT_L_14.hidden,
        ffn: CLIP_VIT_L_14.intermediate,
        heads: 12,
        source: 'FLUX.1-dev text_encoder/config.json; tokenizer_max_length 77 (pipeline_flux.py line 212)',
      },
      {
        name: 'T5 v1.1 XXL encoder',
        params: t5EncoderParams(T5_V1_1_XXL),
        bytesPerParam: 2,
        largestLeafParams: T5_V1_1_XXL.vocab * T5_V1_1_XXL.dModel,
        tokens: 512,
        hidden: T5_V1_1_XXL.dModel,
        ffn: T5_V1_1_XXL.dFf,
        heads: T5_V1_1_XXL.heads,
        source: 'FLUX.1-dev text_encoder_2/config.json; max_sequence_length 512 (pipeline_flux.py line 628)',
      },
    ],
    imageEncoder: null,
    vae: AUTOENCODER_KL_16,
    textTokens: 512,
    jointText: true,
    guidance: 'none',
    guidanceSource:
      'FLUX.1-dev is guidance-distilled: one pass per step unless true_cfg_scale > 1 (pipeline_flux.py lines 606, 769)',
    // num_inference_steps 28 (pipeline_flux.py line 609).
    defaults: { width: 1024, height: 1024, frames: 1, steps: 28 },
  },
  sd3: {
    pipeline: 'StableDiffusion3Pipeline',
    textEncoders: [
      {
        name: 'CLIP ViT-L/14 text',
        params: clipTextParams({ ...CLIP_VIT_L_14, projection: 768 }),
        bytesPerParam: 2,
        largestLeafParams: CLIP_VIT_L_14.vocab * CLIP_VIT_L_14.hidden,
        tokens: 77,
        hidden: CLIP_VIT_L_14.hidden,
        ffn: CLIP_VIT_L_14.intermediate,
        heads: 12,
        source: 'stable-diffusion-3-medium-diffusers text_encoder/config.json (CLIPTextModelWithProjection)',
      },
      {
        name: 'OpenCLIP ViT-bigG/14 text',
        params: clipTextParams(CLIP_VIT_BIGG_14),
        bytesPerParam: 2,
        largestLeafParams: CLIP_VIT_BIGG_14.vocab * CLIP_VIT_BIGG_14.hidden,
        tokens: 77,
        hidden: CLIP_VIT_BIGG_14.hidden,
        ffn: CLIP_VIT_BIGG_14.intermediate,
        heads: 20,
        source: 'stable-diffusion-3-medium-diffusers text_encoder_2/config.json (CLIPTextModelWithProjection)',
      },
      {
        name: 'T5 v1.1 XXL encoder',
        params: t5EncoderParams(T5_V1_1_XXL),
        bytesPerParam: 2,
        largestLeafParams: T5_V1_1_XXL.vocab * T5_V1_1_XXL.dModel,
        tokens: 256,
        hidden: T5_V1_1_XXL.dModel,
        ffn: T5_V1_1_XXL.dFf,
        heads: T5_V1_1_XXL.heads,
        source:
          'stable-diffusion-3-medium-diffusers text_encoder_3; max_sequence_length 256 (pipeline_stable_diffusion_3.py line 802)',
      },
    ],
    imageEncoder: null,
    vae: AUTOENCODER_KL_16,
    // The CLIP states (77 tokens, padded to the T5 width) and the T5 states joined along the sequence (line 463).
    textTokens: 77 + 256,
    jointText: true,
    guidance: 'batched',
    guidanceSource:
      'StableDiffusion3Pipeline batches the conditional and unconditional inputs: torch.cat([latents] * 2) (pipeline_stable_diffusion_3.py line 1067)',
    // num_inference_steps 28 (pipeline_stable_diffusion_3.py line 781).
    defaults: { width: 1024, height: 1024, frames: 1, steps: 28 },
  },
};

/**
 * Wan 2.1's image-to-video pipeline (`WanImageToVideoPipeline`, pipelines/wan/pipeline_wan_i2v.py): WanPipeline's text
 * encoder, VAE and guidance, plus the CLIP image encoder (run in the model_cpu_offload_seq after the text encoder,
 * line 163), whose penultimate hidden states (`hidden_states[-2]`, line 248: 257 tokens) join the text in the
 * cross-attention context.
 */
const WAN_I2V_PIPELINE: PipelineSpec = {
  ...PIPELINES.wan,
  pipeline: 'WanImageToVideoPipeline',
  imageEncoder: {
    name: 'CLIP ViT-H/14 image encoder',
    params: clipVisionParams(CLIP_VIT_H_14_VISION),
    // The pipeline's documented example loads the image encoder in float32 (pipeline_wan_i2v.py lines 58–60).
    bytesPerParam: 4,
    largestLeafParams: CLIP_VIT_H_14_VISION.hidden * CLIP_VIT_H_14_VISION.intermediate + CLIP_VIT_H_14_VISION.intermediate,
    tokens: CLIP_VIT_H_14_TOKENS,
    hidden: CLIP_VIT_H_14_VISION.hidden,
    ffn: CLIP_VIT_H_14_VISION.intermediate,
    heads: CLIP_VIT_H_14_VISION.heads,
    source:
      'laion/CLIP-ViT-H-14-laion2B-s32B-b79K vision config (convert_wan_to_diffusers.py line 1264); hidden_states[-2] (pipeline_wan_i2v.py line 248)',
  },
  textTokens: PIPELINES.wan.textTokens + CLIP_VIT_H_14_TOKENS,
};

/** The pipeline around a transformer: by family, and for Wan, image-to-video when the transformer takes image states. */
export function pipelineFor(shape: DitShape): PipelineSpec {
  return shape.family === 'wan' && shape.imageDim !== null ? WAN_I2V_PIPELINE : PIPELINES[shape.family];
}
