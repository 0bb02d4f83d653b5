/**
 * How a reader runs the terminal commands: through the package's `bin` with npx, so that a line the site or a command
 * prints works on any machine with Node, a clone of this repository or not. Every place that prints a command line
 * writes it here. It sits in src/base so that the pure layers (the planner's `check` lines) and the islands share it.
 */

/** The package's name, and the name of its `bin` (`gml` is its short alias). */
export const PROGRAM_NAME = 'gpu-memory-lab';

/** The commands the program dispatches to. */
export type CommandName = 'estimate' | 'plan' | 'diagnose' | 'diffusion';

/** An argument as a POSIX shell reads it back: as it is when it is plain, else in single quotes (a file name with spaces). */
const shellWord = (arg: string): string => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`);

/**
 * The command line that runs `command` on `args` (already split, as a terminal takes them).
 * @example commandLine('diagnose', ['my run.txt']) // "npx gpu-memory-lab diagnose 'my run.txt'"
 */
export function commandLine(command: CommandName, args: readonly string[]): string {
  return ['npx', PROGRAM_NAME, command, ...args.map(shellWord)].join(' ');
}
