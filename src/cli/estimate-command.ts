/** The `estimate` command: the memory engine's answer for the flags given, as a table or JSON. */
import {
  createFlagTable,
  ESTIMATE_FLAG_TABLE,
  booleanFlag,
  estimateMemory,
  formatEstimateFlags,
  parseEstimateFlags,
  flagName,
  STACK_DECIDED_KEYS,
  type EstimateOptions,
  type EstimateResult,
} from '../memory/index.ts';
import { fieldErrorsLine, type Command } from './command.ts';
import { estimateHelp } from './estimate-help.ts';
import { JSON_SCHEMA_URLS } from './json-schemas.ts';
import { renderTable } from './estimate-table.ts';
import { MODEL_FILE_FLAGS, readModelFile } from './model-file.ts';

/** Flags of the terminal's table only (the site has no table to annotate). */
const OUTPUT_FLAGS = createFlagTable([
  booleanFlag({ key: 'sources', flag: 'sources', help: 'print the source of every line in the table' }),
]);

/** JSON shape printed by `--json` (bytes as integers), described by public/schemas/estimate-v1.json. */
function estimateJson(result: EstimateResult, flags: Record<string, string>) {
  return {
    schema: JSON_SCHEMA_URLS.estimate,
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
    stack: {
      id: result.resolved.stack,
      set: result.resolved.stackSettings,
      notModelled: result.resolved.notModelled,
    },
    flags,
  };
}

/** The result with what the config.json reader warned about first, so a guess about the model is never silent. */
function withFileWarnings(result: EstimateResult, file: { warnings: readonly string[] } | null): EstimateResult {
  return file === null || file.warnings.length === 0 ? result : { ...result, warnings: [...file.warnings, ...result.warnings] };
}

/**
 * The flags given, with the stack named and every option a stack may decide written out as resolved, so `flags`
 * reproduces the same estimate on any stack, and after a stack's defaults change.
 */
function resolvedFlags(result: EstimateResult, options: EstimateOptions): Record<string, string> {
  const flags = formatEstimateFlags(options);
  if (result.mode !== 'train') return flags;
  const resolved: Record<string, string> = { ...flags, stack: result.resolved.stack };
  for (const key of STACK_DECIDED_KEYS) resolved[flagName(key)] = String(result.resolved[key]);
  return resolved;
}

/** What `estimate --json` prints, and what the library's `estimate` returns. */
export type EstimateJson = ReturnType<typeof estimateJson>;

/** `gpu-memory-lab estimate`: every engine flag in, the estimate out. */
export const estimateCommand: Command<EstimateJson> = {
  name: 'estimate',
  summary: 'what one training or inference step holds on each GPU, moment by moment, and whether it fits',
  flagTables: [ESTIMATE_FLAG_TABLE, MODEL_FILE_FLAGS, OUTPUT_FLAGS],
  operands: false,
  help: () => estimateHelp([...MODEL_FILE_FLAGS.flags, ...OUTPUT_FLAGS.flags]),
  run({ sources, config, ...flags }, _operands, io) {
    const parsed = parseEstimateFlags(flags);
    if (!parsed.ok) return { usage: fieldErrorsLine(parsed.errors) };
    const file = typeof config === 'string' ? readModelFile(config, io) : null;
    if (file !== null && 'refused' in file) return file;
    const outcome = estimateMemory(file === null ? parsed.options : { ...parsed.options, modelConfig: file.config });
    if (!outcome.ok) return { usage: fieldErrorsLine(outcome.errors) };
    return {
      json: () => estimateJson(withFileWarnings(outcome.result, file), resolvedFlags(outcome.result, parsed.options)),
      text: () => renderTable(withFileWarnings(outcome.result, file), sources === true),
    };
  },
};
