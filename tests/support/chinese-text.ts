/** What the tests of the Chinese pages look for in a text: Chinese, and English left untranslated. */

/** A letter of a Han script: a string with one is Chinese, not English left over. */
export const HAN = /\p{Script=Han}/u;

/**
 * Four English words in a row, apart by spaces (a comma may end a word): a sentence left untranslated. Code, flags,
 * keys and file names (`local_batch_size`, `--zero 3`, `memory.used`), ids and a list without spaces (`q,k,v,o`) break
 * the run, so they may stay as written.
 */
export const ENGLISH_RUN = /(?<![\w.-])[A-Za-z]+(?:,?\s+[A-Za-z]+){3,}(?![\w.-])/;
