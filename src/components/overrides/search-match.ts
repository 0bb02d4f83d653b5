/**
 * Pagefind answers a word it cannot find with the longest prefix it can (Pagefind PR #315,
 * "If a word is not in the index, find the longest matching prefix that is"), with no limit
 * (Pagefind issues #599 and #780, open): "xqzvbnm" returns every page with a word "x".
 * These helpers tell such results from real ones by the words Pagefind highlights in them.
 */

/** The words of a query or a highlight, lower-cased, punctuation dropped. */
export function searchWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

const commonPrefixLength = (a: string, b: string): number => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};

/**
 * Whether `highlighted` can be what the reader meant by `typed`: it starts with what was typed
 * (typing in progress), or shares at least half of it and three letters, which a stem does
 * ("checkpointing" → "checkpoint", "studies" → "study"). Words of up to three letters must match whole.
 */
export function isPlausibleMatch(typed: string, highlighted: string): boolean {
  const needed = typed.length <= 3 ? typed.length : Math.max(3, Math.ceil(typed.length / 2));
  return commonPrefixLength(typed, highlighted) >= needed;
}

/**
 * Whether a result only matched a far-backtracked prefix of the query: it has highlights and
 * none of them is a plausible match for any query word. Without highlights (a match in the
 * title) there is nothing to judge, so the result stays.
 */
export function isBacktrackedResult(query: string, highlights: readonly string[]): boolean {
  const typed = searchWords(query);
  const marked = highlights.flatMap(searchWords);
  if (typed.length === 0 || marked.length === 0) return false;
  return !typed.some((word) => marked.some((m) => isPlausibleMatch(word, m)));
}
