import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { idMapping, sourceHeadingIds } from '../../../src/i18n/rehype-source-heading-ids';
import { isTranslation, sourcePathOf } from './support/translations';

/**
 * Every translated page keeps its English source's heading levels in the same order, because its section ids are the
 * English page's by position (src/i18n/rehype-source-heading-ids.ts). The build fails on a mismatch too; this test
 * says so in seconds, without a build, naming the page.
 */
const CONTENT_DIR = join(import.meta.dirname, '../../../content/docs');

function listPages(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? listPages(path) : entry.name.endsWith('.mdx') ? [path] : [];
  });
}

const translations = listPages(CONTENT_DIR)
  .map((path) => relative(CONTENT_DIR, path).replaceAll('\\', '/'))
  .filter(isTranslation);

describe('every translation keeps its source’s sections, so it can carry their anchors', () => {
  test.each(translations.map((path) => [path] as const))('%s', (path) => {
    const translated = join(CONTENT_DIR, path);
    const english = join(CONTENT_DIR, sourcePathOf(path));
    // idMapping throws, naming both files and both level sequences, when they differ.
    expect(() => idMapping(sourceHeadingIds(translated), sourceHeadingIds(english), { translated, english })).not.toThrow();
  });
});
