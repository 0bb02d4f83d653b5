/** The `plan` command: the planner's ranked plans for the flags given, as a table or JSON. */
import { createFlagTable, createOptionReader, ESTIMATE_FLAG_TABLE, numberFlag, parseFlags } from '../memory/index.ts';
import { EXAMPLE_PRICES, parsePlanFlags, PLAN_FLAG_TABLE, planTraining } from '../planner/index.ts';
import { fieldErrorsLine, type Command } from './command.ts';
import { planHelp } from './plan-help.ts';
import { planResultJson, type PlanJson } from './plan-json.ts';
import { renderPlanTable } from './plan-table.ts';
import { MODEL_FILE_FLAGS, readModelFile } from './model-file.ts';
import {
  planFlagsFromSetup,
  readTrainingConfigFiles,
  TRAINING_CONFIG_FLAGS,
  trainingConfigJson,
  trainingConfigPaths,
} from './training-config-file.ts';
import { renderTrainingConfig } from './training-config-table.ts';

/** What the plan takes from training configs; the mapping's other options are the planner's choices. */
const PLAN_TAKES =
  'plan takes --seq, --gpus, --global-batch, --task and the stack from the files; it chooses precision, recompute, sharding, offload and the optimizer itself';

/** Plans the table lists when --top is not given. */
const DEFAULT_TOP = 10;

/** Flags of the terminal's table only (the page pages through every plan). */
const OUTPUT_FLAGS = createFlagTable([
  numberFlag({ key: 'top', flag: 'top', default: String(DEFAULT_TOP), help: 'plans listed in the table (--json lists all)' }),
]);

/** `gpu-memory-lab plan`: the model, GPUs and batch in, every plan that fits out, ranked. */
export const planCommand: Command<PlanJson> = {
  name: 'plan',
  summary: 'every combination of techniques that fits your GPUs, ranked by step time or cost',
  // Every engine flag is accepted, so that a choice the planner makes is answered as one, not as an unknown flag.
  flagTables: [ESTIMATE_FLAG_TABLE, PLAN_FLAG_TABLE, MODEL_FILE_FLAGS, TRAINING_CONFIG_FLAGS, OUTPUT_FLAGS],
  operands: false,
  help: () => planHelp([...MODEL_FILE_FLAGS.flags, ...TRAINING_CONFIG_FLAGS.flags, ...OUTPUT_FLAGS.flags]),
  run({ top: topText, config, 'training-config': trainingConfigs, ...flags }, _operands, io) {
    const file = typeof config === 'string' ? readModelFile(config, io) : null;
    if (file !== null && 'refused' in file) return file;
    const setup = readTrainingConfigFiles(trainingConfigPaths(trainingConfigs), io);
    if ('refused' in setup) return setup;
    const output = parseFlags({ top: topText }, OUTPUT_FLAGS);
    const read = createOptionReader(output.options, OUTPUT_FLAGS);
    const top = read.count('top') ?? DEFAULT_TOP;
    const readFiles = setup.readings.length === 0 ? undefined : trainingConfigJson(setup.readings, {});
    const fromFiles = readFiles?.options ?? {};
    const fileStack = readFiles === undefined || readFiles.stack === null ? {} : { stack: readFiles.stack };
    const gpus = Number(typeof flags['gpus'] === 'string' ? flags['gpus'] : (fromFiles.dp ?? 1));
    // The files give the job; a flag given beside them wins.
    const parsed = parsePlanFlags(
      { ...planFlagsFromSetup(fromFiles, gpus), ...fileStack, ...flags },
      EXAMPLE_PRICES,
      file?.config,
    );
    const errors = [...output.errors, ...read.errors, ...(parsed.ok ? [] : parsed.errors)];
    if (!parsed.ok || errors.length > 0) return { usage: fieldErrorsLine(errors) };
    const result = planTraining(parsed.request);
    const hidden = parsed.request.base.modelConfig?.hidden ?? parsed.request.base.hidden;
    const mapping =
      setup.readings.length === 0 ? undefined : trainingConfigJson(setup.readings, hidden === undefined ? {} : { hidden });
    return {
      json: () => ({ ...planResultJson(result), ...(mapping === undefined ? {} : { trainingConfig: mapping }) }),
      text: () =>
        `${mapping === undefined ? '' : `${renderTrainingConfig(mapping, false)}${PLAN_TAKES}\n\n`}${renderPlanTable(result, top)}`,
    };
  },
};
