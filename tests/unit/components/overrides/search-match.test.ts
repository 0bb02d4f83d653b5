import { describe, expect, test } from 'vitest';
import { isBacktrackedQuery, isPlausibleMatch, searchWords } from '../../../../src/components/overrides/search-match';

describe('isPlausibleMatch(typed, highlighted)', () => {
  test.each([
    // Pagefind PR #315's own example: a half-typed word finds its stem.
    ['installa', 'installation', true],
    ['checkpointing', 'checkpoint', true],
    ['studies', 'study', true],
    ['oom', 'oom', true],
    ['fsdp2', 'fsdp2', true],
    // Pagefind issue #599: "sdafadsfasdf" matched every "sd".
    ['sdafadsfasdf', 'sd', false],
    ['xqzvbnm', 'x', false],
    ['asdfgh', 'as', false],
    ['zzzz', 'z', false],
    ['gp', 'gpu', true],
    ['gpx', 'gpu', false],
  ] as const)('%s → %s: %s', (typed, highlighted, plausible) => {
    expect(isPlausibleMatch(typed, highlighted)).toBe(plausible);
  });
});

describe('isBacktrackedQuery(query, highlights)', () => {
  test('a nonsense word whose only highlights are one-letter backtracks is a query without results', () => {
    expect(isBacktrackedQuery('xqzvbnm', ['x:', 'X.', 'x'])).toBe(true);
    // "Qwen" is on no page; Pagefind backtracked it to the glossary's "Q." heading.
    expect(isBacktrackedQuery('Qwen', ['Q.'])).toBe(true);
  });
  test('a query whose every word has a plausible highlight stands', () => {
    expect(isBacktrackedQuery('gradient checkpointing', ['as', 'Checkpoint', 'Gradient'])).toBe(false);
  });
  test('one backtracked word of several is enough: Pagefind matches every word on each page', () => {
    expect(isBacktrackedQuery('qwen memory', ['memory', 'q'])).toBe(true);
  });
  test('without highlights (matched in titles) the results stand, and so does an empty query', () => {
    expect(isBacktrackedQuery('xqzvbnm', [])).toBe(false);
    expect(isBacktrackedQuery('  ', ['x'])).toBe(false);
  });
});

describe('Chinese queries (Pagefind highlights them character by character)', () => {
  test('each Chinese character is a word, Latin words stay whole', () => {
    expect(searchWords('GPU显存，梯度检查点')).toEqual(['gpu', '显', '存', '梯', '度', '检', '查', '点']);
  });
  test('a Chinese word whose characters are all highlighted stands', () => {
    expect(isBacktrackedQuery('显存', ['显', '存', '存活'])).toBe(false);
    expect(isBacktrackedQuery('显存碎片', ['显', '存', '碎', '片'])).toBe(false);
  });
  test('a Chinese character no result highlights makes the query one without results', () => {
    expect(isBacktrackedQuery('显卡', ['显', '存'])).toBe(true);
  });
});
