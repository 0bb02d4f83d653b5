/** `plan --help`, generated from the planner's flag table and the engine's flags it takes as given. */
import { PROGRAM_NAME } from '../base/command-line.ts';
import { ESTIMATE_FLAG_TABLE, type FlagDefinition } from '../memory/index.ts';
import { EXAMPLE_PRICES_DATE, FIXED_ESTIMATE_FLAGS, PLAN_FLAGS } from '../planner/index.ts';
import { aliasHelpLines, flagHelpLines, presetHelpLines, scaffoldHelpLines } from './command.ts';

/** Help text for the plan command, whose table has `outputFlags` besides the planner's. */
export function planHelp(outputFlags: readonly FlagDefinition[]): string {
  const given = ESTIMATE_FLAG_TABLE.flags.filter((spec) => FIXED_ESTIMATE_FLAGS.includes(spec.flag));
  const givenAliases = ESTIMATE_FLAG_TABLE.aliases.filter((alias) => FIXED_ESTIMATE_FLAGS.includes(alias.flag));
  return [
    `Usage: ${PROGRAM_NAME} plan --model ID --gpu ID --gpus N --global-batch N [flags]`,
    '',
    'Will it fit? Tries every combination of precision, attention, recompute, micro-batch × accumulation,',
    'ZeRO stage, offload, tensor/pipeline/data-parallel layout and optimizer on your GPUs (with --rent, also on',
    'GPUs you could rent), keeps those the memory engine says fit with the free margin, and ranks them by step',
    'time or cost. Sizes in GiB (2^30 bytes). The same flags work as a URL query on the planner page.',
    '',
    'The model and the fixed settings (the flags of `estimate`):',
    ...flagHelpLines(given),
    ...aliasHelpLines(givenAliases),
    '',
    'Planner flags:',
    ...flagHelpLines(PLAN_FLAGS),
    ...flagHelpLines(outputFlags),
    ...scaffoldHelpLines(),
    '',
    `Example prices (${EXAMPLE_PRICES_DATE}, US dollars per GPU-hour) are examples: replace them with --price.`,
    ...presetHelpLines(),
    '',
    'Examples:',
    `  ${PROGRAM_NAME} plan --model gpt2-xl --gpu rtx-4090 --global-batch 4 --seq 512 --task finetune`,
    `  ${PROGRAM_NAME} plan --model llama-2-7b --gpu a100-80gb --gpus 8 --global-batch 64 --seq 4096 --rank-by step-cost --rent`,
    `  ${PROGRAM_NAME} plan --model llama-3-70b --gpu rtx-4090 --global-batch 8 --seq 4096 --json`,
    '',
    'Exit codes: 0 ok (also when nothing fits: the shortfall is printed), 2 bad flag or value (one line on stderr).',
    '',
  ].join('\n');
}
