/** What one mapping line does, in words: the terminal's table and the site's reader print the same. */
import { flagName } from '../memory/flag-table.ts';
import type { MappingLine } from './mapping.ts';

/** The effect of `line` as one phrase: the flag it sets, or what is not modelled, named or left to the stack. */
export function effectText(line: MappingLine): string {
  const { effect } = line;
  if (effect.kind === 'option') {
    // A boolean option is a flag given or left out, as on the command line.
    if (typeof effect.to === 'boolean') return `${effect.to ? '' : 'no '}--${flagName(effect.option)}`;
    return `--${flagName(effect.option)} ${effect.to}`;
  }
  if (effect.kind === 'not-modelled') return `not modelled: ${effect.what}`;
  if (effect.kind === 'no-effect') return `no effect: ${effect.why}`;
  if (effect.kind === 'names-file') return `names ${effect.path}`;
  return `stack default: ${effect.why}`;
}
