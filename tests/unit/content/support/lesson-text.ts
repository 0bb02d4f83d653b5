import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import GithubSlugger from 'github-slugger';
import { LESSONS } from '../../../../src/base/lessons';

/** Where the lesson pages live. */
export const LESSON_DIR = join(import.meta.dirname, '../../../../content/docs/lessons');

/** A lesson page's slug and MDX source. */
export interface LessonText {
  readonly slug: string;
  readonly text: string;
}

/** Every lesson of the registry with its MDX source, in reading order. */
export function readLessons(): LessonText[] {
  return LESSONS.map((lesson) => ({ slug: lesson.slug, text: readFileSync(join(LESSON_DIR, `${lesson.slug}.mdx`), 'utf8') }));
}

/**
 * The words a reader reads in a lesson's running text: what is left once the frontmatter, imports, code blocks, folds
 * (`<details>`), display math and component tags are taken out. A build-time figure (`<Estimate/>` and its kin) is one
 * word, as it prints one figure; a link counts its text, not its address; inline math and code count as one word each.
 * A word is a run of letters or digits, joined by an apostrophe, point, comma or hyphen ("don't", "3.2", "1,024").
 */
export function proseWords(mdx: string): number {
  const prose = mdx
    .replace(/^---\n[\s\S]*?\n---\n/, '')
    .replace(/^import .*$/gm, '')
    .replace(/^(\s*)(```|~~~)[\s\S]*?^\1\2\s*$/gm, '')
    .replace(/<details>[\s\S]*?<\/details>/g, '')
    .replace(/\$\$[\s\S]*?\$\$/g, '')
    .replace(/<(Estimate|LabPrediction|TraceFigure)\b[^>]*?\/>/gs, ' figure ')
    .replace(/<[A-Za-z][^>]*?\/>/gs, ' ')
    .replace(/<\/?[A-Za-z][^>]*>/gs, ' ')
    .replace(/\$[^$\n]+\$/g, ' math ')
    .replace(/`[^`\n]+`/g, ' code ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s*\|?[\s:|-]+\|[\s:|-]*$/gm, '');
  return prose.match(/[\p{L}\p{N}]+(?:['’.,-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}

/** The ids of a page's headings, as Starlight gives them (github-slugger over the heading's text). */
export function headingIds(mdx: string): Set<string> {
  const slugger = new GithubSlugger();
  const ids = new Set<string>();
  for (const match of mdx.matchAll(/^#{2,6} (.+)$/gm)) {
    const text = match[1]!.replace(/`([^`]*)`/g, '$1').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    ids.add(slugger.slug(text));
  }
  return ids;
}

/** The "What to do" box a lesson opens with: its list items, or undefined when the page does not open with one. */
export function whatToDoItems(mdx: string): string[] | undefined {
  const body = mdx
    .replace(/^---\n[\s\S]*?\n---\n/, '')
    .replace(/^import .*$/gm, '')
    .trimStart();
  const box = /^<WhatToDo>\n([\s\S]*?)\n<\/WhatToDo>/.exec(body)?.[1];
  if (box === undefined) return undefined;
  return box
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.replace(/^\s*(?:[-*]|\d+\.)\s+/, ''));
}
