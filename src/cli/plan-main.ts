/** The plan CLI as a testable function: argv in, exit code and output text out. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { FLAGS, parseNumberFlag } from '../memory/index.ts';
import { EXAMPLE_PRICES, parsePlanFlags, PLAN_FLAG_SPECS, planTraining, type RawPlanFlags } from '../planner/index.ts';
import type { CliOutput } from './estimate-main.ts';
import { planHelp } from './plan-help.ts';
import { planResultJson } from './plan-json.ts';
import { renderPlanTable } from './plan-table.ts';

type OptionSpecs = NonNullable<ParseArgsConfig['options']>;

const OPTIONS: OptionSpecs = {
  // Every engine flag is accepted here so that a choice flag gets a clear message instead of "unknown".
  ...Object.fromEntries(FLAGS.map((spec) => [spec.flag, { type: spec.kind === 'boolean' ? 'boolean' : 'string' } as const])),
  ...Object.fromEntries(
    PLAN_FLAG_SPECS.map((spec) => [
      spec.name,
      { type: spec.kind === 'boolean' ? 'boolean' : 'string', multiple: spec.name === 'price' } as const,
    ]),
  ),
  top: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

const usageError = (message: string): CliOutput => ({ code: 2, stdout: '', stderr: `plan: ${message} (see --help)\n` });

/** One line naming the flag, from a node:util parseArgs error. */
function describeParseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const flag = /'(-[^' ]+)/.exec(message)?.[1];
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag !== undefined) return `unknown flag ${flag}`;
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return 'unexpected argument: flags start with --';
  return message.split('\n')[0] ?? message;
}

/** Run the plan CLI on `argv` (without node and script). */
export function planMain(argv: readonly string[]): CliOutput {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    values = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }).values as typeof values;
  } catch (error) {
    return usageError(describeParseError(error));
  }
  if (values['help'] === true) return { code: 0, stdout: planHelp(), stderr: '' };
  const { json, help: _help, top: topText, ...flags } = values;
  let top = 10;
  if (typeof topText === 'string') {
    const parsed = parseNumberFlag(topText);
    if (parsed === undefined || !Number.isInteger(parsed) || parsed < 1)
      return usageError(`--top: expected a whole number of at least 1, got '${topText}'`);
    top = parsed;
  }
  const parsed = parsePlanFlags(flags as RawPlanFlags, EXAMPLE_PRICES);
  if (!parsed.ok) return usageError(parsed.errors.map((e) => `--${e.field}: ${e.message}`).join('; '));
  const result = planTraining(parsed.request);
  if (json === true) return { code: 0, stdout: `${JSON.stringify(planResultJson(result), null, 2)}\n`, stderr: '' };
  return { code: 0, stdout: renderPlanTable(result, top), stderr: '' };
}
