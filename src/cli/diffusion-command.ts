/**
 * The `diffusion` command: the GPU memory of one video or image generation with a diffusion
 * transformer, read from its diffusers `transformer/config.json` (recognised by `_class_name`), phase by phase.
 */
import { PROGRAM_NAME } from '../base/command-line.ts';
import {
  booleanFlag,
  createFlagTable,
  DIFFUSION_FLAG_TABLE,
  DIFFUSION_PRESETS,
  diffusionRemedies,
  estimateDiffusion,
  getDiffusionPreset,
  parseDiffusionFlags,
  readDiffusersConfig,
  stringFlag,
  type DiffusionEstimate,
  type DiffusionOptions,
  type DiffusionRemedy,
  type DitShape,
} from '../memory/index.ts';
import { fieldErrorsLine, flagHelpLines, scaffoldHelpLines, type Command } from './command.ts';
import { renderDiffusionTable } from './diffusion-table.ts';
import { JSON_SCHEMA_URLS } from './json-schemas.ts';
import { readConfigText } from './model-file.ts';

/** The transformer (a preset or its config), and the table's own flag. */
const COMMAND_FLAGS = createFlagTable([
  stringFlag(
    {
      key: 'model',
      flag: 'model',
      help: `a pipeline preset: ${DIFFUSION_PRESETS.map((p) => p.id).join(', ')}`,
    },
    'ID',
  ),
  stringFlag(
    {
      key: 'config',
      flag: 'config',
      help: "the transformer's diffusers config.json (transformer/config.json of the Hub repository), or its folder",
    },
    'FILE',
  ),
  booleanFlag({ key: 'sources', flag: 'sources', help: 'print the source of every line in the table' }),
]);

/** JSON shape printed by `--json` (bytes as integers), described by public/schemas/diffusion-v1.json. */
function diffusionJson(
  model: string | null,
  className: string,
  result: DiffusionEstimate,
  options: DiffusionOptions,
  remedies: readonly DiffusionRemedy[],
) {
  return {
    schema: JSON_SCHEMA_URLS.diffusion,
    model,
    pipeline: result.pipeline,
    className,
    params: {
      transformer: result.transformer.total,
      transformerFp8Stored: result.transformer.fp8Stored,
      textEncoders: result.textEncoders,
      imageEncoder: result.imageEncoder,
      vae: result.vaeParams,
    },
    setup: {
      width: options.width,
      height: options.height,
      frames: options.frames,
      steps: result.hostTransfer.steps,
      weights: options.weights,
      offload: options.offload,
      textEncoderOnCpu: options.textEncoderOnCpu,
      vaeTiling: options.vaeTiling,
      guidance: result.guidance,
    },
    tokens: result.tokens,
    perPhase: result.perPhase,
    peak: result.peak,
    peakPhase: result.peakPhase,
    hostPeak: result.hostPeak,
    hostTransfer: result.hostTransfer,
    gpu: result.gpu === null ? null : { id: result.gpu.id, memoryBytes: result.gpu.memoryBytes },
    headroom: result.headroom,
    fits: result.fits,
    shortfall: result.shortfall,
    warnings: result.warnings,
    remedies,
    lines: result.lines,
  };
}

/** What `diffusion --json` prints. */
export type DiffusionJson = ReturnType<typeof diffusionJson>;

function diffusionHelp(): string {
  return [
    `Usage: ${PROGRAM_NAME} diffusion (--model ID | --config FILE) [flags]`,
    '',
    'GPU memory of one generation with a diffusion transformer (Wan 2.1 text- and image-to-video, FLUX.1, SD3 and SD3.5), phase by phase:',
    "the prompt's encoding, one denoising step, the VAE decode. The peak is the largest phase. On a --gpu it does not",
    'fit, the smallest sets of changes that make it fit are listed, fastest first.',
    '',
    'Flags:',
    ...flagHelpLines([...COMMAND_FLAGS.flags, ...DIFFUSION_FLAG_TABLE.flags]),
    ...scaffoldHelpLines(),
    '',
    'Examples:',
    `  ${PROGRAM_NAME} diffusion --model wan2.1-t2v-14b --resolution 1280x720 --frames 81 --gpu rtx-4090`,
    `  ${PROGRAM_NAME} diffusion --config Wan2.1-T2V-14B-Diffusers/transformer --resolution 1280x720 --offload group`,
    `  ${PROGRAM_NAME} diffusion --config wan/transformer/config.json --resolution 1280x720 --offload model --weights fp8 --vae-tiling`,
    `  ${PROGRAM_NAME} diffusion --config FLUX.1-dev/transformer/config.json --resolution 1024x1024 --json`,
    '',
    'Exit codes: 0 ok, 2 bad flag, value or file (one line on stderr naming it).',
    '',
  ].join('\n');
}

/** The transformer named by `--model` (a preset) or read from `--config`, or why neither gives one. */
function readTransformer(
  model: unknown,
  config: unknown,
  io: Parameters<typeof readConfigText>[1],
): { model: string | null; className: string; shape: DitShape } | { usage: string } | { refused: string } {
  if (typeof model === 'string' && typeof config === 'string')
    return { usage: '--model and --config: give one of them, the preset or the file' };
  if (typeof model === 'string') {
    const preset = getDiffusionPreset(model);
    if (preset === undefined)
      return { usage: `--model: unknown pipeline preset ${model} (${DIFFUSION_PRESETS.map((p) => p.id).join(', ')})` };
    return { model: preset.id, className: preset.className, shape: preset.shape };
  }
  if (typeof config !== 'string')
    return {
      usage:
        "--model or --config: name a pipeline preset, or give the transformer's diffusers config.json (transformer/config.json of the Hub repository)",
    };
  const read = readConfigText(config, io);
  if ('refused' in read) return read;
  const reading = readDiffusersConfig(read.text);
  if (!reading.ok) return { refused: `--config ${read.file}: ${reading.errors.map((e) => e.message).join('; ')}` };
  return { model: null, className: reading.className, shape: reading.shape };
}

/** `gpu-memory-lab diffusion`: a diffusers transformer config and the output size in, the memory per phase out. */
export const diffusionCommand: Command<DiffusionJson> = {
  name: 'diffusion',
  summary: 'what one video or image generation with a diffusion transformer (Wan, FLUX, SD3) holds, phase by phase',
  flagTables: [COMMAND_FLAGS, DIFFUSION_FLAG_TABLE],
  operands: false,
  help: diffusionHelp,
  run({ model, config, sources, ...flags }, _operands, io) {
    const transformer = readTransformer(model, config, io);
    if ('usage' in transformer || 'refused' in transformer) return transformer;
    const raw = Object.fromEntries(
      Object.entries(flags).filter((entry): entry is [string, string | boolean] => !Array.isArray(entry[1])),
    );
    const parsed = parseDiffusionFlags(raw, transformer.shape);
    if (!parsed.ok) return { usage: fieldErrorsLine(parsed.errors) };
    const outcome = estimateDiffusion(parsed.options);
    if (!outcome.ok) return { usage: fieldErrorsLine(outcome.errors) };
    const { result } = outcome;
    const remedies = diffusionRemedies(parsed.options);
    return {
      json: () => diffusionJson(transformer.model, transformer.className, result, parsed.options, remedies),
      text: () => renderDiffusionTable(result, parsed.options, remedies, sources === true),
    };
  },
};
