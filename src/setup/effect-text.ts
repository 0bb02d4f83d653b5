/** What one mapping line does, in words: the terminal's table and the site's reader print the same. */
import { flagName } from '../memory/flag-table.ts';
import type { EnglishEffect, MappingEffect } from './mapping.ts';
import { reasonText, SETUP_REASONS, type SetupReasons } from './reasons.ts';
import { SETUP_WORDS, type SetupWords } from './words.ts';

/**
 * The effect of `line` as one phrase: the flag it sets, or what is not modelled, named or left to the stack. A reason with
 * its code is worded by `reasons`; one read back from the terminal's JSON has only its English.
 */
export function effectText(
  line: { readonly effect: MappingEffect | EnglishEffect },
  words: SetupWords = SETUP_WORDS,
  reasons: SetupReasons = SETUP_REASONS,
): string {
  const { effect } = line;
  if (effect.kind === 'option') {
    // A boolean option is a flag given or left out, as on the command line.
    if (typeof effect.to === 'boolean') return `${effect.to ? '' : 'no '}--${flagName(effect.option)}`;
    return `--${flagName(effect.option)} ${effect.to}`;
  }
  if (effect.kind === 'names-file') return words.namesFile(effect.path);
  const text =
    'reason' in effect ? reasonText(effect.reason, reasons) : effect.kind === 'not-modelled' ? effect.what : effect.why;
  if (effect.kind === 'not-modelled') return words.notModelled(text);
  if (effect.kind === 'no-effect') return words.noEffect(text);
  return words.stackDefault(text);
}
