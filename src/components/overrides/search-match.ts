/**
 * Pagefind answers a word it cannot find with the longest prefix it can (Pagefind PR #315,
 * "If a word is not in the index, find the longest matching prefix that is"), with no limit and
 * no option to turn it off (pagefind_web/src/search.rs, `find_word_extensions`): "xqzvbnm"
 * returns every page with a word "x". It backtracks only when no indexed word starts with the
 * typed one, and a page must match every word of a query, so one backtracked word makes every
 * result of the query a false one. These helpers tell such a query by the words Pagefind
 * highlights in its results.
 */

/**
 * The words of a query or a highlight, lower-cased, punctuation dropped. Each Chinese character is a word of its own:
 * Pagefind indexes Chinese text character by character (no spaces to split on) and highlights "显存" as `<mark>显</mark>
 * <mark>存</mark>`, so the query "显存" must be judged as 显 and 存.
 */
export function searchWords(text: string): string[] {
  return text.toLowerCase().match(/\p{Script=Han}|(?:(?!\p{Script=Han})[\p{L}\p{N}])+/gu) ?? [];
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
 * Whether Pagefind backtracked a word of `query` to a far shorter prefix, judged from the
 * `highlights` of every result shown: some typed word has no plausible match among them. Without
 * highlights (nothing loaded yet, or matches in titles only) there is nothing to judge, so the
 * results stand.
 */
export function isBacktrackedQuery(query: string, highlights: readonly string[]): boolean {
  const typed = searchWords(query);
  const marked = highlights.flatMap(searchWords);
  if (typed.length === 0 || marked.length === 0) return false;
  return typed.some((word) => !marked.some((m) => isPlausibleMatch(word, m)));
}
