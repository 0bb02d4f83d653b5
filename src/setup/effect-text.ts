/** What one mapping line does, in words: the terminal's table and the site's reader print the same. */
import { flagName } from '../memory/flag-table.ts';
import type { MappingLine } from './mapping.ts';
import { SETUP_WORDS, type SetupWords } from './words.ts';

/** The effect of `line` as one phrase: the flag it sets, or what is not modelled, named or left to the stack. */
export function effectText(line: MappingLine, words: SetupWords = SETUP_WORDS): string {
  const { effect } = line;
  if (effect.kind === 'option') {
    // A boolean option is a flag given or left out, as on the command line.
    if (typeof effect.to === 'boolean') return `${effect.to ? '' : 'no '}--${flagName(effect.option)}`;
    return `--${flagName(effect.option)} ${effect.to}`;
  }
  if (effect.kind === 'not-modelled') return words.notModelled(effect.what);
  if (effect.kind === 'no-effect') return words.noEffect(effect.why);
  if (effect.kind === 'names-file') return words.namesFile(effect.path);
  return words.stackDefault(effect.why);
}
