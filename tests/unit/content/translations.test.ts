import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { LOCALES } from '../../../src/i18n/locales';
import { isTranslation, sourcePathOf } from './support/translations';

/**
 * Every translated page records `sourceHash`, the first 16 hex digits of the SHA-256 of the English file it was
 * translated from, and this test fails as soon as the English file changes. Why a failing test rather than a notice on
 * the page ("翻译落后于英文版"): a stale translation can never ship silently, and whoever edits an English page sees at
 * once, in their own test run, which translations to hand to a translator; a notice would only tell readers, later.
 */
const CONTENT_DIR = join(import.meta.dirname, '../../../content/docs');

function listPages(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? listPages(path) : /\.mdx?$/.test(entry.name) ? [path] : [];
  });
}

/** The first 16 hex digits of the SHA-256 of a file's bytes: what `sha256sum FILE | cut -c1-16` prints. */
function sourceHashOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}

/** The `sourceHash:` of a page's frontmatter, or undefined. */
function frontmatterSourceHash(text: string): string | undefined {
  const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
  return /^sourceHash:\s*['"]?([^'"\s]+)['"]?\s*$/m.exec(frontmatter)?.[1];
}

const translations = listPages(CONTENT_DIR)
  .map((path) => relative(CONTENT_DIR, path).replaceAll('\\', '/'))
  .filter(isTranslation);

describe('every translation is of the English page as it is today', () => {
  test('the locale folders are the configured locales', () => {
    const folders = readdirSync(CONTENT_DIR, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && /^[a-z]{2}-[a-z]{2}$/.test(entry.name))
      .map((entry) => entry.name);
    const configured: string[] = Object.values(LOCALES).map((locale) => locale.path);
    expect(folders.filter((folder) => !configured.includes(folder))).toEqual([]);
  });

  test.each(translations.map((path) => [path] as const))('%s', (path) => {
    const source = sourcePathOf(path);
    const sourceFile = join(CONTENT_DIR, source);
    expect(existsSync(sourceFile), `content/docs/${path} translates content/docs/${source}, which does not exist`).toBe(true);
    const recorded = frontmatterSourceHash(readFileSync(join(CONTENT_DIR, path), 'utf8'));
    const current = sourceHashOf(readFileSync(sourceFile));
    expect(
      recorded,
      `content/docs/${path} has no \`sourceHash:\` in its frontmatter: add \`sourceHash: ${current}\` (sha256sum content/docs/${source} | cut -c1-16) once it translates content/docs/${source} as it is now`,
    ).toBeDefined();
    expect(
      recorded,
      `content/docs/${source} changed since content/docs/${path} was translated from it: update the translation, then set its sourceHash to ${current}`,
    ).toBe(current);
  });
});

describe('the staleness check catches what it is meant to', () => {
  test('the hash is sha256sum’s first 16 hex digits', () => {
    // `printf 'abc' | sha256sum` → ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
    expect(sourceHashOf(Buffer.from('abc'))).toBe('ba7816bf8f01cfea');
  });

  test('one changed byte changes the hash', () => {
    expect(sourceHashOf(Buffer.from('# Offload\n'))).not.toBe(sourceHashOf(Buffer.from('# Offload.\n')));
  });

  test('the hash is read from the frontmatter only', () => {
    expect(frontmatterSourceHash('---\ntitle: 卸载\nsourceHash: 0123456789abcdef\n---\n\nsourceHash: ffffffffffffffff\n')).toBe(
      '0123456789abcdef',
    );
    expect(frontmatterSourceHash('---\ntitle: 卸载\n---\n\nsourceHash: ffffffffffffffff\n')).toBeUndefined();
  });

  test('a translation maps to the English path', () => {
    expect(sourcePathOf('zh-cn/lessons/offload.mdx')).toBe('lessons/offload.mdx');
    expect(sourcePathOf('zh-cn/index.mdx')).toBe('index.mdx');
    expect(sourcePathOf('lessons/offload.mdx')).toBe('lessons/offload.mdx');
  });
});
