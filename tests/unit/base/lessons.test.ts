import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { LESSONS, lessonBySlug, lessonHref, lessonLabel } from '../../../src/base/lessons.ts';

const LESSON_DIR = resolve(import.meta.dirname, '../../../content/docs/lessons');

/** The `title:` of an MDX page's frontmatter. */
function frontmatterTitle(file: string): string | undefined {
  const frontmatter = /^---\n([\s\S]*?)\n---/.exec(readFileSync(resolve(LESSON_DIR, file), 'utf8'))?.[1] ?? '';
  return /^title:\s*(.+)$/m.exec(frontmatter)?.[1]?.trim();
}

describe('the lesson registry', () => {
  test('numbers run 1, 2, 3… in reading order, and each slug starts with its number', () => {
    LESSONS.forEach((lesson, i) => {
      expect(lesson.number).toBe(i + 1);
      expect(lesson.slug.startsWith(`${String(lesson.number).padStart(2, '0')}-`)).toBe(true);
    });
  });

  test('lists every lesson page, each titled as its frontmatter', () => {
    const pages = readdirSync(LESSON_DIR)
      .filter((file) => file.endsWith('.mdx'))
      .sort();
    expect(LESSONS.map((lesson) => `${lesson.slug}.mdx`)).toEqual(pages);
    for (const lesson of LESSONS) expect(frontmatterTitle(`${lesson.slug}.mdx`), lesson.slug).toBe(lesson.title);
  });

  test('paths, sections and labels', () => {
    expect(lessonHref('04-gradient-checkpointing')).toBe('/lessons/04-gradient-checkpointing/');
    expect(lessonHref('01-diagnostics', 'find-the-leak')).toBe('/lessons/01-diagnostics/#find-the-leak');
    expect(lessonBySlug('05-parallelism').title).toBe('Parallelism');
    expect(lessonLabel('08-putting-it-together')).toBe('Lesson 8: Putting it together');
  });
});
