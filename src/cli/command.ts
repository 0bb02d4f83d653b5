/**
 * The one scaffold of the commands `estimate`, `plan` and `diagnose`: it reads argv with node:util parseArgs from the
 * command's flag tables, answers `--help`, prints the answer as text or (`--json`) as one JSON object on one line, and
 * turns bad input into exit code 2 and one line on stderr. A command is a value (`Command`) and `runCommand` is pure
 * but for `io`, so a test runs it in-process, the program (`program.ts`) dispatches `<program> <command.name>` to it,
 * and the library (`index.ts`) asks it for the same JSON.
 */
import { readFileSync } from 'node:fs';
import type { CommandName } from '../base/command-line.ts';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import {
  GPU_PRESETS,
  MODEL_PRESETS,
  type ShownFieldError,
  type FlagAlias,
  type FlagDefinition,
  type FlagTable,
} from '../memory/index.ts';

/** What a command run produced. */
export interface CliOutput {
  /** Exit code: 0 ok, 2 bad flag, value or input. */
  code: 0 | 2;
  stdout: string;
  stderr: string;
}

/** Reads the bytes of FILE, or of standard input for `-`; throws when it cannot. */
export type ReadInput = (source: string) => Uint8Array;

/** What a command may reach outside argv. */
export interface CommandIo {
  readonly read: ReadInput;
}

/** Flag values as parseArgs gives them, without the scaffold's own `--json` and `--help`. */
export type ArgValues = Readonly<Record<string, string | boolean | string[] | undefined>>;

/**
 * What a command answers: a result, printed as text or JSON as the reader asked (each built only when asked for);
 * bad flags or values (`usage`, the line ends "see --help"); or input it cannot read (`refused`).
 */
export type CommandAnswer<Json = unknown> =
  { readonly text: () => string; readonly json: () => Json } | { readonly usage: string } | { readonly refused: string };

/** One command: its name, flags, help and what it does with them; `Json` is the shape `--json` prints. */
export interface Command<Json = unknown> {
  /** The name printed before an error, and the one the program dispatches on. */
  readonly name: CommandName;
  /** One line for the program's `--help`. */
  readonly summary: string;
  /** The vocabularies of its flags; parseArgs accepts exactly these (with their aliases), `--json` and `--help`. */
  readonly flagTables: readonly FlagTable[];
  /** Whether it takes operands (diagnose's FILE); a command without says that flags start with --. */
  readonly operands: boolean;
  /** Its `--help` text. */
  help(): string;
  /** Answer the parsed flags and operands. */
  run(values: ArgValues, operands: readonly string[], io: CommandIo): CommandAnswer<Json>;
}

type ParseArgsOptions = NonNullable<ParseArgsConfig['options']>;

function parseArgsOptions(tables: readonly FlagTable[]): ParseArgsOptions {
  const options: ParseArgsOptions = {};
  for (const table of tables) {
    for (const spec of table.flags)
      options[spec.flag] =
        spec.kind === 'boolean' ? { type: 'boolean' } : { type: 'string', ...(spec.repeatable ? { multiple: true } : {}) };
    for (const alias of table.aliases) options[alias.flag] = { type: 'boolean' };
  }
  return { ...options, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } };
}

/**
 * Attach a value that starts with '-' to its flag (`--micro-batch -1` → `--micro-batch=-1`): node:util parseArgs
 * would otherwise call it ambiguous, and the reader should hear that -1 is not a valid batch instead.
 */
function attachDashValues(argv: readonly string[], options: ParseArgsOptions): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const next = argv[i + 1];
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : '';
    if (options[name]?.type === 'string' && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** One line naming the flag, from a node:util parseArgs error. */
function describeParseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const flag = /'(-[^' ]+)/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown flag ${flag}`;
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return `unexpected argument ${/'([^']*)'/.exec(message)?.[1] ?? ''}: flags start with --`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag !== '')
    return `bad value for ${flag.replace(/ .*/, '')}: ${message.split('.')[0] ?? message}`;
  return message;
}

/** Exit code 2 and the first line of `message`, with a pointer to `--help` when the flags were at fault. */
export const failure = (name: string, message: string, seeHelp: boolean): CliOutput => ({
  code: 2,
  stdout: '',
  stderr: `${name}: ${message.split('\n')[0] ?? message}${seeHelp ? ' (see --help)' : ''}\n`,
});

/** Reads FILE from disk, or standard input for `-`. */
export const READ_FILES: CommandIo = { read: (source) => readFileSync(source === '-' ? 0 : source) };

/** Run `command` on `argv` (without node and script). */
export function runCommand(command: Command, argv: readonly string[], io: CommandIo = READ_FILES): CliOutput {
  const options = parseArgsOptions(command.flagTables);
  let parsed: { values: ArgValues; positionals: string[] };
  try {
    // Only string flags are declared `multiple`, so a list parseArgs returns holds strings.
    parsed = parseArgs({
      args: attachDashValues(argv, options),
      options,
      strict: true,
      allowPositionals: command.operands,
    }) as typeof parsed;
  } catch (error) {
    return failure(command.name, describeParseError(error), true);
  }
  const { json, help, ...values } = parsed.values;
  if (help === true) return { code: 0, stdout: command.help(), stderr: '' };
  const answer = command.run(values, parsed.positionals, io);
  if ('usage' in answer) return failure(command.name, answer.usage, true);
  if ('refused' in answer) return failure(command.name, answer.refused, false);
  return { code: 0, stdout: json === true ? `${JSON.stringify(answer.json())}\n` : answer.text(), stderr: '' };
}

/** Field errors (the engine's and the planner's) as one line, each after its flag. */
export function fieldErrorsLine(errors: readonly ShownFieldError[]): string {
  return errors.map((e) => `--${e.field}: ${e.message}`).join('; ');
}

const HELP_COLUMN = 46;
const helpLine = (head: string, help: string) => `${`  ${head}`.padEnd(HELP_COLUMN)} ${help}`;

/** `--help` lines of flags: name, placeholder, help and default. */
export function flagHelpLines(flags: readonly FlagDefinition[]): string[] {
  return flags.map((spec) =>
    helpLine(
      `--${spec.flag}${spec.placeholder === '' ? '' : ` ${spec.placeholder}`}`,
      `${spec.help}${spec.default === undefined ? '' : ` (default ${spec.default})`}`,
    ),
  );
}

/** `--help` lines of aliases: name and the flag it stands for. */
export function aliasHelpLines(aliases: readonly FlagAlias<string>[]): string[] {
  return aliases.map((alias) => helpLine(`--${alias.flag}`, alias.help));
}

/** `--help` lines of the flags every command has. */
export function scaffoldHelpLines(): string[] {
  return [
    helpLine('--json', 'print exactly one JSON object, on one line (bytes as integers)'),
    helpLine('-h, --help', 'show this help'),
  ];
}

/** `--help` lines naming every model and GPU preset. */
export function presetHelpLines(): string[] {
  return [`Models: ${MODEL_PRESETS.map((p) => p.id).join(', ')}`, `GPUs:   ${GPU_PRESETS.map((g) => g.id).join(', ')}`];
}
