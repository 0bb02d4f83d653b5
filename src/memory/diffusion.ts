/**
 * Inference memory of a diffusion transformer pipeline (text-to-video or text-to-image), phase by phase: the prompt's
 * encoding, one denoising step (every step holds the same), and the VAE decode. Which component's weights are on the
 * GPU in each phase follows the offload chosen; the activations of one step follow diffusers' forward, traced in
 * `ditStepBytes`. The peak is the largest phase. Pure: no I/O.
 */
import { formatGiB } from '../base/bytes.ts';
import type { DitShape } from './diffusion-config.ts';
import { countDitParams, type DitParamCounts } from './diffusion-params.ts';
import { PIPELINES, type Guidance, type PipelineSpec, type TextEncoderSpec } from './diffusion-pipelines.ts';
import { latentFrames, vaeDecodeBytes, type VaeDecodeBytes } from './diffusion-vae.ts';
import type { GpuSpec } from './gpus.ts';
import { line, type MemoryLine } from './lines.ts';
import type { FieldError } from './options.ts';
import { CUDA_CONTEXT_BYTES, DEFAULT_HEADROOM_PERCENT, headroomBytes } from './overhead.ts';

/** The phases of one generation, in order. */
export const DIFFUSION_PHASES = ['encode', 'denoise', 'decode'] as const;

/** One phase of a generation. */
export type DiffusionPhase = (typeof DIFFUSION_PHASES)[number];

/** How the transformer's weights are stored on the GPU. */
export type DitWeights = 'fp32' | 'bf16' | 'fp8';

/** Every transformer weight format, for flags. */
export const DIT_WEIGHTS: readonly DitWeights[] = ['fp32', 'bf16', 'fp8'];

/**
 * Where the components wait while they do not run:
 * - `none`: every component stays on the GPU (`pipe.to("cuda")`);
 * - `text-encoder`: the text encoders move to the CPU once the prompt is encoded;
 * - `model`: `enable_model_cpu_offload()`, one component on the GPU at a time, in `model_cpu_offload_seq` order
 *   (diffusers pipeline_utils.py lines 1195–1200; pipeline_wan.py line 127, pipeline_flux.py line 179).
 */
export type DiffusionOffload = 'none' | 'text-encoder' | 'model';

/** Every offload mode, for flags. */
export const DIFFUSION_OFFLOADS: readonly DiffusionOffload[] = ['none', 'text-encoder', 'model'];

/** What to estimate. */
export interface DiffusionOptions {
  /** The transformer, read from its diffusers config (`readDiffusersConfig`). */
  readonly shape: DitShape;
  /** Output size in pixels. */
  readonly width: number;
  readonly height: number;
  /** Output frames (1 for an image model). */
  readonly frames: number;
  /** Transformer weights: `fp32` (Wan's original checkpoints), `bf16`, or `fp8` (diffusers' layerwise casting). */
  readonly weights: DitWeights;
  /** Where components wait while they do not run. */
  readonly offload: DiffusionOffload;
  /** Run the text encoders on the CPU, never on the GPU (Wan's `generate.py --t5_cpu`). */
  readonly textEncoderOnCpu: boolean;
  /** `vae.enable_tiling()` with its default tiles. */
  readonly vaeTiling: boolean;
  /** Classifier-free guidance; the pipeline's own when undefined. */
  readonly guidance?: Guidance;
  /** The GPU to fit, or null. */
  readonly gpu: GpuSpec | null;
  /** Free margin kept on the GPU, percent; default DEFAULT_HEADROOM_PERCENT. */
  readonly headroomPercent?: number;
}

/** How the output maps to the transformer's tokens. */
export interface DiffusionTokens {
  /** Latent frames, and the latent grid's height and width. */
  readonly latentFrames: number;
  readonly latentHeight: number;
  readonly latentWidth: number;
  /** Tokens of video or image per pass. */
  readonly visual: number;
  /** Tokens of text the transformer attends to. */
  readonly text: number;
  /** Passes of the transformer per step that run at once (2 when guidance is batched). */
  readonly batch: number;
}

/** The estimate. */
export interface DiffusionEstimate {
  readonly pipeline: string;
  readonly transformer: DitParamCounts;
  readonly textEncoders: readonly { readonly name: string; readonly params: number }[];
  readonly vaeParams: number;
  readonly tokens: DiffusionTokens;
  readonly guidance: Guidance;
  readonly vaeDecode: VaeDecodeBytes;
  /** The breakdown: each line's `live` has one entry per phase of DIFFUSION_PHASES. */
  readonly lines: readonly MemoryLine[];
  /** GPU bytes in each phase, and the largest. */
  readonly perPhase: Readonly<Record<DiffusionPhase, number>>;
  readonly peak: number;
  readonly peakPhase: DiffusionPhase;
  /** Host bytes held for offloaded or CPU-run components at most. */
  readonly hostPeak: number;
  readonly gpu: GpuSpec | null;
  readonly headroom: { readonly percent: number; readonly bytes: number } | null;
  readonly fits: boolean | null;
  readonly shortfall: number | null;
  readonly warnings: readonly string[];
}

/** Outcome of `estimateDiffusion`. */
export type DiffusionOutcome = { ok: true; result: DiffusionEstimate } | { ok: false; errors: FieldError[] };

/** The largest output side accepted, pixels; and the most frames. */
const MAX_SIDE = 16_384;
const MAX_FRAMES = 2_001;

/** Bytes of one compute value: diffusers' documented examples run the transformer in bfloat16. */
const COMPUTE_BYTES = 2;

function checkOptions(o: DiffusionOptions, pipeline: PipelineSpec): FieldError[] {
  const errors: FieldError[] = [];
  const multiple = pipeline.vae.spatialCompression * patchCells(o.shape)[1];
  for (const [side, value] of [
    ['width', o.width],
    ['height', o.height],
  ] as const) {
    if (!Number.isInteger(value) || value < multiple || value > MAX_SIDE)
      errors.push({
        field: 'resolution',
        message: `${side} must be a whole number of pixels from ${multiple} to ${MAX_SIDE}, got ${value}`,
      });
    else if (value % multiple !== 0)
      errors.push({
        field: 'resolution',
        message: `${side} ${value} is not a multiple of ${multiple}: ${pipeline.pipeline} would resize it (latents of ${pipeline.vae.spatialCompression} px, patches of ${patchCells(o.shape)[1]})`,
      });
  }
  const temporal = pipeline.vae.temporalCompression;
  if (!Number.isInteger(o.frames) || o.frames < 1 || o.frames > MAX_FRAMES)
    errors.push({ field: 'frames', message: `must be a whole number from 1 to ${MAX_FRAMES}, got ${o.frames}` });
  else if (temporal === 1 && o.frames !== 1)
    errors.push({ field: 'frames', message: `${pipeline.pipeline} makes images: frames must be 1, got ${o.frames}` });
  else if ((o.frames - 1) % temporal !== 0)
    errors.push({
      field: 'frames',
      message: `frames − 1 must be a multiple of ${temporal} (the VAE's temporal compression), got ${o.frames}: ${pipeline.pipeline} would round it`,
    });
  const headroom = o.headroomPercent ?? DEFAULT_HEADROOM_PERCENT;
  if (!(headroom >= 0 && headroom < 100))
    errors.push({ field: 'headroom', message: `must be from 0 to 99 percent, got ${headroom}` });
  return errors;
}

/** Latent cells per token (frames, height, width): the patch size, or FLUX's 2×2 packing done by its pipeline. */
function patchCells(shape: DitShape): readonly [number, number, number] {
  if (shape.family === 'wan') return shape.patchSize;
  return shape.family === 'flux' ? [1, 2, 2] : [1, shape.patchSize, shape.patchSize];
}

/** Tokens per pass: the latent grid over the latent cells of one token. */
function countTokens(o: DiffusionOptions, pipeline: PipelineSpec, batch: number): DiffusionTokens {
  const vae = pipeline.vae;
  const frames = latentFrames(vae, o.frames);
  const latentHeight = o.height / vae.spatialCompression;
  const latentWidth = o.width / vae.spatialCompression;
  const [pt, ph, pw] = patchCells(o.shape);
  const visual = Math.ceil(frames / pt) * (latentHeight / ph) * (latentWidth / pw);
  return { latentFrames: frames, latentHeight, latentWidth, visual, text: pipeline.textTokens, batch };
}

/**
 * Activation bytes of one denoising step at its peak, inside the widest block, traced from diffusers' forward (tensors
 * alive at once, bf16 unless said): Wan's `WanTransformerBlock.forward` (transformer_wan.py lines 462–505) and
 * `WanAttnProcessor` (lines 78–163) hold the residual stream, the normed input, q, k and v, and while the rotary
 * embedding runs its output and three fp32 half-width temporaries (x1·cos, x2·sin, their difference): 18 bytes per
 * token per width unit; the feed-forward holds the residual, the normed input and two ffn-wide tensors (the
 * projection and its GELU). FLUX's `FluxSingleTransformerBlock.forward` (transformer_flux.py lines 383–413) holds the
 * residual, the normed input and the GELU'd MLP branch (4·dim) while the attention runs, and `apply_rotary_emb`
 * (embeddings.py lines 1221–1233) adds the rotated copy and three fp32 products: 32 bytes per token per width unit.
 * SD3's `JointTransformerBlock.forward` (attention.py) peaks in the feed-forward of both streams: the residual, the normed
 * input, the 4·dim projection and its GELU, 20 bytes per token per width unit.
 * Outside the blocks: the rotary tables (cos and sin, fp32, per token and head width) and the text states. Attention
 * runs through PyTorch's scaled_dot_product_attention (`dispatch_attention_fn`'s default "native" backend,
 * attention_dispatch.py line 262; utils/constants.py line 45), whose flash and memory-efficient kernels hold no tokens²
 * score matrix, so the step grows linearly with the tokens.
 */
function ditStepBytes(shape: DitShape, tokens: DiffusionTokens, jointText: boolean): number {
  const dim = shape.heads * shape.headDim;
  const sequence = tokens.visual + (jointText ? tokens.text : 0);
  let perToken: number;
  if (shape.family === 'wan') {
    const attention = 18 * dim;
    const feedForward = 2 * COMPUTE_BYTES * dim + 2 * COMPUTE_BYTES * shape.ffnDim;
    perToken = Math.max(attention, feedForward);
  } else perToken = shape.family === 'flux' ? 32 * dim : 20 * dim;
  // SD3 has no rotary embedding: a fixed sin-cos table added once at the patch embedding.
  const rotaryTables = shape.family === 'sd3' ? 0 : 2 * sequence * shape.headDim * 4;
  const textStates = tokens.text * dim * COMPUTE_BYTES;
  return tokens.batch * (sequence * perToken + textStates) + rotaryTables;
}

/**
 * Activation bytes of one text encoder's forward: Transformers' eager T5/CLIP attention holds the scores (bf16), the
 * position bias T5 passes to every layer, and the fp32 scores and softmax (`softmax(scores.float())`,
 * modeling_t5.py `T5Attention.forward`): heads × tokens² × 12 bytes; the gated feed-forward holds four ffn-wide tensors;
 * and four hidden-wide states (the residual stream, the normed input, the attention output, the layer's output).
 */
function textEncoderActivationBytes(encoder: TextEncoderSpec): number {
  const attention = encoder.heads * encoder.tokens * encoder.tokens * 12;
  const feedForward = 4 * encoder.tokens * encoder.ffn * COMPUTE_BYTES;
  return attention + feedForward + 4 * encoder.tokens * encoder.hidden * COMPUTE_BYTES;
}

const PHASE_COUNT = DIFFUSION_PHASES.length;
const inPhases = (bytes: number, phases: readonly DiffusionPhase[]) =>
  DIFFUSION_PHASES.map((phase) => (phases.includes(phase) ? bytes : 0));

/** Estimate the GPU memory of one generation. */
export function estimateDiffusion(options: DiffusionOptions): DiffusionOutcome {
  const pipeline = PIPELINES[options.shape.family];
  const errors = checkOptions(options, pipeline);
  if (errors.length > 0) return { ok: false, errors };
  const guidance = options.guidance ?? pipeline.guidance;
  const tokens = countTokens(options, pipeline, guidance === 'batched' ? 2 : 1);
  const transformer = countDitParams(options.shape);
  const vae = pipeline.vae;
  const decode = vaeDecodeBytes(vae, options.width, options.height, options.frames, options.vaeTiling);
  const all: DiffusionPhase[] = [...DIFFUSION_PHASES];
  const resident = (own: DiffusionPhase): DiffusionPhase[] => (options.offload === 'model' ? [own] : all);
  const lines: MemoryLine[] = [];
  const warnings: string[] = [];

  // Persistent buffers (SD3's position table) are stored and moved with the weights, in their dtype (never fp8).
  const transformerBytes =
    options.weights === 'fp8'
      ? transformer.fp8Stored + (transformer.total - transformer.fp8Stored + transformer.buffers) * COMPUTE_BYTES
      : (transformer.total + transformer.buffers) * (options.weights === 'fp32' ? 4 : COMPUTE_BYTES);
  const weightNote =
    options.weights === 'fp8'
      ? `${transformer.fp8Stored.toLocaleString('en-US')} in fp8, the rest in bf16`
      : `× ${options.weights === 'fp32' ? 4 : 2} B (${options.weights})`;
  lines.push(
    line(
      'transformer-weights',
      'weights',
      'gpu',
      `Transformer weights: ${transformer.total.toLocaleString('en-US')} params${transformer.buffers > 0 ? ` + ${transformer.buffers.toLocaleString('en-US')} buffer values` : ''}, ${weightNote}`,
      inPhases(transformerBytes, resident('denoise')),
      'parameters counted from the diffusers config (diffusion-params.ts); fp8: enable_layerwise_casting',
    ),
  );
  if (options.weights === 'fp8')
    lines.push(
      line(
        'transformer-upcast',
        'activations',
        'gpu',
        `fp8 → bf16 copy of the layer running: ${transformer.largestCastLinear.toLocaleString('en-US')} params × 2 B`,
        inPhases(transformer.largestCastLinear * COMPUTE_BYTES, ['denoise']),
        'diffusers hooks/layerwise_casting.py: LayerwiseCastingHook casts one layer to the compute dtype per forward',
      ),
    );

  const encoderPhases: DiffusionPhase[] = options.offload === 'none' ? all : ['encode'];
  let host = new Array<number>(PHASE_COUNT).fill(0);
  const hostOf = (bytes: number, gpuPhases: readonly DiffusionPhase[]) =>
    DIFFUSION_PHASES.map((phase) => (gpuPhases.includes(phase) ? 0 : bytes));
  for (const [index, encoder] of pipeline.textEncoders.entries()) {
    const bytes = encoder.params * encoder.bytesPerParam;
    const onGpu = options.textEncoderOnCpu ? [] : encoderPhases;
    lines.push(
      line(
        `text-encoder-${index + 1}`,
        'weights',
        'gpu',
        `${encoder.name}: ${encoder.params.toLocaleString('en-US')} params × ${encoder.bytesPerParam} B${options.textEncoderOnCpu ? ' (runs on the CPU)' : ''}`,
        inPhases(bytes, onGpu),
        encoder.source,
      ),
    );
    if (!options.textEncoderOnCpu)
      lines.push(
        line(
          `text-encoder-${index + 1}-activations`,
          'activations',
          'gpu',
          `${encoder.name} forward: ${encoder.tokens} tokens, ${encoder.heads} heads`,
          inPhases(textEncoderActivationBytes(encoder), ['encode']),
          'Transformers modeling_t5.py / modeling_clip.py eager attention: scores, position bias, fp32 softmax',
        ),
      );
    host = host.map((bytes0, i) => bytes0 + (hostOf(bytes, onGpu)[i] ?? 0));
  }

  const vaeBytes = vae.params * vae.bytesPerValue;
  lines.push(
    line(
      'vae-weights',
      'weights',
      'gpu',
      `${vae.name} weights: ${vae.params.toLocaleString('en-US')} params × ${vae.bytesPerValue} B`,
      inPhases(vaeBytes, resident('decode')),
      vae.source,
    ),
  );
  const transformerHost = hostOf(transformerBytes, resident('denoise'));
  const vaeHost = hostOf(vaeBytes, resident('decode'));
  host = host.map((bytes, i) => bytes + (transformerHost[i] ?? 0) + (vaeHost[i] ?? 0));

  const step = ditStepBytes(options.shape, tokens, pipeline.jointText);
  lines.push(
    line(
      'denoise-activations',
      'activations',
      'gpu',
      `One denoising step: ${tokens.visual.toLocaleString('en-US')} ${options.frames > 1 ? 'video' : 'image'} tokens` +
        ` (${tokens.latentFrames}×${tokens.latentHeight}×${tokens.latentWidth} latents), ${tokens.text} text tokens, ` +
        (guidance === 'batched'
          ? 'guidance as a batch of 2'
          : guidance === 'sequential'
            ? 'guidance as 2 passes in turn'
            : 'one pass'),
      inPhases(step, ['denoise']),
      `the widest block's live tensors in diffusers' forward (ditStepBytes); ${pipeline.guidanceSource}`,
    ),
  );
  const latentBytes = vae.latentChannels * tokens.latentFrames * tokens.latentHeight * tokens.latentWidth * 4;
  // The latents, the conditional prediction kept while the unconditional pass runs, and the scheduler's update, in fp32.
  lines.push(
    line(
      'latents',
      'activations',
      'gpu',
      `Latents: ${vae.latentChannels}×${tokens.latentFrames}×${tokens.latentHeight}×${tokens.latentWidth} fp32, 3 copies`,
      inPhases(3 * latentBytes, ['denoise', 'decode']),
      'pipeline_wan.py lines 612–640 / pipeline_flux.py: latents, noise_pred and scheduler.step output',
    ),
  );
  lines.push(
    line(
      'vae-decode',
      'activations',
      'gpu',
      `${vae.name} decode${decode.tiles > 1 ? `, ${decode.tiles} tiles of ${vae.tileSide} px` : options.vaeTiling ? ' (one tile: tiling does not start)' : ', whole'}: ` +
        `${formatGiB(decode.working)} working, ${formatGiB(decode.output)} output`,
      inPhases(decode.peak, ['decode']),
      'diffusion-vae.ts: caches and working set traced from AutoencoderKLWan / AutoencoderKL decode',
    ),
  );
  lines.push(
    line(
      'cuda-context',
      'overhead',
      'gpu',
      'CUDA context and kernels',
      inPhases(CUDA_CONTEXT_BYTES, all),
      'overhead.ts CUDA_CONTEXT_BYTES',
    ),
  );

  const totals = DIFFUSION_PHASES.map((_, i) => lines.reduce((sum, l) => sum + (l.live[i] ?? 0), 0));
  const perPhase = { encode: totals[0] ?? 0, denoise: totals[1] ?? 0, decode: totals[2] ?? 0 };
  const peakIndex = totals.indexOf(Math.max(...totals));
  const peakPhase = DIFFUSION_PHASES[peakIndex] ?? 'denoise';
  const peak = totals[peakIndex] ?? 0;
  const gpu = options.gpu;
  const percent = options.headroomPercent ?? DEFAULT_HEADROOM_PERCENT;
  const headroom = gpu === null ? null : { percent, bytes: headroomBytes(gpu, percent) };
  const room = gpu === null || headroom === null ? null : gpu.memoryBytes - headroom.bytes - peak;
  if (room !== null && room < 0 && gpu !== null)
    warnings.push(
      `does not fit on the ${gpu.name}: ${formatGiB(-room)} over at the ${peakPhase} phase, counting the ${percent} % free margin`,
    );
  return {
    ok: true,
    result: {
      pipeline: pipeline.pipeline,
      transformer,
      textEncoders: pipeline.textEncoders.map((e) => ({ name: e.name, params: e.params })),
      vaeParams: vae.params,
      tokens,
      guidance,
      vaeDecode: decode,
      lines,
      perPhase,
      peak,
      peakPhase,
      hostPeak: Math.max(...host),
      gpu,
      headroom,
      fits: room === null ? null : room >= 0,
      shortfall: room === null ? null : Math.max(0, -room),
      warnings,
    },
  };
}
