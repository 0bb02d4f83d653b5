/** The `estimate` command: the memory engine's answer for the flags given, as a table or JSON. */
import {
  createFlagTable,
  ESTIMATE_FLAG_TABLE,
  booleanFlag,
  estimateMemory,
  formatEstimateFlags,
  parseEstimateFlags,
  type EstimateResult,
} from '../memory/index.ts';
import { fieldErrorsLine, type Command } from './command.ts';
import { estimateHelp } from './estimate-help.ts';
import { JSON_SCHEMA_URLS } from './json-schemas.ts';
import { renderTable } from './estimate-table.ts';

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
    flags,
  };
}

/** What `estimate --json` prints, and what the library's `estimate` returns. */
export type EstimateJson = ReturnType<typeof estimateJson>;

/** `gpu-memory-lab estimate`: every engine flag in, the estimate out. */
export const estimateCommand: Command<EstimateJson> = {
  name: 'estimate',
  summary: 'what one training or inference step holds on each GPU, moment by moment, and whether it fits',
  flagTables: [ESTIMATE_FLAG_TABLE, OUTPUT_FLAGS],
  operands: false,
  help: () => estimateHelp(OUTPUT_FLAGS.flags),
  run({ sources, ...flags }) {
    const parsed = parseEstimateFlags(flags);
    if (!parsed.ok) return { usage: fieldErrorsLine(parsed.errors) };
    const outcome = estimateMemory(parsed.options);
    if (!outcome.ok) return { usage: fieldErrorsLine(outcome.errors) };
    return {
      json: () => estimateJson(outcome.result, formatEstimateFlags(parsed.options)),
      text: () => renderTable(outcome.result, sources === true),
    };
  },
};
