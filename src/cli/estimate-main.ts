/** The estimate CLI as a testable function: argv in, exit code and output text out. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import {
  estimateMemory,
  FLAG_ALIASES,
  FLAGS,
  formatEstimateFlags,
  parseEstimateFlags,
  type EstimateResult,
  type RawFlags,
} from '../memory/index.ts';
import { estimateHelp } from './estimate-help.ts';
import { renderTable } from './estimate-table.ts';

/** What a CLI run produced. */
export interface CliOutput {
  /** Exit code: 0 ok, 2 bad flag or value. */
  code: number;
  stdout: string;
  stderr: string;
}

type OptionSpecs = NonNullable<ParseArgsConfig['options']>;

const OPTIONS: OptionSpecs = {
  ...Object.fromEntries(FLAGS.map((spec) => [spec.flag, { type: spec.kind === 'boolean' ? 'boolean' : 'string' } as const])),
  ...Object.fromEntries(FLAG_ALIASES.map((alias) => [alias.flag, { type: 'boolean' } as const])),
  json: { type: 'boolean' },
  sources: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

const usageError = (message: string): CliOutput => ({ code: 2, stdout: '', stderr: `estimate: ${message} (see --help)\n` });

/** Turn node:util parseArgs errors into one line naming the flag. */
function describeParseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const flag = /'(-[^' ]+)/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown flag ${flag}`;
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return `unexpected argument ${/'([^']*)'/.exec(message)?.[1] ?? ''}: flags start with --`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return flag === ''
      ? (message.split('\n')[0] ?? message)
      : `bad value for ${flag.replace(/ .*/, '')}: ${message.split('.')[0] ?? message}`;
  }
  return message.split('\n')[0] ?? message;
}

/** JSON shape printed by `--json` (bytes as integers). */
export function toJson(result: EstimateResult, flags: Record<string, string>): Record<string, unknown> {
  return {
    mode: result.mode,
    model: result.modelId,
    params: result.params,
    activeParams: result.activeParams,
    trainableParams: result.trainableParams,
    paramsPerGpu: result.paramsPerGpu,
    stage: result.stage,
    perGpu: result.perGpu,
    peakPhase: result.peakPhase,
    peakMoment: result.peakMoment,
    timeline: result.timeline,
    perCpu: result.perCpu,
    perNvme: result.perNvme,
    gpu: result.gpu === null ? null : { id: result.gpu.id, memoryBytes: result.gpu.memoryBytes },
    headroom: result.headroom,
    fits: result.fits,
    spare: result.spare,
    shortfall: result.shortfall,
    warnings: result.warnings,
    lines: result.lines,
    stepTime: result.stepTime,
    flags,
  };
}

/**
 * Attach a value that starts with '-' to its flag (`--micro-batch -1` → `--micro-batch=-1`): node:util parseArgs
 * would otherwise call it ambiguous, and the reader should hear that -1 is not a valid batch instead.
 */
export function attachDashValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const next = argv[i + 1];
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : '';
    if (OPTIONS[name]?.type === 'string' && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** Run the estimate CLI on `argv` (without node and script). */
export function estimateMain(argv: readonly string[]): CliOutput {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: attachDashValues(argv), options: OPTIONS, strict: true, allowPositionals: false })
      .values as Record<string, string | boolean | undefined>;
  } catch (error) {
    return usageError(describeParseError(error));
  }
  if (values['help'] === true) return { code: 0, stdout: estimateHelp(), stderr: '' };
  const { json, sources, help: _help, ...flags } = values;
  const parsed = parseEstimateFlags(flags as RawFlags);
  if (!parsed.ok) return usageError(parsed.errors.map((e) => `--${e.field}: ${e.message}`).join('; '));
  const outcome = estimateMemory(parsed.options);
  if (!outcome.ok) return usageError(outcome.errors.map((e) => `--${e.field}: ${e.message}`).join('; '));
  if (json === true) {
    return {
      code: 0,
      stdout: `${JSON.stringify(toJson(outcome.result, formatEstimateFlags(parsed.options)), null, 2)}\n`,
      stderr: '',
    };
  }
  return { code: 0, stdout: renderTable(outcome.result, sources === true), stderr: '' };
}
