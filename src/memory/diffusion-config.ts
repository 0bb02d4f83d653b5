/**
 * Reads a diffusion transformer's diffusers `transformer/config.json` into a `DitShape`, defensively: JSON text (or an
 * already parsed object) in, a shape or `{ field, message }` errors out, nothing executed. The class is recognised by
 * `_class_name`, as diffusers' `ModelMixin.from_pretrained` picks it; a key left out takes the default of that class's
 * `__init__` (diffusers 0.40.0.dev0, commit 58eb52c: `WanTransformer3DModel` in
 * models/transformers/transformer_wan.py lines 571–590, `FluxTransformer2DModel` in transformer_flux.py lines 612–626,
 * `SD3Transformer2DModel` in transformer_sd3.py lines 119–137).
 */
import { ruleError, type BrokenRule } from './rule-words.ts';
import { MAX_CONFIG_JSON_BYTES } from './config-json.ts';
import type { FieldError } from './options.ts';

/** The diffusion transformer families the engine counts. */
export type DitFamily = 'wan' | 'flux' | 'sd3';

/** Wan 2.1's `WanTransformer3DModel`: one stream of video tokens, cross-attention to the text (and, image-to-video, the image). */
export interface WanShape {
  readonly family: 'wan';
  /** `patch_size` (frames, height, width) of latent cells folded into one token. */
  readonly patchSize: readonly [number, number, number];
  /** `num_attention_heads`. */
  readonly heads: number;
  /** `attention_head_dim`; the width is heads × headDim. */
  readonly headDim: number;
  /** `in_channels`: latent channels in. */
  readonly inChannels: number;
  /** `out_channels`: latent channels out. */
  readonly outChannels: number;
  /** `text_dim`: width of the text encoder's hidden states. */
  readonly textDim: number;
  /** `freq_dim`: width of the sinusoidal timestep features. */
  readonly freqDim: number;
  /** `ffn_dim`: the feed-forward hidden width. */
  readonly ffnDim: number;
  /** `num_layers`: transformer blocks. */
  readonly layers: number;
  /** `cross_attn_norm`: an affine LayerNorm before the cross-attention. */
  readonly crossAttnNorm: boolean;
  /**
   * `image_dim`: width of the CLIP image states an image-to-video model attends to (its `image_embedder`), or null
   * for text-to-video.
   */
  readonly imageDim: number | null;
  /** `added_kv_proj_dim`: input width of the cross-attention's image key/value projections, or null. */
  readonly addedKvProjDim: number | null;
}

/** FLUX.1's `FluxTransformer2DModel`: double-stream (image and text) blocks, then single-stream blocks over both. */
export interface FluxShape {
  readonly family: 'flux';
  /** `patch_size`: latent cells per token side (1: the pipeline packs 2×2 latents itself). */
  readonly patchSize: number;
  /** `in_channels`: packed latent channels in (16 latent channels × 2 × 2). */
  readonly inChannels: number;
  /** `out_channels`, or `in_channels` when null. */
  readonly outChannels: number;
  /** `num_layers`: double-stream blocks. */
  readonly layers: number;
  /** `num_single_layers`: single-stream blocks. */
  readonly singleLayers: number;
  /** `num_attention_heads`. */
  readonly heads: number;
  /** `attention_head_dim`. */
  readonly headDim: number;
  /** `joint_attention_dim`: width of the T5 hidden states. */
  readonly jointAttentionDim: number;
  /** `pooled_projection_dim`: width of CLIP's pooled embedding. */
  readonly pooledProjectionDim: number;
  /** `guidance_embeds`: a guidance-scale embedder (FLUX.1-dev, guidance-distilled). */
  readonly guidanceEmbeds: boolean;
}

/** Stable Diffusion 3's `SD3Transformer2DModel` (MMDiT): joint blocks over the image and text streams. */
export interface Sd3Shape {
  readonly family: 'sd3';
  /** `patch_size`: latent cells per token side. */
  readonly patchSize: number;
  /** `in_channels` and `out_channels`: latent channels. */
  readonly inChannels: number;
  readonly outChannels: number;
  /** `num_layers`: joint blocks (the last one updates the image stream only). */
  readonly layers: number;
  /** `num_attention_heads`. */
  readonly heads: number;
  /** `attention_head_dim`. */
  readonly headDim: number;
  /** `joint_attention_dim`: width of the text encoders' joined hidden states. */
  readonly jointAttentionDim: number;
  /** `caption_projection_dim`: width the text states are projected to. */
  readonly captionProjectionDim: number;
  /** `pooled_projection_dim`: width of the two CLIPs' pooled embeddings. */
  readonly pooledProjectionDim: number;
  /** `pos_embed_max_size`: side of the stored sin-cos position table (a persistent buffer). */
  readonly posEmbedMaxSize: number;
  /** `qk_norm` "rms_norm" (SD3.5): an RMSNorm over each head's queries and keys, in both streams. */
  readonly qkNorm: boolean;
  /** `dual_attention_layers` (SD3.5 Medium's MMDiT-X): the blocks with a second, image-only attention. */
  readonly dualAttentionLayers: readonly number[];
}

/** A diffusion transformer's shape, by family. */
export type DitShape = WanShape | FluxShape | Sd3Shape;

/** Outcome of `readDiffusersConfig`. */
export type DiffusersConfigReading = { ok: true; className: string; shape: DitShape } | { ok: false; errors: FieldError[] };

/** The `_class_name`s read, and the family each builds. */
export const DIT_CLASS_NAMES: Readonly<Record<string, DitFamily>> = {
  WanTransformer3DModel: 'wan',
  FluxTransformer2DModel: 'flux',
  SD3Transformer2DModel: 'sd3',
};

/** The largest width or count accepted: far above any real model, low enough that every product stays a safe integer. */
const MAX_DIMENSION = 1_000_000;

type Json = Readonly<Record<string, unknown>>;

/** Whether a parsed JSON object is a diffusers component config (it names its class), not a Transformers config. */
export function isDiffusersConfig(json: unknown): boolean {
  return typeof json === 'object' && json !== null && typeof (json as Json)['_class_name'] === 'string';
}

/** Reads one config object's keys, collecting an error for each bad one. */
class DiffusersKeys {
  readonly errors: FieldError[] = [];
  constructor(private readonly json: Json) {}

  /** Record a broken rule on `key`: the key then its English sentence, and the rule as data (no bare message). */
  private fail(key: string, rule: BrokenRule): number {
    this.errors.push(ruleError(key, rule, `${key}: `));
    return 1;
  }

  /** A positive integer; `fallback` (the class default) when the key is missing or null. */
  count(key: string, fallback: number): number {
    const value = this.json[key] ?? fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_DIMENSION)
      return this.fail(key, { code: 'ditCount', params: { value: JSON.stringify(value), max: MAX_DIMENSION } });
    return value;
  }

  flag(key: string, fallback: boolean): boolean {
    const value = this.json[key] ?? fallback;
    if (typeof value !== 'boolean') {
      this.fail(key, { code: 'ditFlag', params: { value: JSON.stringify(value) } });
      return fallback;
    }
    return value;
  }

  /** A key this reader does not model: accepted only when it is absent or null; `why` words its value's error. */
  absent(key: string, why: (value: string) => BrokenRule): void {
    const value = this.json[key];
    if (value !== undefined && value !== null) this.fail(key, why(JSON.stringify(value)));
  }

  /** A key whose value is valid alone but not with the rest of the config; `why` words its value's error. */
  reject(key: string, why: (value: string) => BrokenRule): void {
    this.fail(key, why(JSON.stringify(this.json[key])));
  }

  /** A positive integer, or null when the key is missing or null. */
  optionalCount(key: string): number | null {
    return this.json[key] === undefined || this.json[key] === null ? null : this.count(key, 1);
  }

  /** One of `values`, or null when the key is missing or null. */
  optionalChoice(key: string, values: readonly string[]): string | null {
    const value = this.json[key];
    if (value === undefined || value === null) return null;
    if (typeof value === 'string' && values.includes(value)) return value;
    this.fail(key, { code: 'ditChoiceNotCounted', params: { value: JSON.stringify(value), values } });
    return null;
  }

  /** Distinct block indices below `layers`, from a list that may be missing, null or empty. */
  indices(key: string, layers: number): readonly number[] {
    const value = this.json[key] ?? [];
    const valid =
      Array.isArray(value) &&
      value.every((v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) < layers) &&
      new Set(value).size === value.length;
    if (!valid) {
      this.fail(key, { code: 'ditIndices', params: { value: JSON.stringify(value), layers } });
      return [];
    }
    return value as number[];
  }

  patch3(key: string, fallback: readonly [number, number, number]): readonly [number, number, number] {
    const value = this.json[key] ?? fallback;
    if (!Array.isArray(value) || value.length !== 3 || !value.every((v) => Number.isInteger(v) && v >= 1 && v <= 64)) {
      this.fail(key, { code: 'ditPatch', params: { value: JSON.stringify(value) } });
      return fallback;
    }
    return [value[0] as number, value[1] as number, value[2] as number];
  }
}

function readWan(keys: DiffusersKeys): WanShape {
  keys.absent('pos_embed_seq_len', (value) => ({ code: 'firstLastFrameNotCounted', params: { value } }));
  const imageDim = keys.optionalCount('image_dim');
  const addedKvProjDim = keys.optionalCount('added_kv_proj_dim');
  // The image states reach the blocks only through the added key/value projections: one without the other is no
  // model diffusers builds (WanTransformerBlock.forward splits the context at the image tokens only with both).
  if ((imageDim === null) !== (addedKvProjDim === null))
    keys.reject(imageDim === null ? 'added_kv_proj_dim' : 'image_dim', (value) => ({ code: 'imageDimPair', params: { value } }));
  const inChannels = keys.count('in_channels', 16);
  return {
    family: 'wan',
    patchSize: keys.patch3('patch_size', [1, 2, 2]),
    heads: keys.count('num_attention_heads', 40),
    headDim: keys.count('attention_head_dim', 128),
    inChannels,
    outChannels: keys.count('out_channels', inChannels),
    textDim: keys.count('text_dim', 4096),
    freqDim: keys.count('freq_dim', 256),
    ffnDim: keys.count('ffn_dim', 13824),
    layers: keys.count('num_layers', 40),
    crossAttnNorm: keys.flag('cross_attn_norm', true),
    imageDim,
    addedKvProjDim,
  };
}

function readFlux(keys: DiffusersKeys): FluxShape {
  const inChannels = keys.count('in_channels', 64);
  return {
    family: 'flux',
    patchSize: keys.count('patch_size', 1),
    inChannels,
    outChannels: keys.count('out_channels', inChannels),
    layers: keys.count('num_layers', 19),
    singleLayers: keys.count('num_single_layers', 38),
    heads: keys.count('num_attention_heads', 24),
    headDim: keys.count('attention_head_dim', 128),
    jointAttentionDim: keys.count('joint_attention_dim', 4096),
    pooledProjectionDim: keys.count('pooled_projection_dim', 768),
    guidanceEmbeds: keys.flag('guidance_embeds', false),
  };
}

function readSd3(keys: DiffusersKeys): Sd3Shape {
  const inChannels = keys.count('in_channels', 16);
  const layers = keys.count('num_layers', 18);
  return {
    family: 'sd3',
    patchSize: keys.count('patch_size', 2),
    inChannels,
    outChannels: keys.count('out_channels', inChannels),
    layers,
    heads: keys.count('num_attention_heads', 18),
    headDim: keys.count('attention_head_dim', 64),
    jointAttentionDim: keys.count('joint_attention_dim', 4096),
    captionProjectionDim: keys.count('caption_projection_dim', 1152),
    pooledProjectionDim: keys.count('pooled_projection_dim', 2048),
    posEmbedMaxSize: keys.count('pos_embed_max_size', 96),
    qkNorm: keys.optionalChoice('qk_norm', ['rms_norm']) !== null,
    // The last block updates the image stream only (context_pre_only); SD3.5 puts its second attention in the first.
    dualAttentionLayers: keys.indices('dual_attention_layers', layers - 1),
  };
}

/** Read a diffusers transformer config (JSON text, or the parsed object) into a shape, or say which field is wrong. */
export function readDiffusersConfig(input: string | unknown): DiffusersConfigReading {
  let json: unknown = input;
  if (typeof input === 'string') {
    if (input.length > MAX_CONFIG_JSON_BYTES) return { ok: false, errors: [ruleError('config', { code: 'ditTooLarge' })] };
    try {
      json = JSON.parse(input);
    } catch (error) {
      // The parser's own reason (the browser's, in its language) stays a parameter.
      const reason = error instanceof Error ? error.message : String(error);
      return { ok: false, errors: [ruleError('config', { code: 'ditNotJson', params: { reason } })] };
    }
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { ok: false, errors: [ruleError('config', { code: 'ditNotObject' })] };
  const className = (json as Json)['_class_name'];
  const family = typeof className === 'string' ? DIT_CLASS_NAMES[className] : undefined;
  if (typeof className !== 'string' || family === undefined)
    return {
      ok: false,
      errors: [
        ruleError('_class_name', {
          code: 'ditClassName',
          params: { className: JSON.stringify(className ?? null), classes: Object.keys(DIT_CLASS_NAMES) },
        }),
      ],
    };
  const keys = new DiffusersKeys(json as Json);
  const shape = family === 'wan' ? readWan(keys) : family === 'flux' ? readFlux(keys) : readSd3(keys);
  return keys.errors.length > 0 ? { ok: false, errors: keys.errors } : { ok: true, className, shape };
}
