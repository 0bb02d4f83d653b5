import { describe, expect, test } from 'vitest';
import { GIB } from '../../../src/base/bytes';
import { LOCALES, type Locale } from '../../../src/i18n/locales';
import { MESSAGES } from '../../../src/i18n/messages/index';

/**
 * Every catalogue has the same keys. The typecheck already refuses a catalogue that differs from `Messages`; this test
 * names the key, for whoever adds a message to one language, and holds even where a cast slipped past the types.
 */
function leaves(value: unknown, prefix = ''): { readonly path: string; readonly kind: string }[] {
  if (typeof value !== 'object' || value === null) return [{ path: prefix, kind: typeof value }];
  // ' › ' joins the path: Starlight's keys contain dots ('search.devWarning').
  return Object.entries(value).flatMap(([key, child]) => leaves(child, prefix === '' ? key : `${prefix} › ${key}`));
}

/** Every key of a catalogue down to its messages (a string or a function), as a path. */
const keyPaths = (value: unknown): string[] => leaves(value).map((leaf) => leaf.path);

const locales = Object.keys(LOCALES) as Locale[];

describe('the message catalogues', () => {
  test('every configured language has a catalogue', () => {
    expect(Object.keys(MESSAGES).sort()).toEqual([...locales].sort());
  });

  test.each(locales.filter((locale) => locale !== 'en').map((locale) => [locale] as const))(
    '%s has exactly the English keys (functions count as keys)',
    (locale) => {
      const english = new Set(keyPaths(MESSAGES.en));
      const translated = new Set(keyPaths(MESSAGES[locale]));
      expect(
        [...english].filter((key) => !translated.has(key)),
        `keys missing from ${locale}`,
      ).toEqual([]);
      expect(
        [...translated].filter((key) => !english.has(key)),
        `keys ${locale} has that English lacks`,
      ).toEqual([]);
    },
  );

  test.each(locales.map((locale) => [locale] as const))('%s: each message is the same kind as the English one', (locale) => {
    const kinds = (messages: unknown) => leaves(messages).map((leaf) => `${leaf.path}: ${leaf.kind}`);
    expect(kinds(MESSAGES[locale])).toEqual(kinds(MESSAGES.en));
  });

  test('the key walk sees a key missing deep down, and a function as a key', () => {
    expect(keyPaths({ a: { b: 'x', c: () => 'y' } })).toEqual(['a › b', 'a › c']);
  });

  test('sizes print with the locale’s digits and the unit unchanged', () => {
    expect(MESSAGES.en.format.gib(1.5 * GIB)).toBe('1.50 GiB');
    expect(MESSAGES['zh-cn'].format.gib(1.5 * GIB)).toBe('1.50 GiB');
    expect(MESSAGES['zh-cn'].format.gib(1234.5 * GIB, 1)).toBe('1,234.5 GiB');
    expect(MESSAGES['zh-cn'].format.gib(-1)).toBe(MESSAGES['zh-cn'].format.gib(Number.NaN));
  });

  test('the Chinese verdict reads as Chinese, with the GPU name kept', () => {
    const verdict = MESSAGES['zh-cn'].calculator.fits('RTX 4090', MESSAGES['zh-cn'].format.gib(3 * GIB));
    expect(verdict).toContain('RTX 4090');
    expect(verdict).toContain('3.00 GiB');
    expect(verdict).toMatch(/\p{Script=Han}/u);
  });
});
