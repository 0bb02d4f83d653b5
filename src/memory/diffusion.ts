/**
 * Inference memory of a diffusion transformer pipeline (video or image), phase by phase: the prompt's
 * encoding, one denoising step (every step holds the same), and the VAE decode. Which component's weights are on the
 * GPU in each phase follows the offload chosen; the activations of one step follow diffusers' forward, traced in
 * `ditStepBytes`. The peak is the largest phase. Pure: no I/O.
 */
import { ruleError } from './rule-words.ts';
import { formatGiB } from '../base/bytes.ts';
import { wordNotice, type Notice } from './warnings.ts';
import type { DitShape } from './diffusion-config.ts';
import { countDitParams, type BlockParams, type DitParamCounts } from './diffusion-params.ts';
import { pipelineFor, type EncoderSpec, type Guidance, type PipelineSpec } from './diffusion-pipelines.ts';
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
 * Where the components wait while they do not run (diffusers 0.40.0.dev0, pipelines/pipeline_utils.py):
 * - `none`: every component stays on the GPU (`pipe.to("cuda")`);
 * - `text-encoder`: the text encoders move to the CPU once the prompt is encoded;
 * - `model`: `enable_model_cpu_offload()`, one component on the GPU at a time, in `model_cpu_offload_seq` order
 *   (lines 1195–1290: accelerate's `cpu_offload_with_hook`, each hook moving the previous component back; pipeline_wan.py
 *   line 127, pipeline_flux.py line 179);
 * - `sequential`: `enable_sequential_cpu_offload()` (lines 1313–1378): accelerate's `cpu_offload` on every component,
 *   so each module holding parameters of its own comes to the GPU for its forward only and is dropped after (accelerate
 *   1.15.0.dev0 hooks.py lines 532–537); the weights stay in CPU memory;
 * - `group`: `enable_group_offload(onload_device="cuda", offload_type="block_level", num_blocks_per_group=1,
 *   use_stream=True)` (lines 1380–1497): each transformer block is a group, and the next block is copied on a CUDA
 *   stream while the current one runs (hooks/group_offloading.py lines 725, 748; `LazyPrefetchGroupOffloadingHook` line
 *   452), so two blocks are on the GPU; the rest of a component (for the text encoders and the VAE, whose blocks are not
 *   direct `ModuleList` children, all of it) is one group on the GPU for that component's forward.
 */
export type DiffusionOffload = 'none' | 'text-encoder' | 'model' | 'sequential' | 'group';

/** Every offload mode, for flags. */
export const DIFFUSION_OFFLOADS: readonly DiffusionOffload[] = ['none', 'text-encoder', 'model', 'sequential', 'group'];

/** What to estimate. */
export interface DiffusionOptions {
  /** The transformer, read from its diffusers config (`readDiffusersConfig`). */
  readonly shape: DitShape;
  /** Output size in pixels. */
  readonly width: number;
  readonly height: number;
  /** Output frames (1 for an image model). */
  readonly frames: number;
  /** Denoising steps (`num_inference_steps`): they set how often offload moves the transformer; the pipeline's when undefined. */
  readonly steps?: number;
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
  /** The image-to-video pipeline's image encoder, or null. */
  readonly imageEncoder: { readonly name: string; readonly params: number } | null;
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
  /** What offload moves over the host link in one generation. */
  readonly hostTransfer: HostTransfer;
  readonly gpu: GpuSpec | null;
  readonly headroom: { readonly percent: number; readonly bytes: number } | null;
  readonly fits: boolean | null;
  readonly shortfall: number | null;
  /** What the estimate leaves out or cannot fit: the English sentences of `notices`. */
  readonly warnings: readonly string[];
  /** The same warnings as data, for a page to word in its language (warnings.ts). */
  readonly notices: readonly Notice[];
}

/** The weights offload moves between host and GPU in one generation, and the time that takes on the GPU's host link. */
export interface HostTransfer {
  /** Denoising steps, and the transformer's forward passes over them (two per step when guidance runs in turn). */
  readonly steps: number;
  readonly passes: number;
  /** Bytes copied, both directions together. */
  readonly bytes: number;
  /**
   * Seconds at the GPU's rated host-link speed, one direction (null without a GPU): a lower bound, since pageable memory
   * (sequential offload) copies slower; group offload's streams overlap the copies with compute.
   */
  readonly seconds: number | null;
}

/** Outcome of `estimateDiffusion`. */
export type DiffusionOutcome = { ok: true; result: DiffusionEstimate } | { ok: false; errors: FieldError[] };

/** The largest output side accepted, pixels; and the most frames. */
const MAX_SIDE = 16_384;
const MAX_FRAMES = 2_001;
/** The most denoising steps accepted. */
const MAX_STEPS = 1_000;

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
      errors.push(
        ruleError('resolution', { code: 'outOfRange', params: { side, value: String(value), min: multiple, max: MAX_SIDE } }),
      );
    else if (value % multiple !== 0)
      errors.push(
        ruleError('resolution', {
          code: 'sideNotMultiple',
          params: {
            side,
            value,
            multiple,
            pipeline: pipeline.pipeline,
            latentPixels: pipeline.vae.spatialCompression,
            patch: patchCells(o.shape)[1],
          },
        }),
      );
  }
  const temporal = pipeline.vae.temporalCompression;
  if (!Number.isInteger(o.frames) || o.frames < 1 || o.frames > MAX_FRAMES)
    errors.push(ruleError('frames', { code: 'outOfRange', params: { value: String(o.frames), min: 1, max: MAX_FRAMES } }));
  else if (temporal === 1 && o.frames !== 1)
    errors.push(ruleError('frames', { code: 'imagesOneFrame', params: { pipeline: pipeline.pipeline, frames: o.frames } }));
  else if ((o.frames - 1) % temporal !== 0)
    errors.push(
      ruleError('frames', { code: 'framesByTemporal', params: { temporal, frames: o.frames, pipeline: pipeline.pipeline } }),
    );
  if (o.steps !== undefined && !(Number.isInteger(o.steps) && o.steps >= 1 && o.steps <= MAX_STEPS))
    errors.push(ruleError('steps', { code: 'outOfRange', params: { value: String(o.steps), min: 1, max: MAX_STEPS } }));
  const headroom = o.headroomPercent ?? DEFAULT_HEADROOM_PERCENT;
  if (!(headroom >= 0 && headroom < 100))
    errors.push(ruleError('headroom', { code: 'diffusionHeadroom', params: { value: headroom } }));
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
function encoderActivationBytes(encoder: EncoderSpec): number {
  const attention = encoder.heads * encoder.tokens * encoder.tokens * 12;
  const feedForward = 4 * encoder.tokens * encoder.ffn * COMPUTE_BYTES;
  return attention + feedForward + 4 * encoder.tokens * encoder.hidden * COMPUTE_BYTES;
}

const PHASE_COUNT = DIFFUSION_PHASES.length;

/**
 * Bytes a text encoder or the VAE crosses the host link in one generation: moved off once (text-encoder offload), on
 * and back off (model offload's hooks; group offload's ungrouped component, copied back without a stream), or copied on
 * once and dropped (sequential offload).
 */
function movedOnce(offload: DiffusionOffload, bytes: number): number {
  if (offload === 'none') return 0;
  if (offload === 'text-encoder' || offload === 'sequential') return bytes;
  return 2 * bytes;
}
const inPhases = (bytes: number, phases: readonly DiffusionPhase[]) =>
  DIFFUSION_PHASES.map((phase) => (phases.includes(phase) ? bytes : 0));

/** How many bytes the GPU holds of a component's weights while it runs, under each offload mode. */
interface ComponentWeights {
  /** The whole component. */
  readonly whole: number;
  /** Its largest module with parameters of its own (sequential offload). */
  readonly leaf: number;
  /** What group offload keeps on the GPU while it runs (the whole component unless it has block groups). */
  readonly group: number;
}

/** The bytes of a component the GPU holds under `offload`, and the phases it holds them (`own`: the phase it runs). */
function residency(
  offload: DiffusionOffload,
  own: DiffusionPhase,
  weights: ComponentWeights,
): { readonly bytes: number; readonly phases: readonly DiffusionPhase[] } {
  if (offload === 'none' || (offload === 'text-encoder' && own !== 'encode'))
    return { bytes: weights.whole, phases: DIFFUSION_PHASES };
  if (offload === 'sequential') return { bytes: weights.leaf, phases: [own] };
  return { bytes: offload === 'group' ? weights.group : weights.whole, phases: [own] };
}

/** Bytes of weights stored with layerwise casting's split: fp8 for `fp8Stored`, the compute dtype for the rest. */
function weightBytes(params: number, fp8Stored: number, weights: DitWeights): number {
  if (weights === 'fp8') return fp8Stored + (params - fp8Stored) * COMPUTE_BYTES;
  return params * (weights === 'fp32' ? 4 : COMPUTE_BYTES);
}

const OFFLOAD_SOURCES: Readonly<Record<DiffusionOffload, string>> = {
  none: 'pipe.to("cuda"): every component stays on the GPU',
  'text-encoder': 'text encoders moved to the CPU after encoding',
  model: 'enable_model_cpu_offload(): one component on the GPU at a time (pipeline_utils.py lines 1195–1290)',
  sequential:
    'enable_sequential_cpu_offload(): one module with parameters of its own at a time (pipeline_utils.py lines 1313–1378; accelerate hooks.py lines 532–537)',
  group:
    'enable_group_offload(block_level, 1 block per group, use_stream): the running block and the prefetched next one (group_offloading.py lines 725, 748)',
};

/** Estimate the GPU memory of one generation. */
export function estimateDiffusion(options: DiffusionOptions): DiffusionOutcome {
  const pipeline = pipelineFor(options.shape);
  const errors = checkOptions(options, pipeline);
  if (errors.length > 0) return { ok: false, errors };
  const guidance = options.guidance ?? pipeline.guidance;
  const tokens = countTokens(options, pipeline, guidance === 'batched' ? 2 : 1);
  const transformer = countDitParams(options.shape);
  const vae = pipeline.vae;
  const decode = vaeDecodeBytes(vae, options.width, options.height, options.frames, options.vaeTiling);
  const offload = options.offload;
  const lines: MemoryLine[] = [];
  const notices: Notice[] = [];
  if (pipeline.imageEncoder !== null) notices.push({ code: 'conditioningEncodeUncounted' });
  /** Host bytes per phase, and bytes over the host link in one generation. */
  let host = new Array<number>(PHASE_COUNT).fill(0);
  const addHost = (bytes: number, gpuPhases: readonly DiffusionPhase[]) => {
    // Sequential and group offload copy weights to the GPU and keep the CPU copy; the other modes move them.
    const kept = offload === 'sequential' || offload === 'group';
    host = host.map((held, i) => held + (kept || !gpuPhases.includes(DIFFUSION_PHASES[i] ?? 'encode') ? bytes : 0));
  };
  const steps = options.steps ?? pipeline.defaults.steps;
  const passes = steps * (guidance === 'sequential' ? 2 : 1);
  let transferred = 0;

  // Persistent buffers (SD3's position table) are stored and moved with the weights, in their dtype (never fp8).
  const bufferBytes = transformer.buffers * (options.weights === 'fp32' ? 4 : COMPUTE_BYTES);
  const transformerBytes = weightBytes(transformer.total, transformer.fp8Stored, options.weights) + bufferBytes;
  const blockBytes = (block: BlockParams) => weightBytes(block.params, block.fp8Stored, options.weights);
  const outsideBlocks = transformerBytes - blockBytes(transformer.blocks.all);
  const transformerOnGpu = residency(offload, 'denoise', {
    whole: transformerBytes,
    // An fp8-stored Linear is still a leaf: counted at the compute dtype, which bounds the skipped (bf16) ones too.
    leaf: transformer.largestLeaf * (options.weights === 'fp32' ? 4 : COMPUTE_BYTES),
    group: outsideBlocks + 2 * blockBytes(transformer.blocks.largest),
  });
  const weightNote =
    options.weights === 'fp8'
      ? `${transformer.fp8Stored.toLocaleString('en-US')} in fp8, the rest in bf16`
      : `× ${options.weights === 'fp32' ? 4 : 2} B (${options.weights})`;
  const offloadNote =
    offload === 'sequential'
      ? '; on the GPU: its largest module at a time'
      : offload === 'group'
        ? '; on the GPU: all but the blocks, and 2 blocks'
        : '';
  lines.push(
    line(
      'transformer-weights',
      'weights',
      'gpu',
      `Transformer weights: ${transformer.total.toLocaleString('en-US')} params${transformer.buffers > 0 ? ` + ${transformer.buffers.toLocaleString('en-US')} buffer values` : ''}, ${weightNote}${offloadNote}`,
      inPhases(transformerOnGpu.bytes, transformerOnGpu.phases),
      `parameters counted from the diffusers config (diffusion-params.ts); fp8: enable_layerwise_casting; ${OFFLOAD_SOURCES[offload]}`,
    ),
  );
  addHost(transformerBytes, transformerOnGpu.phases);
  if (offload === 'model') transferred += 2 * transformerBytes;
  // Sequential offload drops each module to the meta device after its forward (no copy back); group offload with
  // streams swaps a block back to its pinned CPU copy, but copies the ungrouped rest back (`_offload_to_memory`).
  if (offload === 'sequential') transferred += passes * transformerBytes;
  if (offload === 'group') transferred += passes * (blockBytes(transformer.blocks.all) + 2 * outsideBlocks);
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

  for (const [index, encoder] of pipeline.textEncoders.entries()) {
    const bytes = encoder.params * encoder.bytesPerParam;
    const onGpu = options.textEncoderOnCpu
      ? { bytes, phases: [] }
      : residency(offload, 'encode', { whole: bytes, leaf: encoder.largestLeafParams * encoder.bytesPerParam, group: bytes });
    lines.push(
      line(
        `text-encoder-${index + 1}`,
        'weights',
        'gpu',
        `${encoder.name}: ${encoder.params.toLocaleString('en-US')} params × ${encoder.bytesPerParam} B${options.textEncoderOnCpu ? ' (runs on the CPU)' : offload === 'sequential' ? '; on the GPU: its token embedding' : ''}`,
        inPhases(onGpu.bytes, onGpu.phases),
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
          inPhases(encoderActivationBytes(encoder), ['encode']),
          'Transformers modeling_t5.py / modeling_clip.py eager attention: scores, position bias, fp32 softmax',
        ),
      );
    addHost(bytes, onGpu.phases);
    if (!options.textEncoderOnCpu) transferred += movedOnce(offload, bytes);
  }

  const imageEncoder = pipeline.imageEncoder;
  if (imageEncoder !== null) {
    // model_cpu_offload_seq runs it right after the text encoder, so it shares the text encoder's residency; it is
    // not a text encoder, so --text-encoder-cpu leaves it on the GPU.
    const bytes = imageEncoder.params * imageEncoder.bytesPerParam;
    const onGpu = residency(offload, 'encode', {
      whole: bytes,
      leaf: imageEncoder.largestLeafParams * imageEncoder.bytesPerParam,
      group: bytes,
    });
    lines.push(
      line(
        'image-encoder',
        'weights',
        'gpu',
        `${imageEncoder.name}: ${imageEncoder.params.toLocaleString('en-US')} params × ${imageEncoder.bytesPerParam} B`,
        inPhases(onGpu.bytes, onGpu.phases),
        imageEncoder.source,
      ),
      line(
        'image-encoder-activations',
        'activations',
        'gpu',
        `${imageEncoder.name} forward: ${imageEncoder.tokens} tokens, ${imageEncoder.heads} heads`,
        inPhases(encoderActivationBytes(imageEncoder), ['encode']),
        'Transformers modeling_clip.py eager attention: scores and fp32 softmax',
      ),
    );
    addHost(bytes, onGpu.phases);
    transferred += offload === 'text-encoder' ? 0 : movedOnce(offload, bytes);
  }

  const vaeBytes = vae.params * vae.bytesPerValue;
  const vaeOnGpu = residency(offload, 'decode', {
    whole: vaeBytes,
    leaf: vae.largestLeafParams * vae.bytesPerValue,
    group: vaeBytes,
  });
  lines.push(
    line(
      'vae-weights',
      'weights',
      'gpu',
      `${vae.name} weights: ${vae.params.toLocaleString('en-US')} params × ${vae.bytesPerValue} B${offload === 'sequential' ? '; on the GPU: its largest convolution' : ''}`,
      inPhases(vaeOnGpu.bytes, vaeOnGpu.phases),
      vae.source,
    ),
  );
  addHost(vaeBytes, vaeOnGpu.phases);
  if (offload !== 'text-encoder') transferred += movedOnce(offload, vaeBytes);

  const step = ditStepBytes(options.shape, tokens, pipeline.jointText);
  lines.push(
    line(
      'denoise-activations',
      'activations',
      'gpu',
      `One denoising step: ${tokens.visual.toLocaleString('en-US')} ${options.frames > 1 ? 'video' : 'image'} tokens` +
        ` (${tokens.latentFrames}×${tokens.latentHeight}×${tokens.latentWidth} latents), ${tokens.text} ${pipeline.imageEncoder === null ? 'text' : 'text and image'} tokens, ` +
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
      inPhases(CUDA_CONTEXT_BYTES, DIFFUSION_PHASES),
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
    notices.push({
      code: 'diffusionDoesNotFit',
      params: { gpu: gpu.name, shortfallBytes: -room, phase: peakPhase, headroom: percent },
    });
  return {
    ok: true,
    result: {
      pipeline: pipeline.pipeline,
      transformer,
      textEncoders: pipeline.textEncoders.map((e) => ({ name: e.name, params: e.params })),
      imageEncoder: imageEncoder === null ? null : { name: imageEncoder.name, params: imageEncoder.params },
      vaeParams: vae.params,
      tokens,
      guidance,
      vaeDecode: decode,
      lines,
      perPhase,
      peak,
      peakPhase,
      hostPeak: Math.max(...host),
      hostTransfer: {
        steps,
        passes,
        bytes: transferred,
        seconds: options.gpu === null ? null : transferred / options.gpu.hostLinkBytesPerSecond,
      },
      gpu,
      headroom,
      fits: room === null ? null : room >= 0,
      shortfall: room === null ? null : Math.max(0, -room),
      warnings: notices.map((notice) => wordNotice(notice)),
      notices,
    },
  };
}
