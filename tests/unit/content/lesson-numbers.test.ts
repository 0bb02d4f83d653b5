import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from 'vitest';
import { LESSONS } from '../../../src/base/lessons';

/**
 * A link whose text names a lesson by number ("[lesson 2: find the leak](/lessons/diagnose-your-run/…)") must point at
 * the lesson with that number in the registry: numbers move when a lesson is inserted or split, URLs do not.
 */
const CONTENT_DIR = join(import.meta.dirname, '../../../content/docs');

function listPages(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? listPages(path) : entry.name.endsWith('.mdx') ? [path] : [];
  });
}

const numbered = listPages(CONTENT_DIR).flatMap((path) =>
  [...readFileSync(path, 'utf8').matchAll(/\[[^\]]*?\blesson (\d+)\b[^\]]*\]\((?:\/zh-cn)?\/lessons\/([a-z-]+)\//gi)].map(
    (m) => ({ page: relative(CONTENT_DIR, path), text: m[0], number: Number(m[1]), slug: m[2]! }),
  ),
);

test('the content names lessons by number somewhere, so this check has something to hold', () => {
  expect(numbered.length).toBeGreaterThan(10);
});

test.each(numbered.map((link) => [link.page, link.text, link] as const))('%s: %s', (_page, _text, link) => {
  expect(LESSONS.find((lesson) => lesson.slug === link.slug)?.number).toBe(link.number);
});
