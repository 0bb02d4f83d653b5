import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { sourcePathOf } from './support/translations';

/**
 * The lab's measuring caveats are said once, on "How the lab measures" (content/docs/lab/how-the-lab-measures.mdx),
 * and a lesson quotes a measurement only through a component that reads a committed trace (`<TraceFigure/>`), a
 * prediction only through one that computes it (`<LabPrediction/>`, `<Estimate/>`): a caveat restated in a lesson, or a
 * figure typed into one, goes stale when the runtime, the lab or the engine changes.
 */
const CONTENT_DIR = join(import.meta.dirname, '../../../content/docs');
const METHOD_PAGE = 'lab/how-the-lab-measures.mdx';
const METHOD_HREF = '/lab/how-the-lab-measures/';

/** Phrases that restate how the lab measures; each must appear on the method page and on no other page. */
const CAVEAT_PHRASES: readonly RegExp[] = [
  /size (class|bucket)/i,
  /(staging|uniform) buffers[^.]*hold no tensor/i,
  /only after (its next|a) flush/i,
  /a fifth of its size/i,
  /usual (range|band)/i,
  /is like `torch\.cuda\.memory_reserved\(\)`/,
];

/** A memory figure typed by hand, e.g. "4.67 MiB", "5,160,976 bytes". */
const TYPED_MEMORY_FIGURE = /\d[\d,.]*\s*(MB|KB|MiB|KiB|GB|GiB|bytes)\b/;
/** Words that make a sentence a report of what the lab measured or predicts. */
const LAB_FIGURE_WORDS = /\b(measur\w*|peaked|recorded|in our runs|predict\w*)\b/i;
/** Build-time figure components: what they print is computed, not typed. */
const FIGURE_COMPONENTS = /<(Estimate|LabPrediction|TraceFigure)\b[^>]*?\/>/gs;

function listPages(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? listPages(path) : /\.mdx?$/.test(entry.name) ? [path] : [];
  });
}

const pages = listPages(CONTENT_DIR).map((path) => ({ name: relative(CONTENT_DIR, path), text: readFileSync(path, 'utf8') }));
// The method page's translation says the caveats too (with the English terms in brackets at their first use).
const otherPages = pages.filter((page) => sourcePathOf(page.name) !== METHOD_PAGE);
const lessons = pages.filter((page) => page.name.startsWith('lessons/'));

/** A lesson's "## Experiment" section, up to the next second-level heading ('' when it has none). */
function experimentSection(text: string): string {
  return /^## Experiment\n([\s\S]*?)(?=^## )/m.exec(text)?.[1] ?? '';
}

describe('the measuring caveats are said once, on the method page', () => {
  const methodPage = pages.find((page) => page.name === METHOD_PAGE);

  test.each(CAVEAT_PHRASES.map((phrase) => [String(phrase), phrase] as const))('%s: on the method page', (_name, phrase) => {
    expect(methodPage?.text).toMatch(phrase);
  });

  test.each(otherPages.map((page) => [page.name, page] as const))('%s restates no caveat', (_name, page) => {
    const restated = CAVEAT_PHRASES.filter((phrase) => phrase.test(page.text)).map(String);
    expect(restated).toEqual([]);
  });

  test.each(lessons.filter((lesson) => experimentSection(lesson.text) !== '').map((lesson) => [lesson.name, lesson] as const))(
    '%s: its experiment links to the method page',
    (_name, lesson) => {
      expect(experimentSection(lesson.text)).toContain(`](${METHOD_HREF}`);
    },
  );
});

describe('no lesson types a measured or predicted lab figure by hand', () => {
  test('the lessons have experiment sections to check', () => {
    expect(lessons.filter((lesson) => experimentSection(lesson.text) !== '').length).toBeGreaterThanOrEqual(6);
  });

  test.each(lessons.map((lesson) => [lesson.name, lesson] as const))('%s', (_name, lesson) => {
    const prose = experimentSection(lesson.text).replace(FIGURE_COMPONENTS, 'FIGURE');
    const typed = prose
      .split(/(?<=[.!?:;])\s+|\n\n/)
      .filter((sentence) => LAB_FIGURE_WORDS.test(sentence) && TYPED_MEMORY_FIGURE.test(sentence));
    expect(typed).toEqual([]);
  });
});
