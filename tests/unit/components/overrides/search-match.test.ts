import { describe, expect, test } from 'vitest';
import { isBacktrackedResult, isPlausibleMatch } from '../../../../src/components/overrides/search-match';

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

describe('isBacktrackedResult(query, highlights)', () => {
  test('a nonsense word whose only highlights are one-letter backtracks is dropped', () => {
    expect(isBacktrackedResult('xqzvbnm', ['x:', 'X.', 'x'])).toBe(true);
  });
  test('a result with one plausible highlight stays', () => {
    expect(isBacktrackedResult('gradient checkpointing', ['as', 'Checkpoint'])).toBe(false);
  });
  test('a result without highlights (matched in its title) stays, and so does an empty query', () => {
    expect(isBacktrackedResult('xqzvbnm', [])).toBe(false);
    expect(isBacktrackedResult('  ', ['x'])).toBe(false);
  });
});
