/**
 * The VAE decode's activation peak, whole or tiled, traced from diffusers 0.40.0.dev0 (commit 58eb52c):
 *
 * - `AutoencoderKLWan._decode` (models/autoencoders/autoencoder_kl_wan.py lines 1187–1211) decodes one latent frame at a
 *   time; each causal convolution keeps its last CACHE_T = 2 input frames (line 31) in `feat_cache` for the next chunk,
 *   so the caches of every convolution stay alive for the whole decode. One latent frame becomes `temporalCompression`
 *   frames at full resolution, where `WanResidualBlock.forward` (lines 346–387) holds its input for the shortcut, its
 *   activation, and the convolution's input twice over (cat with the cache, then F.pad, each T + 2 frames). The frames
 *   decoded so far are joined by torch.cat, so the last join holds the video twice.
 * - `AutoencoderKL` (autoencoder_kl.py) decodes the image at once; the widest full-resolution tensors are the up block's
 *   input kept for its shortcut, its GroupNorm and its SiLU.
 * - `tiled_decode` (Wan lines 1331–1400; autoencoder_kl.py from line 364, a stride of 0.75 tile) decodes overlapping
 *   tiles of `tileSide` pixels every `tileStride` pixels, keeps every decoded tile until they are blended, then joins
 *   the rows.
 */
import { ceilDiv } from './ceil-div.ts';
import type { VaeSpec } from './diffusion-pipelines.ts';

/** Frames of the causal convolution cache (autoencoder_kl_wan.py line 31). */
const CACHE_T = 2;

/** What the decode holds at its peak, in bytes. */
export interface VaeDecodeBytes {
  /** The activations and caches of the decoder while it runs. */
  readonly working: number;
  /** The decoded video or image (and decoded tiles), where they outlive the decoder's working set. */
  readonly output: number;
  /** Their peak together. */
  readonly peak: number;
  /** Tiles decoded (1 when the decode is whole). */
  readonly tiles: number;
}

/**
 * Channel widths of WanDecoder3d's causal-convolution caches, as [channels, downscale] pairs (num_res_blocks 2: three
 * residual blocks per up block, two convolutions each): conv_in on the latent; the mid block's two residual blocks;
 * each up block's residual blocks (the first takes half the previous width, lines 839–841) and its temporal
 * upsampler's time_conv; the head's conv_out.
 */
function wanCacheChannels(vae: VaeSpec): [number, number][] {
  const [c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0] = vae.decoderChannels;
  return [
    [vae.latentChannels, 8],
    [4 * c0, 8],
    [6 * c1 + c1, 8],
    [c1 / 2 + 5 * c2 + c2, 4],
    [c2 / 2 + 5 * c3, 2],
    [c3 / 2 + 5 * c4 + c4, 1],
  ];
}

/** Working set and caches of a Wan decode over `width` × `height` pixels, in values. */
function wanDecoderValues(vae: VaeSpec, width: number, height: number): number {
  const pixels = width * height;
  const caches = wanCacheChannels(vae).reduce((sum, [channels, down]) => sum + (channels * CACHE_T * pixels) / (down * down), 0);
  const top = vae.decoderChannels.at(-1) ?? 0;
  const frames = vae.temporalCompression;
  const residualBlock = (2 + (2 * (frames + CACHE_T)) / frames) * top * frames * pixels;
  return Math.ceil(caches + residualBlock);
}

/** Working set of an AutoencoderKL decode over `width` × `height` pixels, in values. */
function klDecoderValues(vae: VaeSpec, width: number, height: number): number {
  // The up block before full resolution upsamples its channels to full size: the widest full-resolution tensor.
  const widest = vae.decoderChannels.at(-2) ?? 0;
  return 3 * widest * width * height;
}

/** Sides of the tiles along one axis of `pixels`: a tile every `stride`, each up to `side`, cut at the edge. */
function tileSides(pixels: number, side: number, stride: number): number[] {
  const sides: number[] = [];
  for (let start = 0; start < pixels; start += stride) sides.push(Math.min(side, pixels - start));
  return sides;
}

/** The decode of `frames` frames of `width` × `height` pixels, whole or (`tiled`) in `enable_tiling()`'s default tiles. */
export function vaeDecodeBytes(vae: VaeSpec, width: number, height: number, frames: number, tiled: boolean): VaeDecodeBytes {
  const bytes = vae.bytesPerValue;
  const decoderValues = (w: number, h: number) =>
    vae.kind === 'wan-causal-3d' ? wanDecoderValues(vae, w, h) : klDecoderValues(vae, w, h);
  const video = 3 * frames * width * height * bytes;
  // Tiling starts only above one tile (Wan line 1192, AutoencoderKL line 200).
  if (!tiled || (width <= vae.tileSide && height <= vae.tileSide)) {
    const working = decoderValues(width, height) * bytes;
    const peak = vae.kind === 'wan-causal-3d' ? Math.max(working + video, 2 * video) : working + video;
    return { working, output: video, peak, tiles: 1 };
  }
  const rows = tileSides(height, vae.tileSide, vae.tileStride);
  const columns = tileSides(width, vae.tileSide, vae.tileStride);
  const tileOutput = 3 * frames * rows.reduce((a, b) => a + b, 0) * columns.reduce((a, b) => a + b, 0) * bytes;
  const working = decoderValues(Math.min(width, vae.tileSide), Math.min(height, vae.tileSide)) * bytes;
  // While the last tile decodes, every earlier tile is kept; after, the blended rows and the joined result.
  const peak = Math.max(working + tileOutput, tileOutput + 2 * video);
  return { working, output: tileOutput + video, peak, tiles: rows.length * columns.length };
}

/** Latent frames for `frames` video frames: the first frame alone, then one per `temporalCompression` frames. */
export function latentFrames(vae: VaeSpec, frames: number): number {
  return vae.temporalCompression === 1 ? 1 : ceilDiv(frames - 1, vae.temporalCompression) + 1;
}
