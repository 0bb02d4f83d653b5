/**
 * The `gpu-memory-lab` program (`gml` for short): `<program> <command> [flags]` runs one of the commands, and
 * `--help` alone lists them. The package's bins and the npm scripts of this repository run it (main.ts), so a command
 * prints the same bytes wherever it runs.
 */
import { PROGRAM_NAME } from '../base/command-line.ts';
import { failure, READ_FILES, runCommand, type CliOutput, type Command, type CommandIo } from './command.ts';
import { diagnoseCommand } from './diagnose-command.ts';
import { diffusionCommand } from './diffusion-command.ts';
import { estimateCommand } from './estimate-command.ts';
import { planCommand } from './plan-command.ts';

/** Every command, in the order `--help` lists them. */
const COMMANDS: readonly Command[] = [estimateCommand, planCommand, diagnoseCommand, diffusionCommand];

const COMMAND_LIST = `${COMMANDS.slice(0, -1)
  .map((c) => c.name)
  .join(', ')} or ${COMMANDS.at(-1)?.name ?? ''}`;

function programHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 3;
  return [
    `Usage: ${PROGRAM_NAME} <command> [flags]        (gml <command> [flags] for short)`,
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    `${PROGRAM_NAME} <command> --help lists the command's flags; --json prints one JSON object, on one line.`,
    'Exit codes: 0 ok, 2 bad command, flag, value or input (one line on stderr naming it).',
    '',
  ].join('\n');
}

/** Run the program on `argv` (without node and script): the command named first, on the arguments after it. */
export function runProgram(argv: readonly string[], io: CommandIo = READ_FILES): CliOutput {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h') return { code: 0, stdout: programHelp(), stderr: '' };
  if (name === undefined) return failure(PROGRAM_NAME, `give a command: ${COMMAND_LIST}`, true);
  const command = COMMANDS.find((c) => c.name === name);
  if (command === undefined) return failure(PROGRAM_NAME, `unknown command ${name}: ${COMMAND_LIST}`, true);
  return runCommand(command, rest, io);
}
