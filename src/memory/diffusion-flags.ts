/**
 * The diffusion estimate's flags: their table (names, help, defaults, for `--help` and any form) and the reader that
 * turns raw flag values into `DiffusionOptions`, one `{ field, message }` per bad value. The transformer itself comes
 * from its config (`readDiffusersConfig`), so it is not a flag here.
 */
import { ruleError } from './rule-words.ts';
import type { DitShape } from './diffusion-config.ts';
import { GUIDANCES, pipelineFor, type Guidance } from './diffusion-pipelines.ts';
import { DIFFUSION_OFFLOADS, DIT_WEIGHTS, type DiffusionOffload, type DiffusionOptions, type DitWeights } from './diffusion.ts';
import { booleanFlag, createFlagTable, enumFlag, numberFlag, stringFlag } from './flag-table.ts';
import { getGpuPreset } from './gpus.ts';
import type { FieldError } from './options.ts';
import { DEFAULT_HEADROOM_PERCENT } from './overhead.ts';

/** The flags of a diffusion estimate. */
export const DIFFUSION_FLAG_TABLE = createFlagTable([
  stringFlag(
    {
      key: 'resolution',
      flag: 'resolution',
      help: 'output size WIDTHxHEIGHT in pixels',
      default: "the pipeline's (832x480 Wan, 1024x1024 FLUX)",
    },
    'WxH',
  ),
  numberFlag({ key: 'frames', flag: 'frames', help: 'output frames (1 for an image model)', default: "the pipeline's (81 Wan)" }),
  numberFlag({
    key: 'steps',
    flag: 'steps',
    help: 'denoising steps: how often offload moves the transformer',
    default: "the pipeline's (50 Wan, 28 FLUX and SD3)",
  }),
  enumFlag(
    {
      key: 'weights',
      flag: 'weights',
      help: "transformer weights on the GPU (fp8: diffusers' enable_layerwise_casting)",
      default: 'bf16',
    },
    DIT_WEIGHTS,
  ),
  enumFlag(
    {
      key: 'offload',
      flag: 'offload',
      help: 'text-encoder: encoders to the CPU after encoding; model: enable_model_cpu_offload(); sequential: enable_sequential_cpu_offload(); group: enable_group_offload(block_level, use_stream)',
      default: 'none',
    },
    DIFFUSION_OFFLOADS,
  ),
  booleanFlag({ key: 'textEncoderOnCpu', flag: 'text-encoder-cpu', help: "run the text encoders on the CPU (Wan's --t5_cpu)" }),
  booleanFlag({ key: 'vaeTiling', flag: 'vae-tiling', help: "decode in the VAE's enable_tiling() tiles" }),
  enumFlag(
    {
      key: 'guidance',
      flag: 'guidance',
      help: 'classifier-free guidance: one pass, two in turn, or a batch of two',
      default: "the pipeline's",
    },
    GUIDANCES,
  ),
  stringFlag({ key: 'gpu', flag: 'gpu', help: 'GPU preset to fit (see estimate --help for the list)' }, 'ID'),
  numberFlag({
    key: 'headroom',
    flag: 'headroom',
    help: 'free margin kept on the GPU, percent',
    default: String(DEFAULT_HEADROOM_PERCENT),
  }),
]);

/** Raw flag values as a command line or a URL query gives them. */
export type DiffusionRawFlags = Readonly<Record<string, string | boolean | undefined>>;

/** Outcome of `parseDiffusionFlags`. */
export type DiffusionFlagsReading = { ok: true; options: DiffusionOptions } | { ok: false; errors: FieldError[] };

function oneOf<T extends string>(
  raw: string | boolean | undefined,
  field: string,
  values: readonly T[],
  errors: FieldError[],
): T | undefined {
  if (raw === undefined) return undefined;
  const found = values.find((v) => v === raw);
  if (found === undefined) {
    errors.push(ruleError(field, { code: 'notAChoice', params: { value: String(raw), allowed: values } }));
  }
  return found;
}

function wholeNumber(raw: string | boolean | undefined, field: string, errors: FieldError[]): number | undefined {
  if (raw === undefined) return undefined;
  const value = typeof raw === 'string' && /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (!Number.isFinite(value)) {
    errors.push(ruleError(field, { code: 'notANumber', params: { value: String(raw) } }));
  }
  return value;
}

/** A switch is on when the command line gives it bare, or a URL query as `true`. */
const isOn = (raw: string | boolean | undefined) => raw === true || raw === 'true';

/** Read raw flags into options for the transformer `shape`; defaults are the pipeline's. */
export function parseDiffusionFlags(raw: DiffusionRawFlags, shape: DitShape): DiffusionFlagsReading {
  const errors: FieldError[] = [];
  const defaults = pipelineFor(shape).defaults;
  let width = defaults.width;
  let height = defaults.height;
  const resolution = raw['resolution'];
  if (resolution !== undefined) {
    const match = typeof resolution === 'string' ? /^\s*(\d+)\s*[x×]\s*(\d+)\s*$/i.exec(resolution) : null;
    if (match === null) errors.push(ruleError('resolution', { code: 'resolutionFormat', params: { value: String(resolution) } }));
    else [width, height] = [Number(match[1]), Number(match[2])];
  }
  const frames = wholeNumber(raw['frames'], 'frames', errors) ?? defaults.frames;
  const steps = wholeNumber(raw['steps'], 'steps', errors) ?? defaults.steps;
  const headroomPercent = wholeNumber(raw['headroom'], 'headroom', errors) ?? DEFAULT_HEADROOM_PERCENT;
  const weights: DitWeights = oneOf(raw['weights'], 'weights', DIT_WEIGHTS, errors) ?? 'bf16';
  const offload: DiffusionOffload = oneOf(raw['offload'], 'offload', DIFFUSION_OFFLOADS, errors) ?? 'none';
  const guidance: Guidance | undefined = oneOf(raw['guidance'], 'guidance', GUIDANCES, errors);
  const gpuId = raw['gpu'];
  const gpu = typeof gpuId === 'string' ? (getGpuPreset(gpuId) ?? null) : null;
  if (typeof gpuId === 'string' && gpu === null)
    errors.push(ruleError('gpu', { code: 'unknownGpuPreset', params: { gpu: gpuId } }));
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    options: {
      shape,
      width,
      height,
      frames,
      steps,
      weights,
      offload,
      textEncoderOnCpu: isOn(raw['text-encoder-cpu']),
      vaeTiling: isOn(raw['vae-tiling']),
      ...(guidance === undefined ? {} : { guidance }),
      gpu,
      headroomPercent,
    },
  };
}

/**
 * The flags that reproduce `options` for the pipeline preset `model` (a URL query's keys, or `flagArgs`' input for a
 * command line): `'true'` is a bare switch; switches that are off, guidance left to the pipeline, no GPU and the
 * default headroom are left out.
 */
export function formatDiffusionFlags(model: string, options: DiffusionOptions): Record<string, string> {
  const flags: Record<string, string> = {
    model,
    resolution: `${options.width}x${options.height}`,
    frames: String(options.frames),
    ...(options.steps === undefined ? {} : { steps: String(options.steps) }),
    weights: options.weights,
    offload: options.offload,
  };
  if (options.textEncoderOnCpu) flags['text-encoder-cpu'] = 'true';
  if (options.vaeTiling) flags['vae-tiling'] = 'true';
  if (options.guidance !== undefined) flags['guidance'] = options.guidance;
  if (options.gpu !== null) flags['gpu'] = options.gpu.id;
  const headroom = options.headroomPercent ?? DEFAULT_HEADROOM_PERCENT;
  if (headroom !== DEFAULT_HEADROOM_PERCENT) flags['headroom'] = String(headroom);
  return flags;
}
