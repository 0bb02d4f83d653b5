/** `estimate --help`, generated from the engine's flag table. */
import { PROGRAM_NAME } from '../base/command-line.ts';
import { ESTIMATE_FLAG_TABLE, type FlagDefinition } from '../memory/index.ts';
import { aliasHelpLines, flagHelpLines, presetHelpLines, scaffoldHelpLines } from './command.ts';

/** Help text for the estimate command, whose table has `outputFlags` besides the engine's. */
export function estimateHelp(outputFlags: readonly FlagDefinition[]): string {
  return [
    `Usage: ${PROGRAM_NAME} estimate [flags]`,
    '',
    'Estimate GPU memory for training or inference: a breakdown in GiB (2^30 bytes) and GB (10^9 bytes),',
    'per-GPU totals, whether it fits a GPU with a free margin, warnings and a step-time estimate.',
    'The same flags work as a URL query on the site (?model=llama-2-7b&zero=3&dp=8).',
    '',
    'Flags:',
    ...flagHelpLines(ESTIMATE_FLAG_TABLE.flags),
    ...aliasHelpLines(ESTIMATE_FLAG_TABLE.aliases),
    ...flagHelpLines(outputFlags),
    ...scaffoldHelpLines(),
    '',
    ...presetHelpLines(),
    '',
    'Examples:',
    `  ${PROGRAM_NAME} estimate --model llama-2-7b --gpu a100-80gb --zero 3 --dp 8`,
    `  ${PROGRAM_NAME} estimate --model gpt2 --micro-batch 8 --recompute full --gpu rtx-4090`,
    `  ${PROGRAM_NAME} estimate --arch llama --hidden 2048 --layers 16 --heads 16 --kv-heads 4 --json`,
    `  ${PROGRAM_NAME} estimate --params 7.5b --precision mixed-fp16 --dp 64 --zero 2`,
    `  ${PROGRAM_NAME} estimate --model mistral-7b --mode infer --weights awq --tokens 32768 --gpu l4`,
    `  ${PROGRAM_NAME} estimate --model llama-3-8b --training-config train_full.yaml --training-config ds_z3.json`,
    '',
    'Exit codes: 0 ok, 2 bad flag or value (one line on stderr naming it).',
    '',
  ].join('\n');
}
