/** The `estimate` command: the memory engine's answer for the flags given, as a table or JSON. */
import {
  createFlagTable,
  ESTIMATE_FLAG_TABLE,
  booleanFlag,
  estimateMemory,
  formatEstimateFlags,
  parseEstimateFlags,
  flagName,
  numberFlag,
  parseFlags,
  createOptionReader,
  stackDecidedKeysFor,
  type EstimateOptions,
  type EstimateResult,
} from '../memory/index.ts';
import { runBudget, runBudgetLine, TRAIN_TOKENS_FLAG, type RunBudget } from '../planner/index.ts';
import { fieldErrorsLine, type Command } from './command.ts';
import { estimateHelp } from './estimate-help.ts';
import { JSON_SCHEMA_URLS } from './json-schemas.ts';
import { renderTable } from './estimate-table.ts';
import { MODEL_FILE_FLAGS, readModelFile } from './model-file.ts';
import {
  readTrainingConfigFiles,
  TRAINING_CONFIG_FLAGS,
  trainingConfigJson,
  trainingConfigPaths,
  type TrainingConfigJson,
} from './training-config-file.ts';
import { renderTrainingConfig } from './training-config-table.ts';
import { isWriteFormat, WRITE_CONFIG_FLAGS, writeConfig, writtenConfigText, type WrittenConfigJson } from './write-config.ts';

/** Flags of the terminal's table only (the site has no table to annotate). */
const OUTPUT_FLAGS = createFlagTable([
  booleanFlag({ key: 'sources', flag: 'sources', help: 'print the source of every line in the table' }),
]);

/** `--train-tokens N`: the whole run's time, as `plan` prints it for every plan. */
const BUDGET_FLAGS = createFlagTable([numberFlag(TRAIN_TOKENS_FLAG)]);

/**
 * The whole run of `trainTokens` at this estimate's step. Tokens per step are the real tokens a data-parallel rank
 * trains (`stepTime.trainedTokens`, padding excluded) × the ranks, else micro-batch × accumulation × ranks × seq. No
 * price is known here (`plan --price` gives one), so the run has a time and GPU-hours and no cost.
 */
function estimateRun(result: EstimateResult, trainTokens: number): RunBudget | null {
  const { stepTime, resolved: r } = result;
  if (stepTime === null || result.mode !== 'train') return null;
  const perRank = stepTime.trainedTokens ?? r.microBatch * r.gradAccum * r.seq;
  return runBudget({
    trainTokens,
    tokensPerStep: perRank * r.dp,
    stepSeconds: stepTime.totalSeconds,
    gpus: r.dp * r.tp * r.pp,
    prices: undefined,
  });
}

/**
 * JSON shape printed by `--json` (bytes as integers), described by public/schemas/estimate-v1.json. With training
 * configs, `trainingConfig` holds their mapping and `flags` the options they resolved to, so the same estimate
 * reproduces without the files.
 */
function estimateJson(
  result: EstimateResult,
  flags: Record<string, string>,
  trainingConfig?: TrainingConfigJson,
  writtenConfig?: WrittenConfigJson,
  run?: RunBudget,
) {
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
    ...(trainingConfig === undefined ? {} : { trainingConfig }),
    ...(writtenConfig === undefined ? {} : { writtenConfig }),
    ...(run === undefined ? {} : { run }),
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
  for (const key of stackDecidedKeysFor(result.resolved.finetune)) resolved[flagName(key)] = String(result.resolved[key]);
  return resolved;
}

/** What `estimate --json` prints, and what the library's `estimate` returns. */
export type EstimateJson = ReturnType<typeof estimateJson>;

/** `gpu-memory-lab estimate`: every engine flag in, the estimate out. */
export const estimateCommand: Command<EstimateJson> = {
  name: 'estimate',
  summary: 'what one training or inference step holds on each GPU, moment by moment, and whether it fits',
  flagTables: [ESTIMATE_FLAG_TABLE, MODEL_FILE_FLAGS, TRAINING_CONFIG_FLAGS, WRITE_CONFIG_FLAGS, BUDGET_FLAGS, OUTPUT_FLAGS],
  operands: false,
  help: () =>
    estimateHelp([
      ...MODEL_FILE_FLAGS.flags,
      ...TRAINING_CONFIG_FLAGS.flags,
      ...WRITE_CONFIG_FLAGS.flags,
      ...BUDGET_FLAGS.flags,
      ...OUTPUT_FLAGS.flags,
    ]),
  run(
    { sources, config, 'training-config': trainingConfigs, 'write-config': format, 'train-tokens': trainTokensText, ...flags },
    _operands,
    io,
  ) {
    const parsed = parseEstimateFlags(flags);
    const budget = parseFlags({ 'train-tokens': trainTokensText }, BUDGET_FLAGS);
    const budgetReader = createOptionReader(budget.options, BUDGET_FLAGS);
    const trainTokens = budgetReader.count('trainTokens');
    const budgetErrors = [...budget.errors, ...budgetReader.errors];
    if (!parsed.ok || budgetErrors.length > 0)
      return { usage: fieldErrorsLine([...(parsed.ok ? [] : parsed.errors), ...budgetErrors]) };
    if (format !== undefined && !isWriteFormat(format))
      return { usage: `--write-config: expected ${WRITE_CONFIG_FLAGS.flags[0]?.values?.join(', ')}, got '${String(format)}'` };
    const file = typeof config === 'string' ? readModelFile(config, io) : null;
    if (file !== null && 'refused' in file) return file;
    const setup = readTrainingConfigFiles(trainingConfigPaths(trainingConfigs), io);
    if ('refused' in setup) return setup;
    // The files give the setup; a flag given beside them wins, as it would on the tool's own command line.
    const read = setup.readings.length === 0 ? undefined : trainingConfigJson(setup.readings, {});
    // The stack a file implies (a LLaMA-Factory YAML runs LLaMA-Factory's defaults) joins its options, so `flags` carry it.
    const fromFiles = read === undefined ? {} : { ...(read.stack === null ? {} : { stack: read.stack }), ...read.options };
    const options = { ...fromFiles, ...parsed.options };
    const outcome = estimateMemory(file === null ? options : { ...options, modelConfig: file.config });
    if (!outcome.ok) return { usage: fieldErrorsLine(outcome.errors) };
    const result = withFileWarnings(outcome.result, file);
    const run = trainTokens === undefined ? undefined : (estimateRun(result, trainTokens) ?? undefined);
    if (trainTokens !== undefined && run === undefined)
      return {
        usage: fieldErrorsLine([{ field: 'train-tokens', message: 'a token budget needs a training step (--mode train)' }]),
      };
    const hidden = outcome.result.model?.hidden;
    const mapping =
      setup.readings.length === 0 ? undefined : trainingConfigJson(setup.readings, hidden === undefined ? {} : { hidden });
    const written = format === undefined ? undefined : writeConfig(format, options, outcome.result.resolved);
    return {
      json: () => estimateJson(result, resolvedFlags(outcome.result, options), mapping, written, run),
      text: () =>
        written !== undefined
          ? writtenConfigText(written.format, written)
          : `${mapping === undefined ? '' : renderTrainingConfig(mapping, sources === true)}${renderTable(result, sources === true)}${
              run === undefined
                ? ''
                : `\nWhole run of ${trainTokens?.toLocaleString('en-US')} tokens\n  ${runBudgetLine(run, 'on-demand')}\n\n`
            }`,
    };
  },
};
