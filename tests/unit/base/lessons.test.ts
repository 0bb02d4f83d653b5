import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { LESSONS, MOVED_LESSONS, lessonBySlug, lessonHref, lessonLabel, lessonSectionLabel } from '../../../src/base/lessons.ts';

const LESSON_DIR = resolve(import.meta.dirname, '../../../content/docs/lessons');

/** The `title:` of an MDX page's frontmatter. */
function frontmatterTitle(file: string): string | undefined {
  const frontmatter = /^---\n([\s\S]*?)\n---/.exec(readFileSync(resolve(LESSON_DIR, file), 'utf8'))?.[1] ?? '';
  return /^title:\s*(.+)$/m.exec(frontmatter)?.[1]?.trim();
}

describe('the lesson registry', () => {
  test('numbers run 1, 2, 3… in reading order, and slugs carry no number, so inserting a lesson moves no URL', () => {
    LESSONS.forEach((lesson, i) => {
      expect(lesson.number).toBe(i + 1);
      expect(lesson.slug).toMatch(/^[a-z]+(-[a-z]+)*$/);
    });
  });

  test('lists every lesson page, each titled as its frontmatter', () => {
    const pages = readdirSync(LESSON_DIR)
      .filter((file) => file.endsWith('.mdx'))
      .sort();
    expect(LESSONS.map((lesson) => `${lesson.slug}.mdx`).sort()).toEqual(pages);
    for (const lesson of LESSONS) expect(frontmatterTitle(`${lesson.slug}.mdx`), lesson.slug).toBe(lesson.title);
  });

  test('paths, sections and labels', () => {
    expect(lessonHref('gradient-checkpointing')).toBe('/lessons/gradient-checkpointing/');
    expect(lessonHref('diagnose-your-run', 'find-the-leak')).toBe('/lessons/diagnose-your-run/#find-the-leak');
    expect(lessonBySlug('parallelism').title).toBe('Parallelism');
    expect(lessonLabel('putting-it-together')).toBe(`Lesson ${LESSONS.length}: Putting it together`);
    expect(lessonSectionLabel('diagnose-your-run', 'find the leak')).toBe('Lesson 2: find the leak');
  });

  test('every old numbered URL forwards to a lesson in the registry', () => {
    for (const slug of Object.values(MOVED_LESSONS)) expect(LESSONS.map((lesson) => lesson.slug)).toContain(slug);
  });
});
