/**
 * `estimate --write-config FORMAT`: the estimate's setup written as the file a tool runs it from (src/setup/writers),
 * instead of the table, carrying every option the tool's own stack would otherwise decide differently. What the file
 * cannot say is listed as `#` comments above it (the JSON formats have no comments: `--json` carries the list as
 * `writtenConfig.unexpressed`).
 */
import { createFlagTable, enumFlag, type EstimateOptions, type ResolvedEstimate, type Stack } from '../memory/index.ts';
import { isWriteFormat, WRITE_FORMATS, writeReproducing, type WriteFormat, type WrittenConfig } from '../setup/index.ts';

export { isWriteFormat, type WriteFormat };

/** The flag. */
export const WRITE_CONFIG_FLAGS = createFlagTable([
  enumFlag(
    {
      key: 'writeConfig',
      flag: 'write-config',
      help: "print the setup as a tool's file instead of the table (what it cannot say as # comments)",
    },
    Object.keys(WRITE_FORMATS),
  ),
]);

/** A written file as `--json` carries it: the format, the text, what it cannot say, and the stack it runs on. */
export interface WrittenConfigJson extends WrittenConfig {
  readonly format: WriteFormat;
  readonly targetStack: Stack;
}

/** Write the estimate of `options` (resolved to `resolved`) as `format`, for the target tool's own stack. */
export function writeConfig(format: WriteFormat, options: EstimateOptions, resolved: ResolvedEstimate): WrittenConfigJson {
  const { text, unexpressed, targetStack } = writeReproducing(format, options, resolved);
  return { format, text, unexpressed, targetStack };
}

/** The file's text as the terminal prints it: the notes as comments first, where the format has comments. */
export function writtenConfigText(format: WriteFormat, written: WrittenConfig): string {
  if (!WRITE_FORMATS[format].comments || written.unexpressed.length === 0) return written.text;
  const notes = written.unexpressed.map((entry) => `# not in this file: ${entry.option}: ${entry.why}`);
  return `${notes.join('\n')}\n${written.text}`;
}
