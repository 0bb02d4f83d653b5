/**
 * The `diffusion` command: the GPU memory of one text-to-video or text-to-image generation with a diffusion
 * transformer, read from its diffusers `transformer/config.json` (recognised by `_class_name`), phase by phase.
 */
import { PROGRAM_NAME } from '../base/command-line.ts';
import {
  booleanFlag,
  createFlagTable,
  DIFFUSION_FLAG_TABLE,
  estimateDiffusion,
  parseDiffusionFlags,
  readDiffusersConfig,
  stringFlag,
  type DiffusionEstimate,
  type DiffusionOptions,
} from '../memory/index.ts';
import { fieldErrorsLine, flagHelpLines, scaffoldHelpLines, type Command } from './command.ts';
import { renderDiffusionTable } from './diffusion-table.ts';
import { JSON_SCHEMA_URLS } from './json-schemas.ts';
import { readConfigText } from './model-file.ts';

/** The transformer's config, and the table's own flag. */
const COMMAND_FLAGS = createFlagTable([
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
function diffusionJson(className: string, result: DiffusionEstimate, options: DiffusionOptions) {
  return {
    schema: JSON_SCHEMA_URLS.diffusion,
    pipeline: result.pipeline,
    className,
    params: {
      transformer: result.transformer.total,
      transformerFp8Stored: result.transformer.fp8Stored,
      textEncoders: result.textEncoders,
      vae: result.vaeParams,
    },
    setup: {
      width: options.width,
      height: options.height,
      frames: options.frames,
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
    gpu: result.gpu === null ? null : { id: result.gpu.id, memoryBytes: result.gpu.memoryBytes },
    headroom: result.headroom,
    fits: result.fits,
    shortfall: result.shortfall,
    warnings: result.warnings,
    lines: result.lines,
  };
}

/** What `diffusion --json` prints. */
export type DiffusionJson = ReturnType<typeof diffusionJson>;

function diffusionHelp(): string {
  return [
    `Usage: ${PROGRAM_NAME} diffusion --config FILE [flags]`,
    '',
    'GPU memory of one generation with a diffusion transformer (Wan 2.1 text-to-video, FLUX.1, SD3), phase by phase:',
    "the prompt's encoding, one denoising step, the VAE decode. The peak is the largest phase.",
    '',
    'Flags:',
    ...flagHelpLines([...COMMAND_FLAGS.flags, ...DIFFUSION_FLAG_TABLE.flags]),
    ...scaffoldHelpLines(),
    '',
    'Examples:',
    `  ${PROGRAM_NAME} diffusion --config Wan2.1-T2V-14B-Diffusers/transformer --resolution 1280x720 --frames 81 --gpu rtx-4090`,
    `  ${PROGRAM_NAME} diffusion --config wan/transformer/config.json --resolution 1280x720 --offload model --weights fp8 --vae-tiling`,
    `  ${PROGRAM_NAME} diffusion --config FLUX.1-dev/transformer/config.json --resolution 1024x1024 --json`,
    '',
    'Exit codes: 0 ok, 2 bad flag, value or file (one line on stderr naming it).',
    '',
  ].join('\n');
}

/** `gpu-memory-lab diffusion`: a diffusers transformer config and the output size in, the memory per phase out. */
export const diffusionCommand: Command<DiffusionJson> = {
  name: 'diffusion',
  summary: 'what one video or image generation with a diffusion transformer (Wan, FLUX, SD3) holds, phase by phase',
  flagTables: [COMMAND_FLAGS, DIFFUSION_FLAG_TABLE],
  operands: false,
  help: diffusionHelp,
  run({ config, sources, ...flags }, _operands, io) {
    if (typeof config !== 'string')
      return { usage: "--config: give the transformer's diffusers config.json (transformer/config.json of the Hub repository)" };
    const read = readConfigText(config, io);
    if ('refused' in read) return read;
    const reading = readDiffusersConfig(read.text);
    if (!reading.ok) return { refused: `--config ${read.file}: ${reading.errors.map((e) => e.message).join('; ')}` };
    const raw = Object.fromEntries(
      Object.entries(flags).filter((entry): entry is [string, string | boolean] => !Array.isArray(entry[1])),
    );
    const parsed = parseDiffusionFlags(raw, reading.shape);
    if (!parsed.ok) return { usage: fieldErrorsLine(parsed.errors) };
    const outcome = estimateDiffusion(parsed.options);
    if (!outcome.ok) return { usage: fieldErrorsLine(outcome.errors) };
    const { result } = outcome;
    return {
      json: () => diffusionJson(reading.className, result, parsed.options),
      text: () => renderDiffusionTable(result, parsed.options, sources === true),
    };
  },
};
