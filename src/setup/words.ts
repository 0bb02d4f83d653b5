/**
 * The training-config reader's own words around a mapping, kept together for translation: what a line does when it
 * sets no flag, how a conflict is told, and the merge order. The terminal prints them as here; the site's reader passes
 * its page's language's words of the same type (src/i18n). The rules' own reasons are worded by code in reasons.ts.
 */
export const SETUP_WORDS = {
  notModelled: (what: string) => `not modelled: ${what}`,
  noEffect: (why: string) => `no effect: ${why}`,
  namesFile: (path: string) => `names ${path}`,
  stackDefault: (why: string) => `stack default: ${why}`,
  /** One file's value in a conflict: the key and value stay as code. */
  conflictValue: (keyAndValue: string, file: string) => `\`${keyAndValue}\` in ${file}`,
  /** Between the files' values in a conflict. */
  conflictAnd: ' and ',
  /** The files' values, the option and its winning value, and why that one wins. */
  conflict: (said: string, option: string, value: string, why: string) => `${said}: ${option} = ${value}; ${why}`,
  mergeOrder:
    'accelerate config < trainer arguments (TrainingArguments/TRL, LLaMA-Factory, axolotl, torchtune, torchtitan, Unsloth) < DeepSpeed JSON; later files win ties',
};

/** The shape of those words in any language. */
export type SetupWords = typeof SETUP_WORDS;
